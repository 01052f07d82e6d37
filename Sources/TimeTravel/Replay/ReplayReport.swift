/// What a replay found: how much it checked, and the first divergence if there was one.
///
/// A replay that compared no state proves nothing, so it is not a success: its ``outcome`` is
/// ``Outcome/nothingCompared`` and ``succeeded`` is `false`.
public struct ReplayReport<State: Sendable, Action: Sendable>: Sendable {
  /// How a replay ended.
  public enum Outcome: Sendable, Hashable {
    /// Every recorded state compared matched, and at least one was compared.
    case matched
    /// A recorded state differed from the replayed one: see ``ReplayReport/divergence``.
    case diverged
    /// The replay found no recorded state to compare with: the journal holds none after its base
    /// state (a run shorter than the checkpoint interval), and none was given.
    case nothingCompared
  }

  /// The number of entries replayed (up to and including a divergence).
  public let replayedEntries: Int
  /// The number of recorded states compared with the replayed ones.
  public let verifiedStates: Int
  /// The first divergence, or `nil` when every recorded state compared matched.
  public let divergence: ReplayDivergence<State, Action>?

  /// Creates a report.
  public init(replayedEntries: Int, verifiedStates: Int, divergence: ReplayDivergence<State, Action>?) {
    self.replayedEntries = replayedEntries
    self.verifiedStates = verifiedStates
    self.divergence = divergence
  }

  /// How the replay ended.
  public var outcome: Outcome {
    if divergence != nil { return .diverged }
    return verifiedStates == 0 ? .nothingCompared : .matched
  }

  /// Whether at least one recorded state was compared and every one compared matched.
  public var succeeded: Bool { outcome == .matched }
}
