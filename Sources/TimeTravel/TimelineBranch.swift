import ChronicleTracer

/// A future that time travel kept: the history as it was when an action sent from the past
/// started another line of events.
///
/// List them with ``TimeTravel/branches`` and go back to one with
/// ``TimeTravel/switchToBranch(_:)`` (which keeps the line you leave as a branch in turn).
public struct TimelineBranch<State: Sendable, Action: Sendable>: Sendable, Identifiable {
  /// The branch's identifier, unique within its ``TimeTravel`` controller.
  public let id: Int
  /// The position at which the line of events forked: the entries from here on differ.
  public let forkIndex: Int
  /// The whole history of the branch, its entries before the fork included.
  public let history: JournalSnapshot<State, Action>
  /// The entries skipped (see ``TimeTravel/toggleSkip(_:)``) when the branch was left.
  public let skipped: Set<Int>

  /// Creates a branch.
  public init(id: Int, forkIndex: Int, history: JournalSnapshot<State, Action>, skipped: Set<Int>) {
    self.id = id
    self.forkIndex = forkIndex
    self.history = history
    self.skipped = skipped
  }

  /// The entries the branch has after its fork: the future it kept.
  public var futureCount: Int { max(0, history.indices.upperBound - forkIndex) }
}
