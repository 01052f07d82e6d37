// The counter of the README's quick start: a reducer, an effect, and a middleware that prints.
// Run it with `swift run counter`.
import Chronicle

struct Counter: Reducer {
  struct State: Equatable, Sendable, Codable { var count = 0 }
  enum Action: Equatable, Sendable, Codable { case increment, decrement, load }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .decrement:
      state.count -= 1
      return .none
    case .load:
      return .run { send in await send(.increment) }.cancellable(id: "load", cancelInFlight: true)
    }
  }
}

let printer = AnyMiddleware<Counter.State, Counter.Action>(name: "printer") { action, context, next in
  next(action)
  let metadata = context.metadata
  print("#\(metadata.sequence) \(action) [\(metadata.cause)] → count \(context.state.count)")
}

let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [printer])
store.send(.increment)
store.send(.increment, context: "CounterScreen")
store.send(.decrement)
store.send(.load)
await store.waitUntilIdle()  // the effect's `.increment` has been processed
print("count:", store.state.count)

// A middleware that handles only the actions its predicate accepts.
let decrements = AnyMiddleware<Counter.State, Counter.Action>(name: "decrements") { action in
  action == .decrement
} handle: { action, context, next in
  print("#\(context.sequence) is a decrement, sent from \(context.contextLabel ?? "anywhere")")
  next(action)
}

let quiet = Store(initialState: Counter.State(), reducer: Counter(), middleware: [decrements])
quiet.send(.increment)
quiet.send(.decrement, context: "CounterScreen")
