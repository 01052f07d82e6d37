import ChronicleJSON
import ChronicleStore
import ChronicleTracer

/// What the viewer page is written from: a recorded journal, whose states are computed and
/// compared one at a time as the page is written, or a ``JournalFile`` read from a file.
protocol ViewerInput {
  var stateType: String { get }
  var actionType: String { get }
  /// The origin's ISO 8601 time.
  var origin: String? { get }
  var entryCount: Int { get }
  /// The list row of the entry at a position (0 is the first entry held).
  func row(at position: Int) -> ViewerRow
  /// The effect lifecycle events, in the order they happened.
  var effectEvents: [EventFields] { get }
  /// The state before the first entry, if held.
  var baseState: JSONValue? { get }
  /// Calls `body` for each entry in order with the state after it (`nil` when not held) and the
  /// changes from the state before it (`nil` when either state is not held).
  func forEachStep(
    _ body: (_ position: Int, _ after: JSONValue?, _ patches: [StatePatch]?) throws(JournalExportError) ->
      Void
  ) throws(JournalExportError)
}

/// One row of the viewer's list.
struct ViewerRow {
  var index: Int
  var sequence: UInt64
  /// Nanoseconds since the origin.
  var time: Int64
  var context: String?
  var causeKind: String
  var causeParent: UInt64?
  var causeLabel: String?
  /// The serial number of the effect that sent the action, if any.
  var causeEffect: UInt64?
  var type: String
  /// The chain's nanoseconds.
  var duration: Int64
  /// The action as compact JSON text.
  var actionJSON: String
  var outcome: String
  /// Whether the action was encoded (rather than written by its description).
  var replayable: Bool
  /// Where the action was sent, and where the effect that sent it was created.
  var site: RecordedCallSite? = nil
  var effectSite: RecordedCallSite? = nil
}

/// Writes the data the viewer page embeds, as one JSON object its script reads, streaming: its
/// memory holds one state and its predecessor, the rows, and every `interval`-th state.
///
/// `entries` are rows `[index, seq, time, context, causeKind, causeParent, causeLabel, type,
/// duration, action, outcome]` (context as a position in `contexts`, -1 for none; times in
/// nanoseconds; the action as JSON text), followed by `causeEffect, replayable` when the cause
/// names an effect or the action is not replayable: with them the page sends each action to the
/// Redux DevTools extension as the Redux DevTools export writes it, and other rows pay nothing.
/// `effects` are rows `[effect, kind, label, parent, start, end, outcome, error]` (`parent` the
/// sequence number of the action that started it, `end` the last time recorded for one still
/// running). States: `base` is the state before the
/// first entry, `patches[k]` the changes from the state before entry `k` to the state after it
/// (`null` when the file lacks either), applied in order, and `full` holds `[position, state]`
/// pairs of states after entries. `sites` are the distinct call sites `[fileID, line, function]`,
/// `entrySites[k]` the positions in `sites` of entry `k`'s site and effect site (-1 for none),
/// both absent when no entry has a site; `sourceRoot` the prefix that turns a site's `fileID`
/// and line into an editor link, or `null`.
struct ViewerData<Input: ViewerInput> {
  let input: Input
  let title: String
  let interval: Int
  var sourceRoot: String? = nil

