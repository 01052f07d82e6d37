import ChronicleInspection

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
    /// The effect's work threw an error that no `catch` handler took; the payload describes it
    /// under the default policy: the error's description, or its dump with `<redacted>` parts
    /// when the error holds a value marked as sensitive (a ``/ChronicleInspection/SensitiveValue``,
    /// a ``/ChronicleInspection/Redacted`` property). An output with a policy of its own writes
    /// ``EffectEvent/failureDescription(redaction:)`` instead.
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
  /// The error of a ``Phase/failed(_:)`` event, kept so that each output writes it under its own
  /// policy (see ``failureDescription(redaction:)``); `nil` for other phases and for events made
  /// without it. Not part of the event's equality: the phase's text already says what failed.
  public var error: EffectError?
  /// Where the effect was created: its `.run`, or the `dispatch` of a thunk; `nil` for a
  /// concatenation, and when the store does not capture call sites.
  public var site: CallSite?

  /// Creates an event.
  ///
  /// - Parameters:
  ///   - phase: What happened.
  ///   - effect: The effect instance's serial number.
  ///   - cause: Who started the effect.
  ///   - ids: The cancellation ids that apply to it, innermost first.
  ///   - error: The error of a failed event.
  ///   - site: Where the effect was created.
  public init(
    phase: Phase, effect: UInt64, cause: Cause, ids: [EffectID], error: EffectError? = nil,
    site: CallSite? = nil
  ) {
    self.phase = phase
    self.effect = effect
    self.cause = cause
    self.ids = ids
    self.error = error
    self.site = site
  }

  /// The text of a failed event's error under `redaction`, `nil` for an event that is not a
  /// failure.
  ///
  /// Every output that shows a failure writes it with this and its own policy, so that a value
  /// its policy names never appears in clear: ``EffectError/description(redaction:)`` when the
  /// error was kept, the phase's text otherwise.
  ///
  /// - Parameter redaction: The output's policy, such as `Redaction(keys: ["token"])`.
  /// - Returns: The error's text, or `nil`.
  public func failureDescription(redaction: Redaction) -> String? {
    guard case .failed(let message) = phase else { return nil }
    return error?.description(redaction: redaction) ?? message
  }

  /// Whether two events are the same change in the same effect's life; ``error`` is not compared.
  public static func == (lhs: EffectEvent, rhs: EffectEvent) -> Bool {
    lhs.phase == rhs.phase && lhs.effect == rhs.effect && lhs.cause == rhs.cause && lhs.ids == rhs.ids
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(phase)
    hasher.combine(effect)
    hasher.combine(cause)
    hasher.combine(ids)
  }
}
