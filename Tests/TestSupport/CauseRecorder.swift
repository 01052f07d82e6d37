import ChronicleStore

/// A middleware that records each action with its sequence number and cause (`e1`: the serial of
/// the effect that sent it), and the effect events it sees.
public func causeRecorder<State: Sendable, Action: Sendable>(
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
