/// A journal's checkpoints in index order, with cheap removal from the front.
@usableFromInline
struct CheckpointList<State: Sendable>: Sendable {
  @usableFromInline var items: [JournalCheckpoint<State>] = []
  @usableFromInline var sizes: [Int] = []
  @usableFromInline var head = 0
  /// The approximate bytes of the states held.
  @usableFromInline var byteCount = 0

  var all: ArraySlice<JournalCheckpoint<State>> { items[head...] }
  @usableFromInline init() {}

  @inlinable var isEmpty: Bool { head == items.count }
  /// The index of the last checkpoint, without copying its state.
  @inlinable var lastIndex: Int? { head < items.count ? items[items.count - 1].index : nil }
  var last: JournalCheckpoint<State>? { head < items.count ? items[items.count - 1] : nil }
  var first: JournalCheckpoint<State>? { head < items.count ? items[head] : nil }
  var count: Int { items.count - head }

  /// Adds a checkpoint after the last one, or replaces the last one at the same index.
  @usableFromInline
  mutating func append(_ checkpoint: JournalCheckpoint<State>, size: Int) {
    if let last, last.index == checkpoint.index {
      items[items.count - 1] = checkpoint
      byteCount += size - sizes[sizes.count - 1]
      sizes[sizes.count - 1] = size
      return
    }
    precondition(last.map { $0.index < checkpoint.index } ?? true, "checkpoints must be added in order")
    items.append(checkpoint)
    sizes.append(size)
    byteCount += size
  }

  /// The last checkpoint at or before `index`.
  func nearest(atOrBefore index: Int) -> JournalCheckpoint<State>? {
    guard let position = position(atOrBefore: index) else { return nil }
    return items[position]
  }

  /// The size counted for the checkpoint at `index`; 0 when there is none.
  func size(ofCheckpointAt index: Int) -> Int {
    guard let position = position(atOrBefore: index), items[position].index == index else { return 0 }
    return sizes[position]
  }

  /// The first checkpoint after `index`.
  func first(after index: Int) -> JournalCheckpoint<State>? {
    let next = (position(atOrBefore: index) ?? head - 1) + 1
    return next < items.count ? items[next] : nil
  }

  private func position(atOrBefore index: Int) -> Int? {
    var low = head
    var high = items.count
    while low < high {
      let middle = (low + high) / 2
      if items[middle].index <= index { low = middle + 1 } else { high = middle }
    }
    return low > head ? low - 1 : nil
  }

  /// Removes the checkpoints before `index`.
  mutating func removeAll(before index: Int) {
    while head < items.count, items[head].index < index {
      byteCount -= sizes[head]
      head += 1
    }
    if head > 64, head * 2 > items.count {
      items.removeFirst(head)
      sizes.removeFirst(head)
      head = 0
    }
  }

  /// Removes the checkpoints after `index`.
  mutating func removeAll(after index: Int) {
    while items.count > head, items[items.count - 1].index > index {
      byteCount -= sizes.removeLast()
      items.removeLast()
    }
  }

  mutating func removeAll() {
    self = CheckpointList()
  }
}

extension CheckpointList {
  /// Adds a checkpoint before the first one.
  mutating func prepend(_ checkpoint: JournalCheckpoint<State>, size: Int) {
    precondition(first.map { checkpoint.index < $0.index } ?? true, "checkpoints must stay in order")
    if head > 0 {
      head -= 1
      items[head] = checkpoint
      sizes[head] = size
    } else {
      items.insert(checkpoint, at: 0)
      sizes.insert(size, at: 0)
    }
    byteCount += size
  }
}
