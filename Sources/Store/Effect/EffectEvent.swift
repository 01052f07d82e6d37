/// A change in the life of an effect, thunk or timer, as middlewares see it.
///
/// Every `.run` effect (and every concatenation, which runs its parts in one task) is an effect
/// instance with a serial number; actions it sends carry that serial in ``Cause/effect``.
public struct EffectEvent: Sendable, Hashable {
  /// What happened.
  public enum Phase: Sendable, Hashable {
    /// The effect's task was started.
    case started
    /// The effect's work returned.
    case finished
    /// The effect was cancelled (by id, by `cancelInFlight`, or because the store was released).
    case cancelled
    /// The effect's work threw an error that no `catch` handler took; the payload describes it:
    /// the error's description, or its dump with `<redacted>` parts when the error holds a value
    /// marked as sensitive (a ``/ChronicleInspection/SensitiveValue``, a ``/ChronicleInspection/Redacted`` property).
    case failed(String)
  }

  /// What happened.
  public var phase: Phase
  /// The effect instance's serial number, unique within its store.
  public var effect: UInt64
  /// Who started the effect: ``Cause/parent`` is the action whose processing started it.
  public var cause: Cause
  /// The cancellation ids that apply to the effect, innermost first.
  public var ids: [EffectID]

  /// Creates an event.
  public init(phase: Phase, effect: UInt64, cause: Cause, ids: [EffectID]) {
    self.phase = phase
    self.effect = effect
    self.cause = cause
    self.ids = ids
  }
}
