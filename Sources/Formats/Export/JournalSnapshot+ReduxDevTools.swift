import ChronicleJSON
import ChronicleStore
import ChronicleTracer
import Foundation

extension JournalSnapshot {
  /// The journal as a file for the Redux DevTools extension's import button.
  ///
  /// Each action becomes a Flux Standard Action: `{"type": "add", "payload": <the action>,
  /// "meta": {"seq", "index", "context", "cause", "replayable", "outcome"}}`, where `type` is the
  /// case name. Actions that are not `Encodable` are written by description with
  /// `"replayable": false`. Unlike the extension's own exports, states and actions pass through
  /// `options.redaction`.
  public func reduxDevTools(_ form: ReduxDevToolsForm, options: ExportOptions = ExportOptions()) -> Data {
    var stream = ExportStream()
    try? writeReduxDevTools(form, into: &stream, options: options, maxBytes: nil)
    return stream.data
  }

  /// Writes the Redux DevTools import file to `url`, replacing it.
  ///
  /// The export is written to a new file beside `url` and renamed over it: a symbolic link at
  /// `url` is replaced rather than followed, and a failed export leaves the old file as it was.
  /// A file longer than `maxBytes` (by default ``ReduxDevToolsForm/maxImportBytes``, the most the
  /// extension can read) is not written: the export throws ``JournalExportError/tooLarge(format:limit:)``.
  public func writeReduxDevTools(
    _ form: ReduxDevToolsForm, to url: URL, options: ExportOptions = ExportOptions(),
    maxBytes: Int? = ReduxDevToolsForm.maxImportBytes
  )
    throws(JournalExportError)
  {
    var stream = try ExportStream(creating: url)
    try writeReduxDevTools(form, into: &stream, options: options, maxBytes: maxBytes)
  }

  func writeReduxDevTools(
    _ form: ReduxDevToolsForm, into stream: inout ExportStream, options: ExportOptions, maxBytes: Int?
  )
    throws(JournalExportError)
  {
    let input = RecordedReduxDevTools(
      snapshot: self, objects: JournalObjectWriter<State, Action>(redaction: options.redaction))
    try ReduxDevToolsWriter(input: input, maxBytes: maxBytes).write(form, into: &stream)
  }
}

/// A recorded journal as the Redux DevTools file's input: states and actions pass through the
/// export's redaction.
private struct RecordedReduxDevTools<State: Sendable, Action: Sendable>: ReduxDevToolsInput {
  let snapshot: JournalSnapshot<State, Action>
  let objects: JournalObjectWriter<State, Action>

  var entryCount: Int { snapshot.count }

  func fluxAction(at position: Int) -> JSONValue {
    let entry = snapshot.exportedEntry(at: snapshot.indices.lowerBound + position)
    let (payload, replayable, name) = objects.action(entry.action)
    var meta: [JSONMember] = [
      JSONMember("seq", .integer(entry.sequence)), JSONMember("index", .integer(entry.index)),
    ]
    if let context = entry.context { meta.append(JSONMember("context", .string(context))) }
    meta.append(JSONMember("cause", objects.cause(entry.cause)))
    meta.append(JSONMember("replayable", .bool(replayable)))
    meta.append(JSONMember("outcome", .string(entry.outcome.rawValue)))
    if let site = entry.site { meta.append(JSONMember("site", objects.site(site))) }
    if let site = entry.effectSite { meta.append(JSONMember("effectSite", objects.site(site))) }
    return .object([
      JSONMember("type", .string(name)), JSONMember("payload", payload), JSONMember("meta", .object(meta)),
    ])
  }

  func wallNanos(at position: Int) -> Int64 {
    snapshot.wallNanos(at: snapshot.indices.lowerBound + position)
  }

  func sites(at position: Int) -> (site: RecordedCallSite?, effectSite: RecordedCallSite?) {
    snapshot.callSites(at: snapshot.indices.lowerBound + position)
  }

  var originWallNanos: Int64 { snapshot.originWallNanos }

  var baseState: JSONValue { snapshot.baseState.map(objects.state) ?? .null }

  func forEachState(_ body: (JSONValue) throws(JournalExportError) -> Void) throws(JournalExportError) {
    try snapshot.forEachState { (_, state) throws(JournalExportError) in try body(objects.state(state)) }
  }
}
