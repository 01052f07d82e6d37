/// What a replay found: how much it checked, and the first divergence if there was one.
public struct ReplayReport<State: Sendable, Action: Sendable>: Sendable {
  /// The number of entries replayed (up to and including a divergence).
  public let replayedEntries: Int
  /// The number of recorded states compared with the replayed ones.
  public let verifiedStates: Int
  /// The first divergence, or `nil` when every recorded state matched.
  public let divergence: ReplayDivergence<State, Action>?

  /// Creates a report.
  public init(replayedEntries: Int, verifiedStates: Int, divergence: ReplayDivergence<State, Action>?) {
    self.replayedEntries = replayedEntries
    self.verifiedStates = verifiedStates
    self.divergence = divergence
  }

  /// Whether every recorded state matched.
  public var succeeded: Bool { divergence == nil }
}
