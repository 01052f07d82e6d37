import ChronicleJSON
import ChronicleStore
import ChronicleTracer

/// One entry of a ``JournalFile``: a recorded action, without the app's types.
public struct JournalFileEntry: Sendable, Hashable {
  /// The entry's index in the journal.
  public var index: Int
  /// The store's sequence number.
  public var sequence: UInt64
  /// Monotonic nanoseconds since the journal's origin.
  public var time: Int64
  /// The context label, if any.
  public var context: String?
  /// The cause's kind: `user`, `effect`, `thunk`, `timer`, `middleware`, `stream`, `replay` or `inspector`.
  public var causeKind: String
  /// The sequence number of the action whose processing started the sender, if any.
  public var causeParent: UInt64?
  /// The effect's cancellation id, the thunk's name, the timer's id or the sending middleware's
  /// name, if any.
  public var causeLabel: String?
  /// The action's case name.
  public var type: String
  /// `reduced`, or `stopped` when a middleware did not pass the action on.
  public var outcome: String
  /// Nanoseconds from the tracer receiving the action to the end of the chain.
  public var duration: Int64
  /// The action as compact JSON text.
  public var actionJSON: String
  /// Where the action was sent, when the file records it.
  public var site: RecordedCallSite?
  /// Where the effect, thunk or timer that sent it was created, when the file records it.
  public var effectSite: RecordedCallSite?
  /// The places in the state of the redacted values this entry changed (`redactedChanges`):
  /// both sides read `"<redacted>"`, so comparing the states' JSON cannot tell.
  var redactedChanges: [[StatePatch.PathComponent]]
  /// The cause as recorded, the effect's serial number included.
  var cause: Cause
  /// Nanoseconds in the reducer and from `time` to its start; `EntryFields.unknownDuration`
  /// without a probe.
  var reducerNanos: UInt32
  var reducerOffsetNanos: UInt32

  /// The entry `object` at `position`, whose envelope the loader read and checked as `fields`.
  init(_ object: JSONValue, fields: EntryFields, position: Int) throws(JournalImportError) {
    let root = try FieldReader(object, path: FieldPath([.key("entries"), .index(position)]))
    index = fields.index
    sequence = fields.sequence
    time = fields.time
    context = fields.context
    causeKind = fields.cause.kind.rawValue
    causeParent = fields.cause.parent
    causeLabel = fields.cause.label
    cause = fields.cause
    site = fields.site
    effectSite = fields.effectSite
    reducerNanos = fields.reducerNanos
    reducerOffsetNanos = fields.reducerOffsetNanos
    type = try root.string("type")
    outcome = fields.stopped ? "stopped" : "reduced"
    duration = Int64(fields.chainNanos)
    actionJSON = String(decoding: JSONWriter.serialize(try root.required("action")), as: UTF8.self)
    redactedChanges = []
    if root.contains("redactedChanges") {
      let field = root.path.appending("redactedChanges")
      for (offset, element) in try root.array("redactedChanges").enumerated() {
        guard let changed = StatePatch.path(fromJSON: element) else {
          throw .wrongType(
            entry: field.entryIndex, field: field.appending(index: offset).description,
            expected: "array of strings and integers", found: element.typeName)
        }
        redactedChanges.append(changed)
      }
    }
  }

  /// The cause in words: `user`, `thunk "load" ← #3`.
  public var causeDescription: String {
    var text = causeKind
    if let causeLabel { text += " \(causeLabel.debugDescription)" }
    if let causeParent { text += " ← #\(causeParent)" }
    return text
  }
}
