import ChronicleJSON
import ChronicleStore
import ChronicleTracer
import Foundation

extension JournalFile {
  /// The document as Journal JSON (`chronicle.journal`, version 1), with the states it holds.
  public func journalJSON() -> Data {
    var meta = meta.members
    meta.removeAll { ["firstIndex", "entryCount", "effectCount"].contains($0.key) }
    meta += [
      JSONMember("firstIndex", .integer(entries.first?.index ?? 0)),
      JSONMember("entryCount", .integer(entries.count)),
      JSONMember("effectCount", .integer(effectObjects.count)),
    ]
    let root = JSONValue.object([
      JSONMember("format", .string(JournalWireFormat.journalFormat)),
      JSONMember("version", .integer(JournalWireFormat.version)), JSONMember("meta", .object(meta)),
      JSONMember("baseState", baseState), JSONMember("entries", .array(firstEntriesWithCheckpoint)),
      JSONMember("effects", .array(effectObjects)),
    ])
    return Data(JSONWriter.serialize(root))
  }

  /// The document as an NDJSON stream (`chronicle.journal.ndjson`, version 1): the header, then
  /// entry and effect lines in the order they were recorded.
  public func ndjson() -> Data {
    var meta = meta.members
    meta.removeAll { ["firstIndex", "entryCount", "effectCount"].contains($0.key) }
    var lines: [JSONValue] = [
      .object([
        JSONMember("format", .string(JournalWireFormat.streamFormat)),
        JSONMember("version", .integer(JournalWireFormat.version)), JSONMember("meta", .object(meta)),
      ])
    ]
    var effects = effectObjects[...]
    for (position, entry) in firstEntriesWithCheckpoint.enumerated() {
      // An event's `position` counts the entries recorded before it.
      while let event = effects.first, let at = event["position"]?.numberText.flatMap({ Int($0) }),
        at <= entries[position].index
      {
        lines.append(.object([JSONMember("effect", event)]))
        effects.removeFirst()
      }
      lines.append(.object([JSONMember("entry", entry)]))
    }
    lines += effects.map { .object([JSONMember("effect", $0)]) }
    var bytes: [UInt8] = []
    for line in lines {
      bytes += JSONWriter.serialize(line)
      bytes.append(UInt8(ascii: "\n"))
    }
    return Data(bytes)
  }

  /// The entries, the first one carrying the base state as its checkpoint (a stream replays from
  /// there).
  private var firstEntriesWithCheckpoint: [JSONValue] {
    guard var first = entryObjects.first, first["checkpoint"] == nil, baseState != .null else {
      return entryObjects
    }
    first.members.append(
      JSONMember(
        "checkpoint", .object([JSONMember("kind", .string("resync")), JSONMember("state", baseState)])))
    return [first] + entryObjects.dropFirst()
  }

  /// The document as Chrome Trace Event JSON, written as `JournalSnapshot.chromeTrace(options:)`
  /// writes a recorded journal (docs/formats/chrome-trace.md): action, reducer and effect spans,
  /// and the causes as flow arrows. Opens in Perfetto and chrome://tracing.
  public func chromeTrace() -> Data {
    var stream = ExportStream()
    try? ChromeTraceBuilder(input: DocumentTrace(document: self)).write(into: &stream)
    return stream.data
  }

  /// The document as a Redux DevTools import file, written by the writer of
  /// `JournalSnapshot.reduxDevTools(_:options:)`: the lifted-state form, with every state, when
  /// the file holds every state; the custom form (actions and the base state, for the page's
  /// reducer to recompute) otherwise.
  public func reduxDevTools() -> Data {
    var stream = ExportStream()
    try? ReduxDevToolsWriter(input: DocumentReduxDevTools(document: self), maxBytes: nil)
      .write(reduxDevToolsForm, into: &stream)
    return stream.data
  }

  /// Writes ``reduxDevTools()`` to `url`, replacing it, unless it is longer than `maxBytes`
  /// (``JournalExportError/tooLarge(format:limit:)``; the old file is left as it was).
  public func writeReduxDevTools(
    to url: URL, maxBytes: Int? = ReduxDevToolsForm.maxImportBytes
  ) throws(JournalExportError) {
    var stream = try ExportStream(creating: url)
    try ReduxDevToolsWriter(input: DocumentReduxDevTools(document: self), maxBytes: maxBytes)
      .write(reduxDevToolsForm, into: &stream)
  }

