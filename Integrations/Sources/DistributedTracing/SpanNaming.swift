import ChronicleInspection
import ChronicleStore
import Tracing

/// Span names and the attributes that describe a cause.
enum SpanNaming {
  /// The action's case name (`addTodo` of `Todos.Action.addTodo("Milk")`), read from its redacted
  /// dump so that an action marked as sensitive is named `<redacted>`. An action that is not an
  /// enum is named after its type.
  static func caseName<Action>(of action: Action, redaction: Redaction) -> String {
    // Depth 1 writes the payload as `…`: only the part before it is kept.
    let dump = ValueDump.renderInline(action, redaction: redaction, maxDepth: 1)
    let head = dump.prefix { $0 != "(" }
    guard let dot = head.lastIndex(of: ".") else { return String(head) }
    return String(head[head.index(after: dot)...])
  }

  /// `effect`, `thunk load`, `timer tick`: the kind of the effect and its label.
  static func name(ofEffectCausedBy cause: Cause) -> String {
    guard let label = cause.label else { return cause.kind.rawValue }
    return "\(cause.kind.rawValue) \(label)"
  }

  static func add(_ cause: Cause, to attributes: inout SpanAttributes, includingEffect: Bool) {
    attributes.set("chronicle.cause.kind", value: .string(cause.kind.rawValue))
    if let parent = cause.parent { attributes.set("chronicle.cause.parent", value: .int64(Int64(parent))) }
    if includingEffect, let effect = cause.effect {
      attributes.set("chronicle.cause.effect", value: .int64(Int64(effect)))
    }
    if let label = cause.label { attributes.set("chronicle.cause.label", value: .string(label)) }
  }
}
