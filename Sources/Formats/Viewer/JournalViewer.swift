import ChronicleInspection
import ChronicleJSON
import ChronicleTracer
import Foundation

/// Writes the HTML journal viewer: one self-contained file (inline CSS and JavaScript, nothing
/// loaded from the network) that lists the entries with their context, cause and duration,
/// filters them by text and by context, and shows the selected entry's action, its state as a
/// collapsible tree and its diff from the previous state, with a time slider.
///
/// The page stays responsive with 100,000 entries: it renders only the rows on screen, and keeps
/// full states every ``fullStateInterval`` entries plus each entry's changes, rebuilding a state
/// only when it is shown. An entry's detail lists the effects, thunks and timers it started, with
/// their start, duration and outcome. Open it with any browser; `#select=N` in the address
/// selects the entry with sequence number `N` (shown as `#N`), `#filter=text` fills the filter and
/// `#cause=N` jumps to the entry that caused entry `#N`.
///
/// In a browser that has the Redux DevTools extension, the page also connects to it as an
/// instance (`features` `jump`, `import` and `export`) and sends it the base state and each entry
/// as an action, in the Redux DevTools files' form, with the state recorded after it: the
/// extension shows the journal's own states, and its jumps select entries here. A page whose
/// file does not hold every state does not connect (docs/formats/redux-devtools.md).
public enum JournalViewer {
  /// How many entries apart the page stores full states; states in between are rebuilt from
  /// the nearest one and the entries' changes.
  public static let fullStateInterval = 256

  /// The viewer page for `document`, as HTML text.
  ///
  /// - Parameters:
  ///   - document: The journal file.
  ///   - title: The page's title.
  ///   - sourceRoot: When given, each call site the entry detail shows ("sent from
  ///     CounterView.swift:42 in body") links to `sourceRoot` + its `fileID` + `:` + its line, e.g.
  ///     `vscode://file/Users/me/App/Sources/` for a package whose module folders are named after
  ///     their modules.
  public static func html(
    for document: JournalFile, title: String = "Chronicle journal", sourceRoot: String? = nil
  ) -> String {
    var stream = ExportStream()
    try? write(DocumentViewerInput(document: document), title: title, sourceRoot: sourceRoot, into: &stream)
    return String(decoding: stream.data, as: UTF8.self)
  }

  /// Writes the viewer page for `document` to `url`, replacing the file.
  ///
  /// The export is written to a new file beside `url` and renamed over it: a symbolic link at
  /// `url` is replaced rather than followed, and a failed export leaves the old file as it was.
  ///
  /// - Parameters:
  ///   - document: The journal file.
  ///   - url: Where to write the page.
  ///   - title: The page's title.
  ///   - sourceRoot: The prefix that turns call sites into editor links (see
  ///     ``html(for:title:sourceRoot:)``).
  public static func write(
    _ document: JournalFile, to url: URL, title: String = "Chronicle journal", sourceRoot: String? = nil
  ) throws(JournalExportError) {
    var stream = try ExportStream(creating: url)
    try write(DocumentViewerInput(document: document), title: title, sourceRoot: sourceRoot, into: &stream)
  }

  /// Writes the page, its data streamed between the page's head and its script.
  static func write(
    _ input: some ViewerInput, title: String, sourceRoot: String? = nil, into stream: inout ExportStream
  )
    throws(JournalExportError)
  {
    let (before, after) = ViewerPage.parts(title: title)
    stream.writer.utf8(before)
    try stream.flush()
    stream.escapesLessThan = true
    try ViewerData(input: input, title: title, interval: fullStateInterval, sourceRoot: sourceRoot)
      .write(into: &stream)
    try stream.flush()
    stream.escapesLessThan = false
    stream.writer.utf8(after)
    try stream.finish()
  }
}

extension JournalSnapshot {
  /// The journal as an HTML viewer page (see ``JournalViewer``), with every state; states and
  /// actions pass through `redaction`, so redacted values show as `<redacted>`.
  ///
  /// The page is written as the states are computed, one at a time: the memory it takes is that
  /// of the page, not of every state.
  ///
  /// - Parameters:
  ///   - redaction: The redaction policy.
  ///   - title: The page's title.
  ///   - sourceRoot: The prefix that turns call sites into editor links (see
  ///     ``JournalViewer/html(for:title:sourceRoot:)``).
  public func htmlViewer(
    redaction: Redaction = .default, title: String = "Chronicle journal", sourceRoot: String? = nil
  ) -> Data {
    var stream = ExportStream()
    try? JournalViewer.write(
      RecordedViewerInput(snapshot: self, redaction: redaction), title: title, sourceRoot: sourceRoot,
      into: &stream)
    return stream.data
  }

  /// Writes the journal's HTML viewer page to `url` (see ``htmlViewer(redaction:title:sourceRoot:)``),
  /// streaming it to the file.
  public func writeHTMLViewer(
    to url: URL, redaction: Redaction = .default, title: String = "Chronicle journal",
    sourceRoot: String? = nil
  ) throws(JournalExportError) {
    var stream = try ExportStream(creating: url)
    try JournalViewer.write(
      RecordedViewerInput(snapshot: self, redaction: redaction), title: title, sourceRoot: sourceRoot,
      into: &stream)
  }
}