  func write(into stream: inout ExportStream) throws(JournalExportError) {
    stream.writer.raw(#"{"title":"#)
    stream.writer.string(title)
    stream.writer.raw(#","stateType":"#)
    stream.writer.string(input.stateType)
    stream.writer.raw(#","actionType":"#)
    stream.writer.string(input.actionType)
    stream.writer.raw(#","origin":"#)
    stream.writer.write(input.origin.map { .string($0) } ?? .null)
    var contexts: [String] = []
    var contextPositions: [String: Int] = [:]
    var sites: [RecordedCallSite] = []
    var sitePositions: [RecordedCallSite: Int] = [:]
    var entrySites: [JSONValue] = []
    var hasSites = false
    func sitePosition(_ site: RecordedCallSite?) -> Int {
      guard let site else { return -1 }
      hasSites = true
      if let known = sitePositions[site] { return known }
      sitePositions[site] = sites.count
      sites.append(site)
      return sites.count - 1
    }
    stream.writer.raw(#","entries":["#)
    for position in 0..<input.entryCount {
      let row = input.row(at: position)
      entrySites.append(.array([.integer(sitePosition(row.site)), .integer(sitePosition(row.effectSite))]))
      var context = -1
      if let name = row.context {
        if let known = contextPositions[name] {
          context = known
        } else {
          context = contexts.count
          contextPositions[name] = context
          contexts.append(name)
        }
      }
      if position > 0 { stream.writer.raw(",") }
      var fields: [JSONValue] = [
        .integer(row.index), .integer(row.sequence), .integer(row.time), .integer(context),
        .string(row.causeKind), row.causeParent.map { .integer($0) } ?? .null,
        row.causeLabel.map { .string($0) } ?? .null, .string(row.type), .integer(row.duration),
        .string(row.actionJSON), .string(row.outcome),
      ]
      if row.causeEffect != nil || !row.replayable {
        fields += [row.causeEffect.map { .integer($0) } ?? .null, .bool(row.replayable)]
      }
      stream.writer.write(.array(fields))
      try stream.flushIfNeeded()
    }
    stream.writer.raw(#"],"contexts":"#)
    stream.writer.write(.array(contexts.map { .string($0) }))
    if hasSites {
      stream.writer.raw(#","sites":"#)
      stream.writer.write(
        .array(sites.map { .array([.string($0.fileID), .integer($0.line), .string($0.function)]) }))
      stream.writer.raw(#","entrySites":"#)
      stream.writer.write(.array(entrySites))
    }
    stream.writer.raw(#","sourceRoot":"#)
    stream.writer.write(sourceRoot.map { .string($0) } ?? .null)
    stream.writer.raw(#","effects":"#)
    stream.writer.write(.array(effects()))
    stream.writer.raw(#","base":"#)
    stream.writer.write(input.baseState ?? .null)
    stream.writer.raw(#","patches":["#)
    var full: [JSONValue] = []
    var previousHeld = input.baseState != nil
    try input.forEachStep { (position, after, patches) throws(JournalExportError) in
      if position > 0 { stream.writer.raw(",") }
      stream.writer.write(patches.map { .array($0.map(\.json)) } ?? .null)
      if let after, position % interval == 0 || !previousHeld {
        full.append(.array([.integer(position), after]))
      }
      previousHeld = after != nil
      try stream.flushIfNeeded()
    }
    stream.writer.raw(#"],"full":["#)
    for (offset, pair) in full.enumerated() {
      if offset > 0 { stream.writer.raw(",") }
      stream.writer.write(pair)
      try stream.flushIfNeeded()
    }
    stream.writer.raw("]}")
  }

  private func effects() -> [JSONValue] {
    let events = input.effectEvents
    let lastTime = max(
      input.entryCount == 0 ? 0 : input.row(at: input.entryCount - 1).time, events.last?.time ?? 0)
    return EffectSpan.spans(of: events, lastTime: lastTime).map { span in
      .array([
        .integer(span.effect), .string(span.cause.kind.rawValue),
        span.cause.label.map { .string($0) } ?? .null,
        span.cause.parent.map { .integer($0) } ?? .null, .integer(span.start), .integer(span.end),
        .string(span.outcome), span.error.map { .string($0) } ?? .null,
      ])
    }
  }
}

extension ViewerData where Input == DocumentViewerInput {
  /// The data the page embeds for `document`, read back as JSON: what the page's script sees.
  static func make(_ document: JournalFile, title: String, interval: Int) -> JSONValue {
    var stream = ExportStream()
    try? ViewerData(input: DocumentViewerInput(document: document), title: title, interval: interval)
      .write(into: &stream)
    try? stream.finish()
    return (try? JSONParser.parse(Array(stream.data), limits: JournalImportLimits.ownExport.parser)) ?? .null
  }
}
