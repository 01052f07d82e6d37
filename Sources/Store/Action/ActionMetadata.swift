import Foundation

/// What the store knows about an action while it is processed.
///
/// Middlewares read it through ``MiddlewareContext/metadata``; the tracer journals it.
public struct ActionMetadata: Sendable, Hashable {
  /// The position of the action in the store's total order, starting at 1.
  public var sequence: UInt64
  /// The wall-clock time at which the store began processing the action.
  public var timestamp: Date
  /// The context label given to `send(_:context:)`, such as the screen or feature that sent it.
  public var context: String?
  /// Who sent the action.
  public var cause: Cause
  /// Where in the source the action was sent: the call of `send` (on the store, a scoped store,
  /// a middleware's context, an effect's `Send`, a thunk), or the `Effect.send` that returned it.
  /// `nil` when the store was created with `capturesCallSites: false`.
  public var site: CallSite?
  /// Where the effect, thunk or timer that sent the action was created (its `.run`, its
  /// `Effect.send`, the `dispatch` of a thunk); `nil` for an action the user sent, and when the
  /// store does not capture call sites.
  public var effectSite: CallSite?

  /// Creates metadata.
  public init(
    sequence: UInt64, timestamp: Date, context: String?, cause: Cause, site: CallSite? = nil,
    effectSite: CallSite? = nil
  ) {
    self.sequence = sequence
    self.timestamp = timestamp
    self.context = context
    self.cause = cause
    self.site = site
    self.effectSite = effectSite
  }
}
