import ChronicleStore

extension Store {
  /// Starts `thunk` now, outside of any action: redux-thunk's `store.dispatch(thunk)`.
  ///
  /// ```swift
  /// store.dispatch(.loadTodos, dependencies: api)
  /// await store.waitUntilIdle()
  /// ```
  ///
  /// The actions it sends carry a ``ChronicleStore/Cause/Kind/thunk`` cause labelled with its
  /// name and no parent. An asynchronous thunk runs in its own task, tracked like an effect; a
  /// synchronous one runs before this returns, each of its actions processed before its `send`
  /// returns.
  ///
  /// The thunk sees the task-locals set around this call: every one when this thread starts it,
  /// the ones the store propagates (``/ChronicleStore/PropagatedTaskLocal``) when it is left for
  /// the thread processing the store.
  ///
  /// - Parameters:
  ///   - thunk: The thunk.
  ///   - dependencies: What the thunk receives as its third argument.
  ///   - context: The context label its actions carry.
  ///   - onError: Turns an error the thunk threw into an action to send. Without it, the error is
  ///     reported to middlewares as a failed thunk (``/ChronicleStore/EffectEvent/Phase/failed(_:)``).
  public func dispatch<Dependencies: Sendable>(
    _ thunk: Thunk<State, Action, Dependencies>,
    dependencies: Dependencies,
    context: String? = nil,
    onError: (@Sendable (_ failure: ThunkFailure) -> Action?)? = nil
  ) {
    let name = thunk.name
    let site = thunk.site
    thunk.start(
      dependencies: dependencies, state: stateReader, onError: onError,
      run: { run($0, as: .thunk, label: name, context: context, parent: nil, site: site) },
      cancel: { cancel(id: $0) })
  }

  /// Starts `thunk`, which needs no dependencies, now, outside of any action.
  ///
  /// - Parameters:
  ///   - thunk: The thunk.
  ///   - context: The context label its actions carry.
  ///   - onError: Turns an error the thunk threw into an action to send. Without it, the error is
  ///     reported to middlewares as a failed thunk.
  public func dispatch(
    _ thunk: Thunk<State, Action, Void>,
    context: String? = nil,
    onError: (@Sendable (_ failure: ThunkFailure) -> Action?)? = nil
  ) {
    dispatch(thunk, dependencies: (), context: context, onError: onError)
  }
}
