import ChronicleStore
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
    let objects = JournalObjectWriter<State, Action>(redaction: options.redaction)
    let trace = ChromeTraceBuilder(content: content)
    stream.writer.raw(#"{"traceEvents":["#)
    var first = true
    for event in trace.events() {
      if !first { stream.writer.raw(",") }
      first = false
      stream.writer.write(event.json(content: content, objects: objects))
      try stream.flushIfNeeded()
    }
    stream.writer.raw(#"],"displayTimeUnit":"ms","otherData":"#)
    stream.writer.write(
      .object([
        JSONMember("format", .string("chronicle.chrome-trace")),
        JSONMember("version", .integer(1)),
        JSONMember(
          "origin", .string(Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(content.origin))),
      ]))
    stream.writer.raw("}")
    try stream.finish()
  }
}

/// One event of a Chrome trace, before it is written.
struct ChromeTraceEvent {
  enum Kind {
    case processName
    case threadName(String)
    case action(index: Int)
    case reducer(index: Int)
    case effect(EffectSpan)
    case flowStart(id: Int)
    case flowEnd(id: Int)
  }

  var kind: Kind
  var tid: Int
  /// Nanoseconds since the origin.
  var time: Int64
  var duration: Int64 = 0

  static let pid = 1
  static let actionsTrack = 1

  func json<State: Sendable, Action: Sendable>(
    content: JournalContent<State, Action>, objects: JournalObjectWriter<State, Action>
  ) -> JSONValue {
    var members: [JSONMember] = []
    func common(name: String, category: String, phase: String) {
      members = [
        JSONMember("name", .string(name)), JSONMember("cat", .string(category)),
        JSONMember("ph", .string(phase)),
        JSONMember("pid", .integer(Self.pid)), JSONMember("tid", .integer(tid)),
        JSONMember("ts", microseconds(time)),
      ]
    }
    switch kind {
    case .processName:
      return .object([
        JSONMember("name", .string("process_name")), JSONMember("ph", .string("M")),
        JSONMember("pid", .integer(Self.pid)), JSONMember("tid", .integer(0)),
        JSONMember("args", .object([JSONMember("name", .string("Chronicle store"))])),
      ])
    case .threadName(let name):
      return .object([
        JSONMember("name", .string("thread_name")), JSONMember("ph", .string("M")),
        JSONMember("pid", .integer(Self.pid)), JSONMember("tid", .integer(tid)),
        JSONMember("args", .object([JSONMember("name", .string(name))])),
      ])
    case .action(let index):
      let entry = content.entry(at: index)
      let (action, _, name) = objects.action(entry.action)
      common(name: name, category: "action", phase: "X")
      members.append(JSONMember("dur", microseconds(duration)))
      var args: [JSONMember] = [
        JSONMember("seq", .integer(entry.sequence)), JSONMember("index", .integer(index)),
      ]
      if let context = entry.context { args.append(JSONMember("context", .string(context))) }
      args.append(JSONMember("cause", .string(entry.cause.description)))
      args.append(JSONMember("action", action))
      args.append(JSONMember("outcome", .string(entry.outcome.rawValue)))
      members.append(JSONMember("args", .object(args)))
    case .reducer(let index):
      common(name: "reduce", category: "reducer", phase: "X")
      members.append(JSONMember("dur", microseconds(duration)))
      members.append(JSONMember("args", .object([JSONMember("index", .integer(index))])))
    case .effect(let span):
      common(name: span.name, category: "effect", phase: "X")
      members.append(JSONMember("dur", microseconds(duration)))
      var args: [JSONMember] = [
        JSONMember("effect", .integer(span.effect)), JSONMember("kind", .string(span.cause.kind.rawValue)),
      ]
      if let parent = span.cause.parent { args.append(JSONMember("parent", .integer(parent))) }
      args.append(JSONMember("ids", .array(span.ids.map { .string($0) })))
      args.append(JSONMember("outcome", .string(span.outcome)))
      if let error = span.error { args.append(JSONMember("error", .string(error))) }
      members.append(JSONMember("args", .object(args)))
    case .flowStart(let id):
      common(name: "cause", category: "cause", phase: "s")
      members.append(JSONMember("id", .integer(id)))
    case .flowEnd(let id):
      common(name: "cause", category: "cause", phase: "f")
      members.append(JSONMember("id", .integer(id)))
      members.append(JSONMember("bp", .string("e")))
    }
    return .object(members)
  }

  private func microseconds(_ nanoseconds: Int64) -> JSONValue {
    let sign = nanoseconds < 0 ? "-" : ""
    let magnitude = nanoseconds.magnitude
    let fraction = String(magnitude % 1000)
    return .number(
      "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)")
  }
}

/// An effect's life as one span.
struct EffectSpan {
  var effect: UInt64
  var name: String
  var cause: Cause
  var ids: [String]
  var start: Int64
  var end: Int64
  var outcome: String
  var error: String?
  var lane = 0
}

/// Lays a journal out as Chrome trace events: spans, tracks and causality flows.
struct ChromeTraceBuilder<State: Sendable, Action: Sendable> {
  let content: JournalContent<State, Action>

