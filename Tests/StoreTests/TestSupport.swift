import ChronicleStore
import ChronicleTestSupport
import Synchronization

/// The counter feature of DESIGN.md, with effects for the tests.
struct Counter: Reducer {
  struct State: Equatable, Sendable, Codable {
    var count = 0
    var log: [String] = []
  }

  enum Action: Equatable, Sendable, Codable {
    case increment
    case decrement
    case add(Int)
    case note(String)
    case chain(remaining: Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .decrement:
      state.count -= 1
      return .none
    case .add(let amount):
      state.count += amount
      return .none
    case .note(let text):
      state.log.append(text)
      return .none
    case .chain(let remaining):
      state.count += 1
      return remaining > 0 ? .send(.chain(remaining: remaining - 1)) : .none
    }
  }
}

/// A middleware that records what it saw, in order, under a name.
func recordingMiddleware<State: Sendable, Action: Sendable>(
  _ name: String, into recorder: Recorder<String>
) -> AnyMiddleware<State, Action> {
  AnyMiddleware(name: name) { action, context, next in
    recorder.append("\(name) before \(action)")
    next(action)
    recorder.append("\(name) after \(action)")
  }
}

// The kinds ChronicleMiddleware declares, by name (a kind is its name): the store's tests do not
// depend on the middlewares.
extension Cause.Kind {
  static var thunk: Cause.Kind { Cause.Kind("thunk") }
  static var timer: Cause.Kind { Cause.Kind("timer") }
}
