/// The error recorded on the span of an effect, thunk or timer that failed.
public struct EffectFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// The error's text under the middleware's `redaction` policy: a value marked as sensitive or
  /// named by the policy is written `<redacted>`.
  public var message: String

  /// Creates a failure.
  public init(message: String) { self.message = message }

  /// The message.
  public var description: String { message }
}
