/// Why an action was processed: sent by the user, or by work that an earlier action started.
///
/// Every processed action carries its cause, so a journal can show which
/// action caused which. `parent` is the sequence number of the action whose processing started
/// the effect, thunk or timer that sent this one.
public struct Cause: Sendable, Hashable, Codable, CustomStringConvertible {
  /// What kind of sender an action had.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Sent with `Store.send` by application code.
    case user
    /// Sent by an ``Effect`` returned from a reducer.
    case effect
    /// Sent by a middleware through ``MiddlewareContext/send(_:context:as:label:)``.
    case middleware
    /// Sent by a thunk.
    case thunk
    /// Sent by a timer, debounce or throttle.
    case timer
    /// Sent by an external stream bound to the store.
    case stream
    /// Applied by replay or time travel.
    case replay
  }

  /// The kind of sender.
  public var kind: Kind
  /// The sequence number of the action whose processing started the sender; `nil` for the user.
  public var parent: UInt64?
  /// The serial number of the effect instance that sent the action, if any (see ``EffectEvent``).
  public var effect: UInt64?
  /// A label for the sender: the effect's cancellation id, the thunk's name, the timer's id, or
  /// the name of the middleware that sent the action (``AnyMiddleware/name``).
  public var label: String?

  /// Creates a cause.
  @inlinable
  public init(kind: Kind, parent: UInt64? = nil, effect: UInt64? = nil, label: String? = nil) {
    self.kind = kind
    self.parent = parent
    self.effect = effect
    self.label = label
  }

  /// The cause of an action sent directly by application code.
  public static var user: Cause { Cause(kind: .user) }

  /// A short description such as `user` or `timer "tick" ← #12`.
  public var description: String {
    var text = kind.rawValue
    if let label { text += " \"\(label)\"" }
    if let parent { text += " ← #\(parent)" }
    return text
  }
}
