/// A reducer built from a closure, for small features and tests.
///
/// ```swift
/// let store = Store(initialState: 0, reducer: Reduce<Int, Int> { state, action in
///   state += action
///   return .none
/// })
/// ```
public struct Reduce<State: Sendable, Action: Sendable>: Reducer {
  @usableFromInline let body: @Sendable (inout State, Action) -> Effect<Action>

  /// Creates a reducer that runs `reduce` for every action.
  @inlinable
  public init(_ reduce: @escaping @Sendable (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.body = reduce
  }

  /// Creates a reducer that runs another reducer's logic, erasing its type.
  @inlinable
  public init<R: Reducer>(_ reducer: R) where R.State == State, R.Action == Action {
    self.body = { reducer.reduce(into: &$0, action: $1) }
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body(&state, action)
  }
}
