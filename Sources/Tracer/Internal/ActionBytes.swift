/// The heap bytes the journal counts for the actions of its entries, for its byte cap: one
/// record per entry whose action was counted with any, in index order.
///
/// An entry's own record is fixed-size (``EntryRecord``): an action's inline size is in its stride,
/// but what its payload holds on the heap (an array, a long string, `Data`) is not, and is counted
/// here. Entries whose actions hold nothing on the heap take no room. The records are kept in a
/// ``ChunkedList``, as the entries are, so that a snapshot shares them and appending after one
/// copies nothing.
@usableFromInline
struct ActionBytes: Sendable {
  /// An entry's index and its action's heap bytes.
  @usableFromInline
  struct Item: Sendable {
    @usableFromInline var index: Int
    @usableFromInline var bytes: Int

    @inlinable init(index: Int, bytes: Int) {
      self.index = index
      self.bytes = bytes
    }
  }

  /// The counted entries, each at a position of its own (not its entry's index).
  @usableFromInline var items = ChunkedList<Item>(chunkCapacity: 256)
  /// The sum of the bytes counted.
  @usableFromInline var total = 0

  @usableFromInline init() {}

  /// The bytes counted and the room their records take.
  @inlinable var byteCount: Int {
    total + items.count * MemoryLayout<Item>.stride
  }

  /// Counts `bytes` for the entry at `index`, which follows every entry counted so far.
  @inlinable
  mutating func append(_ bytes: Int, at index: Int) {
    guard bytes > 0 else { return }
    items.append(Item(index: index, bytes: bytes))
    total += bytes
  }

  /// The first position to walk from with ``bytes(in:from:)``.
  var startPosition: Int { items.startIndex }

  /// The bytes counted for the entries in `range`, given a position at or before the first of
  /// them, which is moved past them: a walk over consecutive ranges costs the records it passes.
  func bytes(in range: Range<Int>, from position: inout Int) -> Int {
    position = max(position, items.startIndex)
    while position < items.endIndex, items[position].index < range.lowerBound { position += 1 }
    var sum = 0
    while position < items.endIndex, items[position].index < range.upperBound {
      sum += items[position].bytes
      position += 1
    }
    return sum
  }

  /// Forgets the entries before `index` (committed).
  mutating func removeAll(before index: Int) {
    var position = items.startIndex
    while position < items.endIndex, items[position].index < index {
      total -= items[position].bytes
      position += 1
    }
    items.removeFirst(upTo: position)
  }

  /// Forgets the entries from `index` on (truncated).
  mutating func removeAll(from index: Int) {
    var position = items.endIndex
    while position > items.startIndex, items[position - 1].index >= index {
      position -= 1
      total -= items[position].bytes
    }
    items.removeLast(from: position)
  }

  /// Forgets every entry.
  mutating func removeAll() {
    self = ActionBytes()
  }
}
