import ChronicleJSON
import ChronicleStore
import ChronicleTracer

/// What a Chrome trace is written from: a recorded journal (its actions redacted as the export
/// says) or a ``JournalFile`` read from a file. One builder lays either out, so the library's
/// export and `chronicle convert --to chrome` write the same trace.
protocol ChromeTraceInput {
  /// The number of entries.
  var entryCount: Int { get }
  /// The timing and causes of the entry at a position (0 is the first entry held).
  func entry(at position: Int) -> ChromeTraceEntry
  /// The position of the entry with a sequence number, if it is held.
  func position(ofSequence sequence: UInt64) -> Int?
  /// The effect lifecycle events, in the order they happened.
  var effectEvents: [EventFields] { get }
  /// The action span's name and `args` for the entry at a position.
  func action(at position: Int) -> (name: String, args: [JSONMember])
  /// The origin's ISO 8601 time, for `otherData`.
  var origin: String? { get }
}

/// An entry's place on the timeline.
struct ChromeTraceEntry {
  /// The journal's index of the entry.
  var index: Int
  var sequence: UInt64
  /// Nanoseconds since the origin.
  var time: Int64
  var chainNanos: UInt32
  /// `EntryFields.unknownDuration` without a probe.
  var reducerNanos: UInt32
  var reducerOffsetNanos: UInt32
  /// The cause's parent sequence number, 0 for none.
  var parent: UInt64
  /// The serial number of the effect that sent the action, 0 for none.
  var effect: UInt64
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

  var isFlow: Bool {
    switch kind {
    case .flowStart, .flowEnd: true
    default: false
    }
  }

  static let pid = 1
  static let actionsTrack = 1

