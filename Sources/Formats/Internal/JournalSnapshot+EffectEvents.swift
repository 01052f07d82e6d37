import ChronicleInspection
import ChronicleTracer

extension JournalSnapshot {
  /// The effect events in the shape the readers give them, for the writers shared with files;
  /// a failure's error is written under the export's policy, `redaction`.
  func effectEventFields(redaction: Redaction) -> [EventFields] {
    effectEvents.map { event in
      let (phase, error): (EventRecord.Phase, String?) =
        switch event.phase {
        case .started: (.started, nil)
        case .finished: (.finished, nil)
        case .cancelled: (.cancelled, nil)
        case .failed: (.failed, event.failureDescription(redaction: redaction))
        }
      return EventFields(
        effect: event.effect, phase: phase, error: error, time: nanoseconds(event.time),
        position: Int64(event.position), cause: event.cause, ids: event.ids)
    }
  }
}
