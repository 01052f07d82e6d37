import ChronicleStore

/// A moment in the life of an effect, thunk or timer, as the journal recorded it.
///
/// The event is tied to the entry whose processing started the work through
/// ``cause``'s ``/ChronicleStore/Cause/parent`` (a sequence number; see
/// ``JournalSnapshot/index(ofSequence:)``).
public struct JournalEffectEvent: Sendable, Hashable {
  /// What happened: started, finished, cancelled, or failed with a description of the error.
  public let phase: EffectEvent.Phase
  /// The effect instance's serial number; actions it sent carry it in ``/ChronicleStore/Cause/effect``.
  public let effect: UInt64
  /// Who started the work: its kind, label and parent action.
  public let cause: Cause
  /// The cancellation ids the user gave it, innermost first, as text (ids a library attached,
  /// such as the group of all timers, are left out).
  public let ids: [String]
  /// Monotonic time since the journal's origin.
  public let time: Duration
  /// The number of entries recorded before this event: the event happened while (or after) the
  /// entry at `position - 1` was processed, and before the entry at `position`.
  public let position: Int

  /// Creates an event, for journals built by hand and for tests.
  public init(
    phase: EffectEvent.Phase, effect: UInt64, cause: Cause, ids: [String], time: Duration, position: Int
  ) {
    self.phase = phase
    self.effect = effect
    self.cause = cause
    self.ids = ids
    self.time = time
    self.position = position
  }
}
