import ChronicleStore
import Synchronization

/// A thread-safe list of values for tests to record into from any thread.
final class Recorder<Value: Sendable>: Sendable {
  private let storage = SanitizerVisibleMutex<[Value]>([])

  func append(_ value: Value) { storage.withLock { $0.append(value) } }
  var values: [Value] { storage.withLock { $0 } }
  var count: Int { storage.withLock { $0.count } }
}

/// A one-shot signal an effect or callback can fire and a test can await, without sleeping.
final class Signal: Sendable {
  private let state = SanitizerVisibleMutex<(fired: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, []))

  func fire() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.fired = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  var isFired: Bool { state.withLock { $0.fired } }

  func wait() async {
    await withCheckedContinuation { continuation in
      let fired = state.withLock { state in
        if !state.fired { state.waiters.append(continuation) }
        return state.fired
      }
      if fired { continuation.resume() }
    }
  }
}

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
