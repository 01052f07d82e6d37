/// Passes an action on to the rest of the middleware chain and the reducer: a middleware calls
/// it as `next(action)`.
///
/// It is a value rather than a closure so that passing it costs nothing: a closure handed
/// through the type-erased chain is re-abstracted, which allocated once per middleware per
/// action. Call it only during the `handle` call it was given to, at most once; a second call,
/// or a call after `handle` returned, is ignored.
public struct MiddlewareNext<State: Sendable, Action: Sendable> {
  // Unretained: a `next` is valid only while the store is processing the action, which holds the
  // store alive. Retaining it (even loading an `unowned(unsafe)` reference retains) slowed
  // `send/3-middlewares` by a retain and a release per middleware.
  @usableFromInline let store: Unmanaged<Store<State, Action>>
  @usableFromInline let index: Int
  @usableFromInline let sequence: UInt64

  @inlinable
  init(store: Store<State, Action>, index: Int, sequence: UInt64) {
    self.store = Unmanaged.passUnretained(store)
    self.index = index
    self.sequence = sequence
  }

  /// Runs the rest of the chain and the reducer with `action`. When it returns, the reducer has
  /// run (unless a later middleware stopped the action).
  @inlinable
  public func callAsFunction(_ action: Action) {
    store._withUnsafeGuaranteedRef { $0.passOn(action, from: index, sequence: sequence) }
  }
}
