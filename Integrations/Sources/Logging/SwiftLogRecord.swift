import ChronicleMiddleware
import ChronicleStore
import Logging

/// How a ``LogRecord`` becomes a swift-log message and its metadata.
enum SwiftLogRecord {
  /// The action as rendered, or what happened to the effect: `thunk "load" failed`.
  static func message(of record: LogRecord) -> String {
    if let event = record.effect {
      var subject = event.cause.kind.rawValue
      if let label = event.cause.label { subject += " \"\(label)\"" }
      return "\(subject) \(phaseName(event.phase))"
    }
    return record.action ?? ""
  }

  /// Every structured part of `record` but its message, under `chronicle.` keys.
  static func metadata(of record: LogRecord) -> Logger.Metadata {
    var metadata: Logger.Metadata = [:]
    if let sequence = record.sequence { metadata["chronicle.sequence"] = "\(sequence)" }
    if let context = record.context { metadata["chronicle.context"] = .string(context) }
    let cause = record.effect?.cause ?? record.cause
    metadata["chronicle.cause.kind"] = .string(cause.kind.rawValue)
    if let parent = cause.parent { metadata["chronicle.cause.parent"] = "\(parent)" }
    // An effect's own serial is `chronicle.effect`; its cause names the same serial again.
    if record.effect == nil, let effect = cause.effect { metadata["chronicle.cause.effect"] = "\(effect)" }
    if let label = cause.label { metadata["chronicle.cause.label"] = .string(label) }
    if let duration = record.duration { metadata["chronicle.duration_ns"] = "\(nanoseconds(duration))" }
    if let changes = record.changes {
      metadata["chronicle.changed_paths"] = .array(changes.map { .string(changedPath(of: $0)) })
      metadata["chronicle.changes"] = .array(changes.map { .string($0) })
    }
    if let before = record.stateBefore { metadata["chronicle.state.before"] = .string(before) }
    if let after = record.stateAfter { metadata["chronicle.state.after"] = .string(after) }
    if let event = record.effect {
      metadata["chronicle.effect"] = "\(event.effect)"
      metadata["chronicle.effect.phase"] = .string(phaseName(event.phase))
      if case .failed(let error) = event.phase { metadata["chronicle.effect.error"] = .string(error) }
    }
    return metadata
  }

  static func phaseName(_ phase: EffectEvent.Phase) -> String {
    switch phase {
    case .started: "started"
    case .finished: "finished"
    case .cancelled: "cancelled"
    case .failed: "failed"
    }
  }

  static func nanoseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
  }

  /// The path part of a change's description (`todos[2].done` of `todos[2].done: false → true`):
  /// the text before the first `": "` that is not inside a dictionary key. Keys are written inline
  /// in brackets, strings quoted and escaped, so a `": "` inside a key is always inside brackets
  /// or quotes.
  static func changedPath(of change: String) -> String {
    var depth = 0
    var inString = false
    var escaped = false
    var index = change.startIndex
    while index < change.endIndex {
      let character = change[index]
      if inString {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
        }
      } else {
        switch character {
        case "\"": inString = true
        case "[", "(": depth += 1
        case "]", ")": depth -= 1
        case ":" where depth == 0:
          let next = change.index(after: index)
          if next < change.endIndex, change[next] == " " { return String(change[..<index]) }
        default: break
        }
      }
      index = change.index(after: index)
    }
    return change
  }
}
