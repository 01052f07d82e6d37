/// A fixed block of slots that a ``ChunkedList`` fills in order.
///
/// `@unchecked Sendable`: a slot is written once, by the journal while it holds its lock, before
/// the list that covers it is published (a snapshot copies lists under the same lock); it is
/// written again only once no list covers it and no other list holds the chunk
/// (``ChunkedList/removeFirst(releasing:)``). Readers only read slots their list covers, so no
/// slot is read while written.
/// `count`, the number of initialized slots, is only used by the writer and by `deinit`.
@usableFromInline
final class Chunk<Element>: @unchecked Sendable {
  @usableFromInline let capacity: Int
  @usableFromInline let slots: UnsafeMutablePointer<Element>
  // Unchecked: a chunk is only appended to by its list's owner, under the journal's lock, and
  // the dynamic exclusivity check on `count += 1` cost ~60 instructions per recorded action.
  @exclusivity(unchecked) @usableFromInline var count = 0

  @usableFromInline
  init(capacity: Int) {
    self.capacity = capacity
    slots = .allocate(capacity: capacity)
  }

  deinit {
    slots.deinitialize(count: count)
    slots.deallocate()
  }

  @inlinable
  var isFull: Bool { count == capacity }

  @inlinable
  func append(_ element: Element) {
    (slots + count).initialize(to: element)
    count += 1
  }

  /// A new chunk holding copies of the first `prefix` slots, for truncating without touching
  /// slots a snapshot may read.
  func copy(prefix: Int) -> Chunk {
    let chunk = Chunk(capacity: capacity)
    chunk.slots.initialize(from: slots, count: prefix)
    chunk.count = prefix
    return chunk
  }
}
