import ChronicleStore
import ChronicleTestSupport
import Synchronization

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
