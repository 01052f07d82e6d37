import ChronicleLocks
import ChronicleMiddleware
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

/// A middleware that records each action with its sequence number and cause (`e1`: the serial of
/// the effect that sent it), and the effect events it sees.
func causeRecorder<State: Sendable, Action: Sendable>(
  _ recorder: Recorder<String>, events: Recorder<String>? = nil
) -> AnyMiddleware<State, Action> {
  AnyMiddleware(name: "causes") { action, context, next in
    let metadata = context.metadata
    let serial = metadata.cause.effect.map { " e\($0)" } ?? ""
    recorder.append("#\(metadata.sequence) \(action) \(metadata.cause)\(serial)")
    next(action)
  } event: { event, _ in
    events?.append("\(event.phase) e\(event.effect) \(event.cause)")
  }
}

struct TestError: Error, CustomStringConvertible {
  var description: String { "boom" }
}
