/// Runs several reducers on every action, in order, and merges their effects.
///
/// ```swift
/// let app = CombineReducers {
///   Scope(state: \.counter, action: counterPath) { Counter() }
///   Reduce<AppState, AppAction> { state, action in .none }
/// }
/// ```
public struct CombineReducers<State: Sendable, Action: Sendable>: Reducer {
  let reducers: [Reduce<State, Action>]

  /// Combines the reducers listed in `build`.
  public init(@ReducerBuilder<State, Action> _ build: () -> [Reduce<State, Action>]) {
    self.reducers = build()
  }

  /// Combines `reducers`.
  public init(_ reducers: [Reduce<State, Action>]) {
    self.reducers = reducers
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    var effects: [Effect<Action>] = []
    for reducer in reducers {
      let effect = reducer.reduce(into: &state, action: action)
      if !effect.isNone { effects.append(effect) }
    }
    return .merge(effects)
  }
}
