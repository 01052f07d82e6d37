/// Runs a child feature's reducer on a part of the parent's state, for the parent's actions that
/// hold a child action. The child's effects are mapped back into parent actions, so everything
/// still passes the parent store's middleware chain and journal.
///
/// ```swift
/// CombineReducers {
///   Scope(state: \App.State.counter, action: counterPath) { Counter() }
///   Reduce<App.State, App.Action> { state, action in … }
/// }
/// ```
public struct Scope<ParentState: Sendable, ParentAction: Sendable, Child: Reducer>: Reducer {
  let state: WritableKeyPath<ParentState, Child.State> & Sendable
  let action: ActionPath<ParentAction, Child.Action>
  let child: Child

  /// Creates a scope.
  ///
  /// - Parameters:
  ///   - state: Where the child's state lives in the parent's.
  ///   - action: How child actions are embedded in parent actions.
  ///   - child: The child reducer.
  public init(
    state: WritableKeyPath<ParentState, Child.State> & Sendable,
    action: ActionPath<ParentAction, Child.Action>,
    child: () -> Child
  ) {
    self.state = state
    self.action = action
    self.child = child()
  }

  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = self.action.extract(action) else { return .none }
    return child.reduce(into: &state[keyPath: self.state], action: childAction).map(self.action.embed)
  }
}
