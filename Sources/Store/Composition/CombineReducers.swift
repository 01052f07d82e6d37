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

/// Collects reducers written one per line, as in ``CombineReducers``.
@resultBuilder
public enum ReducerBuilder<State: Sendable, Action: Sendable> {
  public static func buildExpression<R: Reducer>(_ reducer: R) -> [Reduce<State, Action>]
  where R.State == State, R.Action == Action {
    [Reduce(reducer)]
  }

  public static func buildBlock(_ parts: [Reduce<State, Action>]...) -> [Reduce<State, Action>] {
    parts.flatMap { $0 }
  }

  public static func buildOptional(_ part: [Reduce<State, Action>]?) -> [Reduce<State, Action>] {
    part ?? []
  }

  public static func buildEither(first part: [Reduce<State, Action>]) -> [Reduce<State, Action>] { part }
  public static func buildEither(second part: [Reduce<State, Action>]) -> [Reduce<State, Action>] { part }
  public static func buildArray(_ parts: [[Reduce<State, Action>]]) -> [Reduce<State, Action>] {
    parts.flatMap { $0 }
  }
}
