import ChronicleJSON
import ChronicleStore
import ChronicleTracer
import Foundation

extension JournalSnapshot {
  /// The journal as a Chrome Trace Event JSON document, which opens in Perfetto
  /// (ui.perfetto.dev) and chrome://tracing (see docs/formats/chrome-trace.md).
  ///
  /// - Each action is a complete (`"ph": "X"`) span on the *actions* track, lasting as long as
  ///   the chain after the tracer; the reducer is a span nested in it (with a probe).
  /// - Each effect, thunk or timer is a span from its start to its end on an *effects* track;
  ///   overlapping effects go to separate tracks.
  /// - Causes are flow arrows (`"s"`/`"f"`): from an action to the effects it started, from an
  ///   effect to the actions it sent, and from an action to actions sent directly because of it.
  ///
  /// Times are microseconds since the journal's origin. Actions pass through `options.redaction`.
  public func chromeTrace(options: ExportOptions = ExportOptions()) -> Data {
    var stream = ExportStream()
    try? writeChromeTrace(into: &stream, options: options)
    return stream.data
  }

  /// Writes the Chrome Trace Event JSON document to the file at `url`, replacing it.
  ///
  /// The export is written to a new file beside `url` and renamed over it: a symbolic link at
  /// `url` is replaced rather than followed, and a failed export leaves the old file as it was.
  public func writeChromeTrace(
    to url: URL, options: ExportOptions = ExportOptions()
  ) throws(JournalExportError) {
    var stream = try ExportStream(creating: url)
    try writeChromeTrace(into: &stream, options: options)
  }

  func writeChromeTrace(into stream: inout ExportStream, options: ExportOptions) throws(JournalExportError) {
    let input = RecordedTrace(
      snapshot: self, firstIndex: indices.lowerBound,
      objects: JournalObjectWriter<State, Action>(redaction: options.redaction))
    try ChromeTraceBuilder(input: input).write(into: &stream)
  }
}

/// A recorded journal as the Chrome trace's input: its actions pass through the export's redaction.
private struct RecordedTrace<State: Sendable, Action: Sendable>: ChromeTraceInput {
  let snapshot: JournalSnapshot<State, Action>
  /// The index of the first entry (at position 0), read once: ``/ChronicleTracer/JournalSnapshot/indices``
  /// is a call into generic code.
  let firstIndex: Int
  let objects: JournalObjectWriter<State, Action>

  var entryCount: Int { snapshot.count }

  func entry(at position: Int) -> ChromeTraceEntry {
    let index = firstIndex + position
    let numbers = snapshot.entryNumbers(at: index)
    return ChromeTraceEntry(
      index: index, sequence: numbers.sequence, time: numbers.time, chainNanos: numbers.chainNanos,
      reducerNanos: numbers.reducerNanos, reducerOffsetNanos: numbers.reducerOffsetNanos,
      parent: numbers.parent, effect: numbers.effect)
  }

  func position(ofSequence sequence: UInt64) -> Int? {
    snapshot.index(ofSequence: sequence).map { $0 - firstIndex }
  }

  var effectEvents: [EventFields] { snapshot.effectEventFields(redaction: objects.encoder.redaction) }

  func action(at position: Int) -> (name: String, args: [JSONMember]) {
    let entry = snapshot.exportedEntry(at: firstIndex + position)
    let (action, _, name) = objects.action(entry.action)
    var args: [JSONMember] = [
      JSONMember("seq", .integer(entry.sequence)), JSONMember("index", .integer(entry.index)),
    ]
    if let context = entry.context { args.append(JSONMember("context", .string(context))) }
    args.append(JSONMember("cause", .string(entry.cause.description)))
    args.append(JSONMember("action", action))
    args.append(JSONMember("outcome", .string(entry.outcome.rawValue)))
    args += ChromeTrace.siteArgs(entry.site, entry.effectSite)
    return (name, args)
  }

  var origin: String? {
    Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(snapshot.metadata.origin)
  }
}
