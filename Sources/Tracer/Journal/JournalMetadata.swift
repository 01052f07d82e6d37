import Foundation

/// What a journal records about itself: the types it holds and the origin of its times.
///
/// Exports write it in their header, and imports check it against the types they decode into.
public struct JournalMetadata: Sendable, Hashable {
  /// The state type, with the shape of its stored properties once a state was recorded.
  public var state: TypeFingerprint
  /// The action type.
  public var action: TypeFingerprint
  /// The wall-clock time at the journal's time zero: entry and event ``JournalEntry/time``s
  /// count from it.
  public var origin: Date
  /// The number of entries between interval checkpoints.
  public var checkpointInterval: Int

  /// Creates metadata.
  public init(state: TypeFingerprint, action: TypeFingerprint, origin: Date, checkpointInterval: Int) {
    self.state = state
    self.action = action
    self.origin = origin
    self.checkpointInterval = checkpointInterval
  }
}
