/// What an ``Explorer`` did: how much it explored and, if a property broke, the shrunk failure.
public struct ExplorationReport<State: Equatable & Codable & Sendable, Action: Equatable & Sendable>:
  Sendable,
  CustomStringConvertible
{
  /// The configuration's seed.
  public let seed: UInt64
  /// The runs made, the failing one included.
  public let runs: Int
  /// The steps taken over all runs (shrinking not counted).
  public let steps: Int
  /// The failure, or `nil` when every run kept every property.
  public let failure: ExplorationFailure<State, Action>?

  /// The failure's report, or how much was explored without one.
  public var description: String {
    if let failure { return failure.description }
    return
      "Exploration found no failure in \(runs) run\(runs == 1 ? "" : "s") (\(steps) steps, seed \(seed))."
  }
}
