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
