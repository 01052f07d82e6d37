/// Chooses the actions whose payload the journal's own estimate walks, for its byte cap (see
/// ``Journal/Configuration/maxBytes``), and what it counts for the others.
///
/// A walk (`StateSizeEstimate`'s, by reflection) costs about a microsecond, several times what the
/// tracer costs per action, so actions are sampled as states are: after a walk that found less
/// than a thousandth of the cap, the next one comes twice as many actions later (up to one in
/// ``maxPeriod``), and every action until then counts what that walk found; a walk that found a
/// thousandth of the cap or more makes every action walked again. An action type without
/// references (`_isPOD`) is never walked: it holds nothing on the heap.
@usableFromInline
struct ActionSizeSampler: Sendable {
  /// The longest run of actions between two walks.
  static let maxPeriod = 1024

  /// Actions left until the next walk, this one included.
  @usableFromInline var countdown = 1
  /// The actions between walks now.
  var period = 1
  /// What the last walk found: counted for each action until the next.
  @usableFromInline var estimate = 0

  @usableFromInline init() {}

  /// The heap bytes to count for `action`.
  @inlinable
  mutating func bytes<Action>(of action: Action, maxBytes: Int) -> Int {
    countdown -= 1
    if countdown > 0 { return estimate }
    return walk(action, maxBytes: maxBytes)
  }

  /// Walks `action`, and sets the next walk's distance by what it found.
  @usableFromInline
  mutating func walk<Action>(_ action: Action, maxBytes: Int) -> Int {
    var walk = StateSizeEstimate.Walk(shared: [])
    let bytes = walk.heapBytes(of: action, depth: 0)
    period = bytes > 0 && bytes >= maxBytes / 1024 ? 1 : min(period * 2, Self.maxPeriod)
    countdown = period
    estimate = bytes
    return bytes
  }
}