/// A document as the viewer's input: its states and actions as the file holds them.
struct DocumentViewerInput: ViewerInput {
  let document: JournalFile

  var stateType: String { document.stateType }
  var actionType: String { document.actionType }
  var origin: String? { document.originISO8601 }
  var entryCount: Int { document.count }

  func row(at position: Int) -> ViewerRow {
    let entry = document.entries[position]
    return ViewerRow(
      index: entry.index, sequence: entry.sequence, time: entry.time, context: entry.context,
      causeKind: entry.causeKind, causeParent: entry.causeParent, causeLabel: entry.causeLabel,
      causeEffect: entry.cause.effect, type: entry.type,
      duration: entry.duration, actionJSON: entry.actionJSON, outcome: entry.outcome,
      replayable: document.entryObjects[position]["replayable"] != .bool(false), site: entry.site,
      effectSite: entry.effectSite)
  }

  var effectEvents: [EventFields] { document.effectEventFields }

  var baseState: JSONValue? { document.count > 0 ? document.state(before: 0) : nil }

  func forEachStep(
    _ body: (Int, JSONValue?, [StatePatch]?) throws(JournalExportError) -> Void
  ) throws(JournalExportError) {
    var previous = baseState
    for position in 0..<document.count {
      let before = position == 0 ? previous : (document.state(before: position) ?? previous)
      let after = document.state(after: position)
      var patches: [StatePatch]?
      if let before, let after {
        patches = document.statePatches(from: position, to: position, before: before, after: after)
      }
      try body(position, after, patches)
      previous = after
    }
  }
}

/// A recorded journal as the viewer's input: each state is encoded (redacted) and compared with
/// the one before as the page is written, and values nested deeper than the formats' parsers read
/// are cut with the parser's marker, as the page's script could not show them.
private struct RecordedViewerInput<State: Sendable, Action: Sendable>: ViewerInput {
  let snapshot: JournalSnapshot<State, Action>
  /// The index of the first entry (at position 0), read once: ``/ChronicleTracer/JournalSnapshot/indices``
  /// is a call into generic code.
  let firstIndex: Int
  let objects: JournalObjectWriter<State, Action>

  init(snapshot: JournalSnapshot<State, Action>, redaction: Redaction) {
    self.snapshot = snapshot
    firstIndex = snapshot.indices.lowerBound
    objects = JournalObjectWriter(redaction: redaction)
  }

  /// The deepest nesting kept in a state: what a Journal JSON reader reads of a state three
  /// levels down its document (`entries[i].state`).
  private static var maxStateDepth: Int { JSONParser.maxSupportedDepth - 3 }

  var stateType: String { snapshot.metadata.state.name }
  var actionType: String { snapshot.metadata.action.name }
  var origin: String? {
    Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(snapshot.metadata.origin)
  }
  var entryCount: Int { snapshot.count }

  func row(at position: Int) -> ViewerRow {
    let index = firstIndex + position
    let entry = snapshot.exportedEntry(at: index)
    let numbers = snapshot.entryNumbers(at: index)
    let (action, replayable, name) = objects.action(entry.action)
    return ViewerRow(
      index: index, sequence: entry.sequence, time: numbers.time, context: entry.context,
      causeKind: entry.cause.kind.rawValue, causeParent: entry.cause.parent, causeLabel: entry.cause.label,
      causeEffect: entry.cause.effect, type: name, duration: Int64(numbers.chainNanos),
      actionJSON: JSONText.compact(action.cut(atDepth: Self.maxStateDepth)), outcome: entry.outcome.rawValue,
      replayable: replayable, site: entry.site, effectSite: entry.effectSite)
  }

  var effectEvents: [EventFields] { snapshot.effectEventFields(redaction: objects.encoder.redaction) }

  var baseState: JSONValue? {
    snapshot.count > 0 ? snapshot.baseState.map { objects.state($0).cut(atDepth: Self.maxStateDepth) } : nil
  }

  func forEachStep(
    _ body: (Int, JSONValue?, [StatePatch]?) throws(JournalExportError) -> Void
  ) throws(JournalExportError) {
    guard let base = snapshot.baseState else {
      // No state to start from: every entry is listed without its states.
      for position in 0..<snapshot.count { try body(position, nil, nil) }
      return
    }
    let tracker = RedactedChangeTracker()
    var previous = objects.state(base, startingChangesOf: tracker).cut(atDepth: Self.maxStateDepth)
    var position = 0
    try snapshot.forEachState { (_, state) throws(JournalExportError) in
      let (json, parts) = objects.encoder.encodeRecordingRedactions(state)
      let after = json.cut(atDepth: Self.maxStateDepth)
      let patches = StatePatch.adding(
        redactedChanges: tracker.changes(to: parts), in: after, to: StatePatch.between(previous, after))
      try body(position, after, patches)
      previous = after
      position += 1
    }
  }
}
