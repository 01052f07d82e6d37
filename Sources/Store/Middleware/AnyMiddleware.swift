/// A type-erased middleware, the element type of a store's middleware list.
///
/// Built-in middlewares are offered as static factories (e.g. `.logger()`), so a list reads
/// `middleware: [.logger(), .thunks()]`. Wrap your own types with ``init(_:)``, or write a
/// middleware inline with ``init(name:handle:)``.
public struct AnyMiddleware<State: Sendable, Action: Sendable>: Middleware {
  /// A name for the middleware, used in diagnostics.
  public let name: String
  @usableFromInline typealias ActionHandler =
    @Sendable (Action, MiddlewareContext<State, Action>, MiddlewareNext<State, Action>) -> Void
  @usableFromInline let handleAction: ActionHandler
  @usableFromInline let handleEvent: @Sendable (EffectEvent, MiddlewareContext<State, Action>) -> Void

  /// Wraps a middleware.
  public init<M: Middleware>(_ base: M) where M.State == State, M.Action == Action {
    if let erased = base as? AnyMiddleware {
      self = erased
      return
    }
    self.name = String(describing: M.self)
    self.handleAction = { base.handle($0, context: $1, next: $2) }
    self.handleEvent = { base.handle($0, context: $1) }
  }

  /// Creates a middleware from closures.
  ///
  /// ```swift
  /// let dropTaps = AnyMiddleware<AppState, AppAction>(name: "dropTaps") { action, context, next in
  ///   if case .tap = action { return }
  ///   next(action)
  /// }
  /// ```
  public init(
    name: String = "middleware",
    handle:
      @escaping @Sendable (
        _ action: Action, _ context: MiddlewareContext<State, Action>, _ next: MiddlewareNext<State, Action>
      ) -> Void,
    event: @escaping @Sendable (_ event: EffectEvent, _ context: MiddlewareContext<State, Action>) -> Void = {
      _, _ in
    }
  ) {
    self.name = name
    self.handleAction = handle
    self.handleEvent = event
  }

  @inlinable
  public func handle(
    _ action: Action, context: MiddlewareContext<State, Action>, next: MiddlewareNext<State, Action>
  ) {
    handleAction(action, context, next)
  }

  @inlinable
  public func handle(_ event: EffectEvent, context: MiddlewareContext<State, Action>) {
    handleEvent(event, context)
  }
}
