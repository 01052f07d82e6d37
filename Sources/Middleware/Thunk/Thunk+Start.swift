import ChronicleStore

extension Thunk {
  /// Starts the thunk. `run` starts an effect as a thunk named after it (from a middleware, or
  /// from the store outside any action); `cancel` cancels in-flight work by id.
  ///
  /// An asynchronous thunk is one `Effect.run`, so dispatching it costs what an effect costs.
  /// A synchronous one runs here, and sends each action as a `.send` effect labelled with its name.
  func start(
    dependencies: Dependencies,
    state: StateReader<State>,
    onError: (@Sendable (ThunkFailure) -> Action?)?,
    run: (Effect<Action>) -> Void,
    cancel: (EffectID) -> Void
  ) {
    let name = self.name
    switch body {
    case .async(let priority, let body):
      var handler: (@Sendable (any Error, Send<Action>) async -> Void)?
      if let onError {
        handler = { error, send in
          if let action = onError(ThunkFailure(thunk: name, error: error)) { await send(action) }
        }
      }
      var effect = Effect<Action>.run(
        priority: priority, site: site, operation: { send in try await body(send, state, dependencies) },
        catch: handler)
      if let id { effect = effect.cancellable(id: id, cancelInFlight: cancelInFlight) }
      run(effect)
    case .sync(let body):
      if let id, cancelInFlight { cancel(id) }
      do {
        // A `ThunkSend` is valid only while the body runs; keeping it traps at run time.
        try withoutActuallyEscaping(run) { run in
          try body(ThunkSend { run(.send($0, site: $1)) }, state, dependencies)
        }
      } catch {
        if let onError {
          if let action = onError(ThunkFailure(thunk: name, error: error)) { run(.send(action, site: site)) }
        } else {
          // Reported as a failed thunk (`EffectEvent.Phase.failed`) like an asynchronous one,
          // so loggers and tracers see it; only this error path pays for a task.
          run(.run(site: site) { _ in throw error })
        }
      }
    }
  }
}
