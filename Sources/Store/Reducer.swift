/// A feature's logic: how an action changes the state, and what work follows.
///
/// Conform a type to `Reducer` and hand it to a ``Store``:
///
/// ```swift
/// struct Counter: Reducer {
///   struct State: Equatable, Sendable { var count = 0 }
///   enum Action: Equatable, Sendable { case increment }
///
///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
///     state.count += 1
///     return .none
///   }
/// }
/// ```
///
/// A reducer must be pure apart from the effect it returns: time travel and replay run it again
/// on recorded actions and expect the same states.
public protocol Reducer<State, Action>: Sendable {
  /// The feature's state.
  associatedtype State: Sendable
  /// The actions the feature handles.
  associatedtype Action: Sendable

  /// Applies `action` to `state` and returns the work to run afterwards (`.none` for none).
  func reduce(into state: inout State, action: Action) -> Effect<Action>
}

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
