import ChronicleStore

/// Starts a ``Thunk`` when an action asks for one: redux-thunk's middleware, with the thunk chosen
/// by a function of the action.
///
/// ```swift
/// let store = Store(
///   initialState: Todos.State(), reducer: Todos(),
///   middleware: [.thunks(dependencies: api) { action in action == .load ? .loadTodos : nil }])
/// ```
///
/// The action itself continues to the reducer; the thunk starts once the reducer has run, so it
/// sees the state after the action, and its cause's parent is that action.
public struct ThunkMiddleware<State: Sendable, Action: Sendable, Dependencies: Sendable>: Middleware {
  /// The dependencies every thunk receives (redux-thunk's "extra argument").
  public let dependencies: Dependencies
  let route: @Sendable (Action) -> Thunk<State, Action, Dependencies>?
  let onError: (@Sendable (ThunkFailure) -> Action?)?

  /// Creates the middleware.
  ///
  /// - Parameters:
  ///   - dependencies: What every thunk receives as its third argument: an API client, a database.
  ///   - onError: Turns an error a thunk threw into an action to send (or `nil` to send nothing).
  ///     Without it, the error is reported to middlewares as a failed thunk
  ///     (``/ChronicleStore/EffectEvent/Phase/failed(_:)``), which loggers and tracers show.
  ///   - route: The thunk to start for an action, or `nil`.
  public init(
    dependencies: Dependencies,
    onError: (@Sendable (_ failure: ThunkFailure) -> Action?)? = nil,
    route: @escaping @Sendable (_ action: Action) -> Thunk<State, Action, Dependencies>?
  ) {
    self.dependencies = dependencies
    self.onError = onError
    self.route = route
  }

  /// Passes `action` on, then starts the thunk ``init(dependencies:onError:route:)``'s route
  /// chose for it, if any.
  public func handle(
    _ action: Action, context: MiddlewareContext<State, Action>, next: MiddlewareNext<State, Action>
  ) {
    next(action)
    guard let thunk = route(action) else { return }
    let name = thunk.name
    let site = thunk.site
    thunk.start(
      dependencies: dependencies, state: context.stateReader, onError: onError,
      run: { context.run($0, as: .thunk, label: name, site: site) },
      cancel: { context.cancel(id: $0) })
  }
}

extension AnyMiddleware {
  /// A middleware that starts a ``Thunk`` when an action asks for one (see ``ThunkMiddleware``).
  ///
  /// ```swift
  /// middleware: [.thunks(dependencies: api) { action in action == .load ? .loadTodos : nil }]
  /// ```
  ///
  /// - Parameters:
  ///   - dependencies: What every thunk receives as its third argument.
  ///   - onError: Turns an error a thunk threw into an action to send. Without it, the error is
  ///     reported to middlewares as a failed thunk.
  ///   - route: The thunk to start for an action, or `nil`.
  public static func thunks<Dependencies: Sendable>(
    dependencies: Dependencies,
    onError: (@Sendable (_ failure: ThunkFailure) -> Action?)? = nil,
    route: @escaping @Sendable (_ action: Action) -> Thunk<State, Action, Dependencies>?
  ) -> AnyMiddleware {
    let middleware = ThunkMiddleware(dependencies: dependencies, onError: onError, route: route)
    return AnyMiddleware(name: "thunks") { action, context, next in
      middleware.handle(action, context: context, next: next)
    }
  }

  /// A middleware that starts a ``Thunk`` without dependencies when an action asks for one.
  ///
  /// - Parameters:
  ///   - onError: Turns an error a thunk threw into an action to send. Without it, the error is
  ///     reported to middlewares as a failed thunk.
  ///   - route: The thunk to start for an action, or `nil`.
  public static func thunks(
    onError: (@Sendable (_ failure: ThunkFailure) -> Action?)? = nil,
    route: @escaping @Sendable (_ action: Action) -> Thunk<State, Action, Void>?
  ) -> AnyMiddleware {
    thunks(dependencies: (), onError: onError, route: route)
  }
}
