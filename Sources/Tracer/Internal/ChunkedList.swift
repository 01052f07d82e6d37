/// An append-only sequence of elements addressed by absolute index, stored in fixed chunks.
///
/// Copying the list copies an array of chunk references, not the elements: a snapshot costs
/// O(chunks), and appending after a snapshot never moves the elements the snapshot reads.
/// Dropping from the front releases whole chunks; truncating copies at most one chunk.
@usableFromInline
struct ChunkedList<Element>: @unchecked Sendable {
  // `@unchecked Sendable`: see `Chunk`. A list value is only ever read by the thread that owns
  // it, and the slots it covers are immutable.

  @usableFromInline var chunks: [Chunk<Element>] = []
  /// The last chunk, which appends go to: kept apart so that appending does not go through the
  /// array.
  @usableFromInline var tail: Chunk<Element>?
  /// The absolute index of the first slot of `chunks[0]`.
  @usableFromInline var chunkBase = 0
  /// The absolute index of the first element.
  @usableFromInline var startIndex = 0
  /// The absolute index past the last element.
  @usableFromInline var endIndex = 0
  @usableFromInline let shift: Int

  /// - Parameter chunkCapacity: Slots per chunk, rounded up to a power of two.
  @usableFromInline
  init(chunkCapacity: Int, startIndex: Int = 0) {
    var shift = 0
    while 1 << shift < max(chunkCapacity, 1) { shift += 1 }
    self.shift = shift
    self.chunkBase = startIndex
    self.startIndex = startIndex
    self.endIndex = startIndex
  }

  @inlinable var count: Int { endIndex - startIndex }
  @inlinable var isEmpty: Bool { startIndex == endIndex }
  var indices: Range<Int> { startIndex..<endIndex }

  @inlinable
  subscript(index: Int) -> Element {
    precondition(index >= startIndex && index < endIndex, "index \(index) out of \(startIndex)..<\(endIndex)")
    let offset = index - chunkBase
    return chunks[offset >> shift].slots[offset & ((1 << shift) - 1)]
  }

  /// Calls `body` with each element in `range`, in order, walking each chunk's slots directly:
  /// one chunk look-up per chunk rather than per element.
  ///
  /// Inlinable, so that the loop is specialized with `body` inlined in it (a replay's reducer).
  @inlinable
  func forEach(in range: Range<Int>, _ body: (Element) -> Void) {
    precondition(
      range.isEmpty || (range.lowerBound >= startIndex && range.upperBound <= endIndex),
      "range \(range) out of \(startIndex)..<\(endIndex)")
    let mask = (1 << shift) - 1
    var index = range.lowerBound
    while index < range.upperBound {
      let offset = index - chunkBase
      let chunk = chunks[offset >> shift]
      let first = offset & mask
      let count = min(mask + 1 - first, range.upperBound - index)
      withExtendedLifetime(chunk) {
        let slots = UnsafePointer(chunk.slots + first)
        for slot in 0..<count { body(slots[slot]) }
      }
      index += count
    }
  }

  @inlinable
  mutating func append(_ element: Element) {
    // Unretained: `chunks` keeps the tail alive; `if let tail` retained and released it.
    if tail != nil, Unmanaged.passUnretained(tail.unsafelyUnwrapped)._withUnsafeGuaranteedRef({ !$0.isFull })
    {
      Unmanaged.passUnretained(tail.unsafelyUnwrapped)._withUnsafeGuaranteedRef { $0.append(element) }
    } else {
      appendChunk().append(element)
    }
    endIndex += 1
  }

  /// Adds an empty chunk at the end and returns it.
  @usableFromInline
  mutating func appendChunk() -> Chunk<Element> {
    let chunk = Chunk<Element>(capacity: 1 << shift)
    chunks.append(chunk)
    tail = chunk
    return chunk
  }

  /// Drops the elements before `index`.
  mutating func removeFirst(upTo index: Int) {
    let index = min(max(index, startIndex), endIndex)
    startIndex = index
    let wholeChunks = (index - chunkBase) >> shift
    if wholeChunks > 0 {
      chunks.removeFirst(min(wholeChunks, chunks.count))
      chunkBase += wholeChunks << shift
    }
    if startIndex == endIndex {
      chunks.removeAll()
      chunkBase = startIndex
    }
    tail = chunks.last
  }

  /// Drops the elements before `index`, as ``removeFirst(upTo:)`` does, and frees what they hold
  /// now rather than with their chunk: in the first chunk kept, when no other list (a snapshot)
  /// shares it, the slots dropped are overwritten with the first element kept.
  ///
  /// For entries whose actions carry large payloads: a chunk holds up to 1,024 of them, so
  /// committed entries kept alive until their whole chunk goes held up to that many payloads past
  /// the journal's byte cap (2,000 actions of 200 KB under an 8 MiB cap: 234 MB resident). The
  /// slots dropped before, which hold the element kept then, are overwritten again: at most one
  /// chunk's slots per call.
  mutating func removeFirst(releasing index: Int) {
    let oldStart = startIndex
    removeFirst(upTo: index)
    guard startIndex < endIndex, !chunks.isEmpty else { return }
    let to = startIndex - chunkBase
    guard startIndex > oldStart, to > 0 else { return }
    // The list's own `tail` is a second reference to its last chunk.
    let isTail = chunks.count == 1
    if isTail { tail = nil }
    let isUnique = isKnownUniquelyReferenced(&chunks[0])
    if isTail { tail = chunks[0] }
    guard isUnique else { return }
    let slots = chunks[0].slots
    let kept = slots[to]
    for slot in 0..<to { slots[slot] = kept }
  }

  /// Drops the elements from `index` on.
  mutating func removeLast(from index: Int) {
    let index = min(max(index, startIndex), endIndex)
    guard index < endIndex else { return }
    let offset = index - chunkBase
    let keptChunks = offset >> shift
    let keptInLast = offset & ((1 << shift) - 1)
    var remaining = Array(chunks.prefix(keptChunks))
    if keptInLast > 0 {
      // The chunk may be shared with a snapshot that reads the slots being dropped: copy.
      remaining.append(chunks[keptChunks].copy(prefix: keptInLast))
    }
    chunks = remaining
    endIndex = index
    if startIndex == endIndex {
      chunks.removeAll()
      chunkBase = startIndex
    }
    tail = chunks.last
  }

  /// Removes everything and restarts at `index`.
  @usableFromInline
  mutating func reset(startingAt index: Int) {
    chunks.removeAll()
    tail = nil
    chunkBase = index
    startIndex = index
    endIndex = index
  }
}
