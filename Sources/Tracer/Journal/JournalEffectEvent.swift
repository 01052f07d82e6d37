import ChronicleInspection
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
  /// The error of a failed event, which the journal keeps as it keeps actions and states, so that
  /// each export writes it under its own policy (see ``failureDescription(redaction:)``); `nil`
  /// for other phases and for journals read from files, which hold the text only. Not part of
  /// the event's equality.
  public let error: EffectError?

  /// Creates an event, for journals built by hand and for tests.
  public init(
    phase: EffectEvent.Phase, effect: UInt64, cause: Cause, ids: [String], time: Duration, position: Int,
    error: EffectError? = nil
  ) {
    self.phase = phase
    self.effect = effect
    self.cause = cause
    self.ids = ids
    self.time = time
    self.position = position
    self.error = error
  }

  /// The text of a failed event's error under `redaction`, `nil` for an event that is not a
  /// failure: what every export writes (see ``/ChronicleStore/EffectEvent/failureDescription(redaction:)``).
  ///
  /// - Parameter redaction: The export's policy.
  /// - Returns: The error's text, or `nil`.
  public func failureDescription(redaction: Redaction) -> String? {
    guard case .failed(let message) = phase else { return nil }
    return error?.description(redaction: redaction) ?? message
  }

  /// Whether two events record the same moment; ``error`` is not compared.
  public static func == (lhs: JournalEffectEvent, rhs: JournalEffectEvent) -> Bool {
    lhs.phase == rhs.phase && lhs.effect == rhs.effect && lhs.cause == rhs.cause && lhs.ids == rhs.ids
      && lhs.time == rhs.time && lhs.position == rhs.position
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(phase)
    hasher.combine(effect)
    hasher.combine(cause)
    hasher.combine(ids)
    hasher.combine(time)
    hasher.combine(position)
  }
}
