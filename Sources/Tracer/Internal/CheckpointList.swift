/// A journal's checkpoints in index order, with cheap removal from the front.
@usableFromInline
struct CheckpointList<State: Sendable>: Sendable {
  @usableFromInline var items: [JournalCheckpoint<State>] = []
  @usableFromInline var sizes: [Int] = []
  /// Whether the checkpoint at the same position was estimated without the buffers it shares
  /// with the one before it (see ``append(estimating:)``).
  var sharesWithPrevious: [Bool] = []
  @usableFromInline var head = 0
  /// The approximate bytes of the states held.
  @usableFromInline var byteCount = 0
  /// The heap buffers of the last checkpoint whose state was walked (at ``buffersIndex``): a
  /// buffer a later checkpoint shares with it is counted once. Emptied whenever that checkpoint
  /// goes, so that an address is never compared once its buffer may have been freed and reused.
  var lastBuffers: Set<UInt> = []
  var buffersIndex: Int?
  /// How many more checkpoints count ``reusedSize`` instead of walking their state: a walk that
  /// costs more is made less often (see ``StateSizeEstimate``).
  var reuses = 0
  var reusedSize = 0

  var all: ArraySlice<JournalCheckpoint<State>> { items[head...] }
  @usableFromInline init() {}

  @inlinable var isEmpty: Bool { head == items.count }
  /// The index of the last checkpoint, without copying its state.
  @inlinable var lastIndex: Int? { head < items.count ? items[items.count - 1].index : nil }
  var last: JournalCheckpoint<State>? { head < items.count ? items[items.count - 1] : nil }
  var first: JournalCheckpoint<State>? { head < items.count ? items[head] : nil }
  var count: Int { items.count - head }

  /// Adds a checkpoint after the last one, or replaces the last one at the same index, whose
  /// size is `size`.
  @usableFromInline
  mutating func append(_ checkpoint: JournalCheckpoint<State>, size: Int) {
    append(checkpoint, size: size, sharesWithPrevious: false)
    forgetBuffers()
  }

  /// Forgets the walked checkpoint's buffers, when it goes.
  private mutating func forgetBuffers() {
    lastBuffers = []
    buffersIndex = nil
    reuses = 0
  }

  /// Adds a checkpoint as ``append(_:size:)`` does, its size estimated by ``StateSizeEstimate``
  /// without the buffers it shares with the checkpoint before it (copy on write: what the actions
  /// since left untouched), which are counted there.
  ///
  /// After a walk of many values, the next checkpoints count the size it found (what that
  /// checkpoint added to the one before it) without a walk of their own: at most
  /// ``StateSizeEstimate/maxReuses`` of them, one per ``StateSizeEstimate/visitsPerReuse`` values
  /// walked, so that an estimate costs about as little per action for a large state as for a small
  /// one. Only a size measured against a previous checkpoint is reused (a first one counts
  /// everything).
  mutating func append(estimating checkpoint: JournalCheckpoint<State>) {
    let replacing = lastIndex == checkpoint.index
    // A replaced checkpoint's buffers go with it.
    if replacing, buffersIndex == checkpoint.index { forgetBuffers() }
    if reuses > 0, !replacing {
      reuses -= 1
      append(checkpoint, size: reusedSize, sharesWithPrevious: true)
      return
    }
    let shared = lastBuffers
    var walk = StateSizeEstimate.Walk(shared: shared)
    let size = walk.bytes(of: checkpoint.state)
    append(checkpoint, size: size, sharesWithPrevious: !shared.isEmpty)
    lastBuffers = walk.buffers
    buffersIndex = checkpoint.index
    reuses =
      shared.isEmpty ? 0 : min(StateSizeEstimate.maxReuses, walk.visited / StateSizeEstimate.visitsPerReuse)
    reusedSize = size
  }

  // Compares indices (`lastIndex`), not checkpoints (`last`): outside the client's specialized
  // code, copying the last checkpoint out looked up its type's metadata and copied its state
  // through value witnesses, twice per checkpoint added.
  private mutating func append(_ checkpoint: JournalCheckpoint<State>, size: Int, sharesWithPrevious: Bool) {
    let lastIndex = self.lastIndex
    if lastIndex == checkpoint.index {
      items[items.count - 1] = checkpoint
      byteCount += size - sizes[sizes.count - 1]
      sizes[sizes.count - 1] = size
      self.sharesWithPrevious[sizes.count - 1] = sharesWithPrevious
      return
    }
    precondition(lastIndex.map { $0 < checkpoint.index } ?? true, "checkpoints must be added in order")
    items.append(checkpoint)
    sizes.append(size)
    self.sharesWithPrevious.append(sharesWithPrevious)
    byteCount += size
  }

  /// The last checkpoint at or before `index`.
  @usableFromInline
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
  @usableFromInline
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
    let oldHead = head
    while head < items.count, items[head].index < index {
      byteCount -= sizes[head]
      head += 1
    }
    if let buffersIndex, buffersIndex < index { forgetBuffers() }
    // The buffers the new first checkpoint shared with a removed one were counted there only:
    // count them now. Once per commit, not per action.
    if head > oldHead, head < items.count, sharesWithPrevious[head] {
      let size = StateSizeEstimate.bytes(of: items[head].state)
      byteCount += size - sizes[head]
      sizes[head] = size
      sharesWithPrevious[head] = false
    }
    // Removed checkpoints stay in the arrays until they are compacted, and so do their states:
    // compacting once they are a sixteenth of the list keeps that memory to a sixteenth of the
    // states kept (it was up to as much again: twice the byte cap), at most 16 moves per removal.
    if head * 16 > items.count {
      items.removeFirst(head)
      sizes.removeFirst(head)
      sharesWithPrevious.removeFirst(head)
      head = 0
    }
  }

  /// Removes the checkpoints after `index`.
  mutating func removeAll(after index: Int) {
    while items.count > head, items[items.count - 1].index > index {
      byteCount -= sizes.removeLast()
      sharesWithPrevious.removeLast()
      items.removeLast()
    }
    if let buffersIndex, buffersIndex > index { forgetBuffers() }
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
      sharesWithPrevious[head] = false
    } else {
      items.insert(checkpoint, at: 0)
      sizes.insert(size, at: 0)
      sharesWithPrevious.insert(false, at: 0)
    }
    byteCount += size
  }
}
