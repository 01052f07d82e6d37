/// A type-erased middleware, the element type of a store's middleware list.
///
/// Built-in middlewares are offered as static factories (e.g. `.logger()`), so a list reads
/// `middleware: [.logger(), .thunks()]`. Wrap your own types with ``init(_:)``, or write a
/// middleware inline with ``init(name:predicate:handle:event:)``.
public struct AnyMiddleware<State: Sendable, Action: Sendable>: Middleware {
  /// The middleware's name: the label of the ``Cause`` of the actions it sends and the effects it
  /// runs without a label of their own (``MiddlewareContext/send(_:context:as:label:fileID:line:function:)``,
  /// ``MiddlewareContext/run(_:as:label:)``), so logs and journals say which middleware sent
  /// them. A wrapped middleware (``init(_:)``) is named after its type.
  public let name: String
  @usableFromInline typealias ActionHandler =
    @Sendable (Action, MiddlewareContext<State, Action>, MiddlewareNext<State, Action>) -> Void
  @usableFromInline let handleAction: ActionHandler
  @usableFromInline let handleEvent: @Sendable (EffectEvent, MiddlewareContext<State, Action>) -> Void
  /// Which actions reach `handleAction`; `nil`: all of them.
  @usableFromInline let predicate: (@Sendable (Action) -> Bool)?

  /// Wraps a middleware.
  public init<M: Middleware>(_ base: M) where M.State == State, M.Action == Action {
    if let erased = base as? AnyMiddleware {
      self = erased
      return
    }
    self.name = String(describing: M.self)
    self.handleAction = { base.handle($0, context: $1, next: $2) }
    self.handleEvent = { base.handle($0, context: $1) }
    self.predicate = nil
  }

  /// Creates a middleware from closures.
  ///
  /// ```swift
  /// let dropTaps = AnyMiddleware<AppState, AppAction>(name: "dropTaps") { action, context, next in
  ///   if case .tap = action { return }
  ///   next(action)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - name: The middleware's name, the label of what it sends (see ``name``).
  ///   - predicate: Which actions this middleware handles; `nil` (the default): all of them.
  ///     An action it rejects passes on as if the middleware were not in the chain: `handle` is
  ///     not called. It is asked once each time an action reaches the middleware, before
  ///     anything else is done. When it is a store's only middleware, the store asks it before
  ///     entering the chain, and an action it rejects costs the call and nothing else.
  ///   - handle: Handles an action; call `next` to pass it on.
  ///   - event: Observes the effects' lifecycle events (all of them: the predicate is asked only
  ///     about actions).
  public init(
    name: String = "middleware",
    predicate: (@Sendable (_ action: Action) -> Bool)? = nil,
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
    self.predicate = predicate
  }

  /// `handleAction` behind the predicate: what a chain calls when nobody asked the predicate
  /// before.
  var checkedActionHandler: ActionHandler {
    guard let predicate else { return handleAction }
    let handle = handleAction
    return { action, context, next in
      guard predicate(action) else { return next(action) }
      handle(action, context, next)
    }
  }

  @inlinable
  public func handle(
    _ action: Action, context: MiddlewareContext<State, Action>, next: MiddlewareNext<State, Action>
  ) {
    if let predicate, !predicate(action) { return next(action) }
    handleAction(action, context, next)
  }

  @inlinable
  public func handle(_ event: EffectEvent, context: MiddlewareContext<State, Action>) {
    handleEvent(event, context)
  }
}