  func json(input: some ChromeTraceInput) -> JSONValue {
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
      let (name, args) = input.action(at: index)
      common(name: name, category: "action", phase: "X")
      members.append(JSONMember("dur", microseconds(duration)))
      members.append(JSONMember("args", .object(args)))
    case .reducer(let index):
      common(name: "reduce", category: "reducer", phase: "X")
      members.append(JSONMember("dur", microseconds(duration)))
      members.append(
        JSONMember("args", .object([JSONMember("index", .integer(input.entry(at: index).index))])))
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
struct ChromeTraceBuilder<Input: ChromeTraceInput> {
  let input: Input

  /// Writes the whole document: the events, then `displayTimeUnit` and `otherData`.
  func write(into stream: inout ExportStream) throws(JournalExportError) {
    stream.writer.raw(#"{"traceEvents":["#)
    var first = true
    for event in events() {
      if !first { stream.writer.raw(",") }
      first = false
      stream.writer.write(event.json(input: input))
      try stream.flushIfNeeded()
    }
    stream.writer.raw(#"],"displayTimeUnit":"ms","otherData":"#)
    stream.writer.write(
      .object([
        JSONMember("format", .string("chronicle.chrome-trace")),
        JSONMember("version", .integer(1)),
        JSONMember("origin", input.origin.map { .string($0) } ?? .null),
      ]))
    stream.writer.raw("}")
    try stream.finish()
  }

  func events() -> [ChromeTraceEvent] {
    let events = input.effectEvents
    let lastTime = max(
      input.entryCount == 0 ? 0 : input.entry(at: input.entryCount - 1).time, events.last?.time ?? 0)
    let spans = EffectSpan.spans(of: events, lastTime: lastTime)
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
    // A flow event binds to the innermost slice open on its track when the importer reaches it:
    // Perfetto keeps a stack per track and pops an ended slice only when the next one begins, and
    // chrome://tracing takes the deepest slice containing the time. So both ends sit at the start
    // of the slice they belong to (a source's nested reducer span starts later, see below), never
    // at a later moment when a nested span that has ended may still be the innermost one.
    var flow = 0
    func link(from: (tid: Int, time: Int64), to: (tid: Int, time: Int64)) {
      flow += 1
      timed.append(ChromeTraceEvent(kind: .flowStart(id: flow), tid: from.tid, time: from.time))
      timed.append(ChromeTraceEvent(kind: .flowEnd(id: flow), tid: to.tid, time: to.time))
    }
    for index in 0..<input.entryCount {
      let record = input.entry(at: index)
      let end = record.time + Int64(record.chainNanos)
      timed.append(
        ChromeTraceEvent(
          kind: .action(index: index), tid: ChromeTraceEvent.actionsTrack, time: record.time,
          duration: Int64(record.chainNanos)))
      let unknown = EntryFields.unknownDuration
      if record.reducerNanos != unknown, record.reducerOffsetNanos != unknown {
        // A reducer span starting with its action would be the innermost slice at the action's
        // start, where the action's flows bind: it starts at least 1 ns later (below what the
        // clock resolves) and keeps its end.
        var start = min(record.time + Int64(record.reducerOffsetNanos), end)
        var duration = Int64(record.reducerNanos)
        if start == record.time, start < end {
          start += 1
          duration = max(0, min(duration, end - start))
        }
        timed.append(
          ChromeTraceEvent(
            kind: .reducer(index: index), tid: ChromeTraceEvent.actionsTrack, time: start, duration: duration)
        )
      }
      if record.effect != 0, let span = spanByEffect[record.effect] {
        link(from: (effectTrack(span.lane), span.start), to: (1, record.time))
      } else if record.parent != 0, let parent = input.position(ofSequence: record.parent) {
        link(from: (1, input.entry(at: parent).time), to: (1, record.time))
      }
    }
    for span in spans {
      timed.append(
        ChromeTraceEvent(
          kind: .effect(span), tid: effectTrack(span.lane), time: span.start, duration: span.end - span.start)
      )
      if let parentSequence = span.cause.parent, let parent = input.position(ofSequence: parentSequence) {
        link(from: (1, input.entry(at: parent).time), to: (effectTrack(span.lane), span.start))
      }
    }
    // The order Perfetto's importer processes events in (trace_sorter.h): by time; at one time,
    // spans first, longer before shorter (an enclosing span before the spans it contains), then
    // flow events in file order, so a flow starts before it ends.
    let sorted = timed.enumerated().sorted { lhs, rhs in
      let (left, right) = (lhs.element, rhs.element)
      if left.time != right.time { return left.time < right.time }
      if left.isFlow != right.isFlow { return !left.isFlow }
      if !left.isFlow, left.duration != right.duration { return left.duration > right.duration }
      return lhs.offset < rhs.offset
    }.map(\.element)
    return metadata + sorted
  }

  private func effectTrack(_ lane: Int) -> Int { 2 + lane }
}

extension EffectSpan {
  /// Pairs each effect's start with its end (`lastTime` for one still running) and assigns lanes so that spans on one track never
  /// overlap. Effects whose start was not recorded are left out.
  static func spans(of events: [EventFields], lastTime: Int64) -> [EffectSpan] {
    var open: [UInt64: EffectSpan] = [:]
    var spans: [EffectSpan] = []
    for event in events {
      switch event.phase {
      case .started:
        let name =
          event.cause.label.map { "\(event.cause.kind.rawValue) \($0)" }
          ?? "\(event.cause.kind.rawValue) #\(event.effect)"
        open[event.effect] = EffectSpan(
          effect: event.effect, name: name, cause: event.cause, ids: event.ids, start: event.time,
          end: event.time, outcome: "running")
      case .finished, .cancelled, .failed:
        guard var span = open.removeValue(forKey: event.effect) else { continue }
        span.end = max(event.time, span.start)
        switch event.phase {
        case .failed:
          span.outcome = "failed"
          span.error = event.error ?? ""
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
      // A span starting where the lane's last one ends goes to another lane: chrome://tracing
      // would find both at that moment and could bind a flow to the one that ended.
      if let lane = laneEnds.firstIndex(where: { $0 < spans[position].start }) {
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

/// What the Chrome trace writes of an action's call sites.
enum ChromeTrace {
  /// The action span's `site` and `effectSite` arguments, `Module/File.swift:42 in body`:
  /// Perfetto and chrome://tracing list them with the slice's other arguments.
  static func siteArgs(_ site: RecordedCallSite?, _ effectSite: RecordedCallSite?) -> [JSONMember] {
    var args: [JSONMember] = []
    if let site {
      args.append(JSONMember("site", .string("\(site.fileID):\(site.line) in \(site.function)")))
    }
    if let effectSite {
      args.append(
        JSONMember("effectSite", .string("\(effectSite.fileID):\(effectSite.line) in \(effectSite.function)"))
      )
    }
    return args
  }
}
