import ChronicleLocks
import ChronicleMiddleware
import ChronicleStore
import ChronicleTestSupport

// Locks are `SanitizerVisibleMutex`: ThreadSanitizer cannot see `Mutex`'s ordering on Linux.

/// A small feature whose reducer only records: the middlewares under test do the work.
enum Feed {
  struct State: Equatable, Sendable {
    var log: [String] = []
    var count = 0
  }

  enum Action: Equatable, Sendable {
    case start(String)
    case got(String)
    case failed(String)
    case cancel(String)
    case increment
    case tick
    case echo(String)
  }

  static let reducer = Reduce<State, Action> { state, action in
    switch action {
    case .got(let value):
      state.log.append(value)
      return .none
    case .failed(let message):
      state.log.append("failed: \(message)")
      return .none
    case .cancel(let id):
      return .cancel(id: id)
    case .increment, .tick:
      state.count += 1
      return .none
    case .echo(let value):
      return .send(.got("echo \(value)"))
    case .start:
      return .none
    }
  }
}

struct TestError: Error, CustomStringConvertible {
  var description: String { "boom" }
}