  /// The effect events as the readers check them. The loader checked every one with the same
  /// reader, so none is left out here.
  var effectEventFields: [EventFields] {
    effectObjects.enumerated().compactMap { offset, object in
      try? EventFields(FieldReader(object, path: FieldPath([.key("effects"), .index(offset)])))
    }
  }

  /// The lifted form when the document holds the base state and every state after it.
  var reduxDevToolsForm: ReduxDevToolsForm {
    baseState != .null && entries.indices.allSatisfy { state(after: $0) != nil } ? .liftedState : .custom
  }
}

extension JSONValue {
  /// The members of an object value (none for other values).
  var members: [JSONMember] {
    get {
      if case .object(let members) = self { return members }
      return []
    }
    set { self = .object(newValue) }
  }
}

/// A document as the Chrome trace's input: its actions as the file holds them (already redacted
/// when it was written).
private struct DocumentTrace: ChromeTraceInput {
  let document: JournalFile

  var entryCount: Int { document.entries.count }

  func entry(at position: Int) -> ChromeTraceEntry {
    let entry = document.entries[position]
    return ChromeTraceEntry(
      index: entry.index, sequence: entry.sequence, time: entry.time,
      chainNanos: UInt32(clamping: entry.duration), reducerNanos: entry.reducerNanos,
      reducerOffsetNanos: entry.reducerOffsetNanos,
      parent: entry.cause.parent ?? 0, effect: entry.cause.effect ?? 0)
  }

  func position(ofSequence sequence: UInt64) -> Int? { document.position(ofSequence: sequence) }

  var effectEvents: [EventFields] { document.effectEventFields }

  func action(at position: Int) -> (name: String, args: [JSONMember]) {
    let entry = document.entries[position]
    var args: [JSONMember] = [
      JSONMember("seq", .integer(entry.sequence)), JSONMember("index", .integer(entry.index)),
    ]
    if let context = entry.context { args.append(JSONMember("context", .string(context))) }
    args.append(JSONMember("cause", .string(entry.cause.description)))
    args.append(JSONMember("action", document.entryObjects[position]["action"] ?? .null))
    args.append(JSONMember("outcome", .string(entry.outcome)))
    args += ChromeTrace.siteArgs(entry.site, entry.effectSite)
    return (entry.type, args)
  }

  var origin: String? { document.originISO8601 }
}

/// A document as the Redux DevTools file's input: its values as the file holds them (already
/// redacted when it was written).
private struct DocumentReduxDevTools: ReduxDevToolsInput {
  let document: JournalFile

  var entryCount: Int { document.entries.count }

  func fluxAction(at position: Int) -> JSONValue {
    let entry = document.entries[position]
    let object = document.entryObjects[position]
    var meta = [JSONMember("seq", .integer(entry.sequence)), JSONMember("index", .integer(entry.index))]
    if let context = entry.context { meta.append(JSONMember("context", .string(context))) }
    meta.append(JSONMember("cause", object["cause"] ?? .null))
    meta.append(JSONMember("replayable", object["replayable"] ?? .bool(true)))
    meta.append(JSONMember("outcome", .string(entry.outcome)))
    if let site = object["site"] { meta.append(JSONMember("site", site)) }
    if let site = object["effectSite"] { meta.append(JSONMember("effectSite", site)) }
    return .object([
      JSONMember("type", .string(entry.type)), JSONMember("payload", object["action"] ?? .null),
      JSONMember("meta", .object(meta)),
    ])
  }

  func wallNanos(at position: Int) -> Int64 {
    document.entryObjects[position]["wallTime"]?.numberText.flatMap { Int64($0) } ?? originWallNanos
  }

  func sites(at position: Int) -> (site: RecordedCallSite?, effectSite: RecordedCallSite?) {
    (document.entries[position].site, document.entries[position].effectSite)
  }

  var originWallNanos: Int64 { document.meta["origin"]?["wallTime"]?.numberText.flatMap { Int64($0) } ?? 0 }

  var baseState: JSONValue { document.baseState }

  func forEachState(_ body: (JSONValue) throws(JournalExportError) -> Void) throws(JournalExportError) {
    for position in document.entries.indices {
      try body(document.state(after: position) ?? .null)
    }
  }
}
