/// A step in the store's chain that every action passes on its way to the reducer.
///
/// A middleware sees each action with its metadata and the state before it, and decides what
/// reaches the reducer: call `next(action)` to pass it on (or `next(other)` to transform it), or
/// return without calling `next` to stop it. When `next` returns, the reducer has run (unless a
/// later middleware stopped the action) and ``MiddlewareContext/state`` is the state after.
///
/// ```swift
/// struct Timing<State: Sendable, Action: Sendable>: Middleware {
///   func handle(_ action: Action, context: MiddlewareContext<State, Action>, next: MiddlewareNext<State, Action>) {
///     let start = ContinuousClock.now
///     next(action)
///     print("#\(context.metadata.sequence) took \(ContinuousClock.now - start)")
///   }
/// }
/// ```
///
/// Middlewares compose in the order given to the store: the first sees the action first and
/// the state after last. `next` may be called at most once; later calls are ignored. Actions a
/// middleware sends are queued and processed after the current one, never recursively.
public protocol Middleware<State, Action>: Sendable {
  /// The store's state.
  associatedtype State: Sendable
  /// The store's actions.
  associatedtype Action: Sendable

  /// Handles one action. Call `next` to pass it on to the rest of the chain and the reducer.
  func handle(
    _ action: Action, context: MiddlewareContext<State, Action>, next: MiddlewareNext<State, Action>)

  /// Observes a change in the life of an effect, thunk or timer. The default does nothing.
  func handle(_ event: EffectEvent, context: MiddlewareContext<State, Action>)
}

extension Middleware {
  public func handle(_ event: EffectEvent, context: MiddlewareContext<State, Action>) {}
}
