/// Live actions held back, in arrival order.
///
/// Applying held actions takes them from the front one at a time while more may arrive at the
/// back; `Array.removeFirst()` moved every remaining one each time, so applying n held actions
/// cost O(n²) (64k took 12.9 s). Here taking the first is O(1): the array is read from `head`,
/// and the consumed prefix is dropped only once it is at least half of the array.
@usableFromInline
struct LiveActionQueue<Action: Sendable>: Sendable {
  @usableFromInline var storage: [LiveAction<Action>] = []
  @usableFromInline var head = 0

  /// Whether no action is held.
  @inlinable var isEmpty: Bool { head == storage.count }

  /// The actions held, oldest first.
  var elements: [LiveAction<Action>] { Array(storage[head...]) }

  /// Holds `action` behind the others.
  mutating func append(_ action: LiveAction<Action>) {
    storage.append(action)
  }

  /// Takes the oldest action held, if any.
  mutating func popFirst() -> LiveAction<Action>? {
    guard head < storage.count else { return nil }
    let first = storage[head]
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: storage.count <= 1024)
      head = 0
    } else if head >= 1024 && head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
    return first
  }
}
