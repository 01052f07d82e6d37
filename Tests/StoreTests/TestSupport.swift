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