  func events() -> [ChromeTraceEvent] {
    let spans = effectSpans()
    let lanes = (spans.map(\.lane).max() ?? -1) + 1
    var metadata: [ChromeTraceEvent] = [
      ChromeTraceEvent(kind: .processName, tid: 0, time: 0),
      ChromeTraceEvent(kind: .threadName("actions"), tid: ChromeTraceEvent.actionsTrack, time: 0),
    ]
    for lane in 0..<lanes {
      metadata.append(
        ChromeTraceEvent(kind: .threadName("effects \(lane + 1)"), tid: effectTrack(lane), time: 0))
    }
    var timed: [ChromeTraceEvent] = []
    var spanByEffect: [UInt64: EffectSpan] = [:]
    for span in spans { spanByEffect[span.effect] = span }
    var flow = 0
    func link(from: (tid: Int, time: Int64), to: (tid: Int, time: Int64)) {
      flow += 1
      timed.append(ChromeTraceEvent(kind: .flowStart(id: flow), tid: from.tid, time: from.time))
      timed.append(ChromeTraceEvent(kind: .flowEnd(id: flow), tid: to.tid, time: to.time))
    }
    for index in content.entries.indices {
      let record = content.entries[index]
      let end = record.time + Int64(record.chainNanos)
      timed.append(
        ChromeTraceEvent(
          kind: .action(index: index), tid: ChromeTraceEvent.actionsTrack, time: record.time,
          duration: Int64(record.chainNanos)))
      let unknown = EntryRecord<Action>.unknownDuration
      if record.reducerNanos != unknown, record.reducerOffsetNanos != unknown {
        timed.append(
          ChromeTraceEvent(
            kind: .reducer(index: index), tid: ChromeTraceEvent.actionsTrack,
            time: min(record.time + Int64(record.reducerOffsetNanos), end),
            duration: Int64(record.reducerNanos)))
      }
      if record.effect != 0, let span = spanByEffect[record.effect] {
        link(from: (effectTrack(span.lane), clamp(record.time, span.start, span.end)), to: (1, record.time))
      } else if record.parent != 0, let parent = content.index(ofSequence: record.parent) {
        link(from: (1, content.entries[parent].time), to: (1, record.time))
      }
    }
    for span in spans {
      timed.append(
        ChromeTraceEvent(
          kind: .effect(span), tid: effectTrack(span.lane), time: span.start, duration: span.end - span.start)
      )
      if span.cause.parent != nil, let parent = content.index(ofSequence: span.cause.parent!) {
        let record = content.entries[parent]
        let from = clamp(span.start, record.time, record.time + Int64(record.chainNanos))
        link(from: (1, from), to: (effectTrack(span.lane), span.start))
      }
    }
    // Flow ends sort after the span they bind to; spans sort before nested spans at one time.
    let order: (ChromeTraceEvent) -> Int = { event in
      switch event.kind {
      case .effect, .action: 0
      case .reducer: 1
      case .flowStart, .flowEnd: 2
      default: 0
      }
    }
    let sorted = timed.enumerated().sorted { lhs, rhs in
      if lhs.element.time != rhs.element.time { return lhs.element.time < rhs.element.time }
      if order(lhs.element) != order(rhs.element) { return order(lhs.element) < order(rhs.element) }
      return lhs.offset < rhs.offset
    }.map(\.element)
    return metadata + sorted
  }

  private func effectTrack(_ lane: Int) -> Int { 2 + lane }

  private func clamp(_ value: Int64, _ low: Int64, _ high: Int64) -> Int64 {
    min(max(value, low), max(low, high))
  }

  /// Pairs each effect's start with its end and assigns lanes so that spans on one track never
  /// overlap. Effects whose start was not recorded are left out.
  func effectSpans() -> [EffectSpan] {
    var open: [UInt64: EffectSpan] = [:]
    var spans: [EffectSpan] = []
    let lastTime = max(
      content.entries.isEmpty ? 0 : content.entries[content.entries.endIndex - 1].time,
      content.events.isEmpty ? 0 : content.events[content.events.endIndex - 1].time)
    for index in content.events.indices {
      let event = content.event(at: index)
      let time = nanoseconds(event.time)
      switch event.phase {
      case .started:
        let name =
          event.cause.label.map { "\(event.cause.kind.rawValue) \($0)" }
          ?? "\(event.cause.kind.rawValue) #\(event.effect)"
        open[event.effect] = EffectSpan(
          effect: event.effect, name: name, cause: event.cause, ids: event.ids, start: time, end: time,
          outcome: "running")
      case .finished, .cancelled, .failed:
        guard var span = open.removeValue(forKey: event.effect) else { continue }
        span.end = max(time, span.start)
        switch event.phase {
        case .failed(let message):
          span.outcome = "failed"
          span.error = message
        case .cancelled: span.outcome = "cancelled"
        default: span.outcome = "finished"
        }
        spans.append(span)
      }
    }
    for var span in open.values {
      span.end = max(lastTime, span.start)
      spans.append(span)
    }
    spans.sort { ($0.start, $0.effect) < ($1.start, $1.effect) }
    var laneEnds: [Int64] = []
    for position in spans.indices {
      if let lane = laneEnds.firstIndex(where: { $0 <= spans[position].start }) {
        spans[position].lane = lane
        laneEnds[lane] = spans[position].end
      } else {
        spans[position].lane = laneEnds.count
        laneEnds.append(spans[position].end)
      }
    }
    return spans
  }
}
