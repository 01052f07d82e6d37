/// One thing the explorer does to a store: send an action, or move its `TestClock`.
///
/// After each step the explorer waits until the store's effects have settled: each has finished
/// or waits (on the clock, on a stream). So an effect's work between two of its waits happens
/// inside a step, and what the explorer orders is how sends interleave with clock time.
public enum ExplorationStep<Action: Sendable>: Sendable, CustomStringConvertible {
  /// Sends an action, as the user would.
  case send(Action)
  /// Advances the test clock by a duration, waking every effect and timer that falls due.
  case advance(Duration)
  /// Lets the effect or timer whose deadline comes first go on: the clock moves to that
  /// deadline and wakes that one sleeper (`TestClock.run(maxSteps: 1)`).
  case wakeNext

  /// The step as a line of a report: `send .add("a")`, `advance 300 ms`, `wake next`.
  public var description: String {
    switch self {
    case .send(let action): "send .\(action)"
    case .advance(let duration): "advance \(DurationText.words(duration))"
    case .wakeNext: "wake next"
    }
  }

  /// The action the step sends, if it sends one.
  public var action: Action? {
    if case .send(let action) = self { return action }
    return nil
  }
}

extension ExplorationStep: Equatable where Action: Equatable {}

/// How reports and generated tests write a duration.
enum DurationText {
  private static let units: [(nanoseconds: Int64, word: String, member: String)] = [
    (1_000_000_000, "s", "seconds"), (1_000_000, "ms", "milliseconds"), (1_000, "µs", "microseconds"),
    (1, "ns", "nanoseconds"),
  ]

  static func nanoseconds(_ duration: Duration) -> Int64 {
    let parts = duration.components
    return parts.seconds &* 1_000_000_000 &+ parts.attoseconds / 1_000_000_000
  }

  /// `300 ms`, `1 s`.
  static func words(_ duration: Duration) -> String {
    let total = nanoseconds(duration)
    let unit = units.first { total % $0.nanoseconds == 0 } ?? units[units.count - 1]
    return "\(total / unit.nanoseconds) \(unit.word)"
  }

  /// `.milliseconds(300)`, `.seconds(1)`: the duration as Swift.
  static func swift(_ duration: Duration) -> String {
    let total = nanoseconds(duration)
    let unit = units.first { total % $0.nanoseconds == 0 } ?? units[units.count - 1]
    return ".\(unit.member)(\(total / unit.nanoseconds))"
  }
}
