/// A full state kept by a journal: the state before the entry at ``index``.
///
/// Any other state is recomputed from the nearest checkpoint at or before it by running the
/// reducer over the entries in between, so reaching any entry costs at most one checkpoint
/// interval of reducer calls.
public struct JournalCheckpoint<State: Sendable>: Sendable {
  /// Why the state was kept.
  public enum Kind: String, Sendable, Hashable, Codable {
    /// Kept every ``Journal/Configuration/checkpointInterval`` entries. It equals the state that
    /// replaying the entries before it produces, so replay can verify against it.
    case interval
    /// Taken from the store because the entries before it do not lead to it: the journal's first
    /// recorded state, or the first state after actions that were not recorded (paused,
    /// filtered out, or processed before the tracer was attached).
    case resync
  }

  /// The position of the entry this state precedes. A checkpoint at the journal's end index is
  /// the state after its last entry.
  public let index: Int
  /// Why the state was kept.
  public let kind: Kind
  /// The state.
  public let state: State

  /// Creates a checkpoint.
  public init(index: Int, kind: Kind, state: State) {
    self.index = index
    self.kind = kind
    self.state = state
  }
}
