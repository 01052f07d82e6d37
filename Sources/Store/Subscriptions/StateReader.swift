/// Reads a store's current state from async work (a thunk, a timer) without keeping the store
/// alive.
///
/// ```swift
/// let reader = context.stateReader
/// return .run { send in
///   if reader.current?.isLoggedIn == true { await send(.refresh) }
/// }
/// ```
public struct StateReader<State: Sendable>: Sendable {
  private let read: @Sendable () -> State?

  /// Creates a reader from a closure, e.g. to give a thunk a fixed state in a test.
  public init(_ read: @escaping @Sendable () -> State?) {
    self.read = read
  }

  /// The store's current state, or `nil` once the store has been released.
  public var current: State? { read() }
}

extension Store {
  /// A reader of this store's current state that does not keep the store alive.
  public var stateReader: StateReader<State> {
    StateReader { [weak self] in self?.currentState }
  }
}

extension MiddlewareContext {
  /// A reader of the store's current state for async work the middleware starts; it does not
  /// keep the store alive.
  public var stateReader: StateReader<State> { store.stateReader }
}
