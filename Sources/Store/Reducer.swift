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
