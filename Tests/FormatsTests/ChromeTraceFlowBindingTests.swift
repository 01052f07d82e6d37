import ChronicleMiddleware
import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing
import TracerFixtures

@testable import ChronicleFormats
@testable import ChronicleTracer

/// A Chrome trace's events as an importer sees them: spans (`X`) and flow ends (`s`, `f`), with
/// times in integer nanoseconds as Perfetto rounds them (`llround(ts * 1000)`).
private struct TraceEvents {
  struct Event {
    var position: Int
    var phase: String
    var tid: Int
    var start: Int64
    var duration: Int64
    var flow: Int?
    var category: String?
    var args: [String: Any]
  }

  var events: [Event] = []

  init(_ data: Data) throws {
    let root = try jsonObject(data)
    let list = try #require(root["traceEvents"] as? [[String: Any]])
    for (position, raw) in list.enumerated() where raw["ph"] as? String != "M" {
      let ts = try #require(raw["ts"] as? Double)
      events.append(
        Event(
          position: position, phase: try #require(raw["ph"] as? String),
          tid: try #require(raw["tid"] as? Int),
          start: Int64((ts * 1000).rounded()),
          duration: Int64((((raw["dur"] as? Double) ?? 0) * 1000).rounded()),
          flow: raw["id"] as? Int, category: raw["cat"] as? String, args: raw["args"] as? [String: Any] ?? [:]
        ))
    }
  }

  /// Perfetto's binding (google/perfetto, trace_processor): `trace_sorter.h` orders JSON events by
  /// time and, at one time, `X` events longest first, then the other events in file order;
  /// `slice_tracker.cc` keeps a stack of slices per track and pops the ones that ended before (or
  /// exactly when) a new slice begins, dropping a slice that partially overlaps an open one;
  /// `flow_tracker.cc` binds `s`, and `f` with `"bp": "e"`, to the top of the track's stack.
  /// Returns each flow's source and target span (positions in the file) and the dropped spans.
  func perfettoBindings() -> (flows: [Int: (source: Int, target: Int)], dropped: [Int]) {
    func key(_ event: Event) -> Int64 { event.phase == "X" ? Int64.max - event.duration : Int64.max }
    let ordered = events.sorted {
      ($0.start, key($0), $0.position) < ($1.start, key($1), $1.position)
    }
    var stacks: [Int: [Event]] = [:]
    var sources: [Int: Int] = [:]
    var flows: [Int: (source: Int, target: Int)] = [:]
    var dropped: [Int] = []
    for event in ordered {
      switch event.phase {
      case "X":
        var stack = stacks[event.tid] ?? []
        while let top = stack.last {
          let end = top.start + top.duration
          guard end < event.start || (end == event.start && !(top.duration == 0 && event.duration == 0))
          else {
            break
          }
          stack.removeLast()
        }
        let overlaps = stack.contains { open in
          let end = open.start + open.duration
          return event.start < end && event.start + event.duration > end
        }
        if overlaps { dropped.append(event.position) } else { stack.append(event) }
        stacks[event.tid] = stack
      case "s":
        if let id = event.flow, let top = stacks[event.tid]?.last { sources[id] = top.position }
      case "f":
        if let id = event.flow, let source = sources[id], let top = stacks[event.tid]?.last {
          flows[id] = (source, top.position)
        }
      default: break
      }
    }
    return (flows, dropped)
  }

  /// chrome://tracing's binding (catapult, `trace_event_importer.html` and `slice_group.html`):
  /// `s`, and `f` with `"bp": "e"`, bind to the deepest slice of their thread whose closed interval
  /// holds their time.
  func catapultBindings() -> [Int: (source: Int, target: Int)] {
    let spans = events.filter { $0.phase == "X" }
    func deepest(_ flow: Event) -> Int? {
      var found: Event?
      for span in spans
      where span.tid == flow.tid && span.start <= flow.start
        && flow.start <= span.start + span.duration
      {
        // Nested spans are shorter than the spans holding them.
        if span.duration < found?.duration ?? .max { found = span }
      }
      return found?.position
    }
    var sources: [Int: Int] = [:]
    var flows: [Int: (source: Int, target: Int)] = [:]
    for event in events {
      guard let id = event.flow else { continue }
      if event.phase == "s" {
        sources[id] = deepest(event)
      } else if event.phase == "f", let source = sources[id], let target = deepest(event) {
        flows[id] = (source, target)
      }
    }
    return flows
  }

  /// The span of the action with this sequence number.
  func action(_ sequence: UInt64) -> Int? {
    events.first { $0.category == "action" && ($0.args["seq"] as? Int).map(UInt64.init) == sequence }?
      .position
  }

  /// The span of the effect with this serial number.
  func effect(_ serial: UInt64) -> Int? {
    events.first { $0.category == "effect" && ($0.args["effect"] as? Int).map(UInt64.init) == serial }?
      .position
  }

  /// Every causal link of the journal as (source span, target span), in the trace's terms.
  func expectedLinks(_ snapshot: JournalSnapshot<Counter.State, Counter.Action>) throws -> [[Int]] {
    var links: [[Int]] = []
    for entry in snapshot.entries {
      let target = try #require(action(entry.sequence))
      if let serial = entry.cause.effect, let source = effect(serial) {
        links.append([source, target])
      } else if let parent = entry.cause.parent {
        links.append([try #require(action(parent)), target])
      }
    }
    for event in events where event.category == "effect" {
      if let parent = event.args["parent"] as? Int {
        links.append([try #require(action(UInt64(parent))), event.position])
      }
    }
    return links.sorted { $0.lexicographicallyPrecedes($1) }
  }
}

private func pairs(_ flows: [Int: (source: Int, target: Int)]) -> [[Int]] {
  flows.values.map { [$0.source, $0.target] }.sorted { $0.lexicographicallyPrecedes($1) }
}

/// Cause flows bind to the slices they link in the importers of the tools the trace is for.
@Suite struct ChromeTraceFlowBindingTests {
  /// A run with every kind of link: actions starting effects and thunks, effects sending actions,
  /// actions sending actions directly.
  private func recordedLinks() async -> CounterJournal {
    let thunk = AnyMiddleware<Counter.State, Counter.Action>(name: "thunk") { action, context, next in
      next(action)
      if action == .decrement {
        context.run(.run { send in await send(.note("from thunk")) }, as: .thunk, label: "notes")
      }
    }
    let (store, journal) = makeTracedStore(middleware: [thunk])
    store.send(.load)
    await store.waitUntilIdle()
    store.send(.decrement)
    await store.waitUntilIdle()
    store.send(.chain(remaining: 2))
    store.send(.decrement)
    await store.waitUntilIdle()
    return journal
  }

  @Test func everyFlowBindsToItsSourceAndTargetInPerfetto() async throws {
    let snapshot = await recordedLinks().snapshot()
    let trace = try TraceEvents(snapshot.chromeTrace())
    let expected = try trace.expectedLinks(snapshot)
    #expect(expected.count == 8)
    let (flows, dropped) = trace.perfettoBindings()
    #expect(dropped.isEmpty)
    #expect(pairs(flows) == expected)
  }

  @Test func everyFlowBindsToItsSourceAndTargetInChromeTracing() async throws {
    let snapshot = await recordedLinks().snapshot()
    let trace = try TraceEvents(snapshot.chromeTrace())
    #expect(try pairs(trace.catapultBindings()) == trace.expectedLinks(snapshot))
  }

  /// A reducer measured as starting with its action, and an effect starting when another ends:
  /// the flows still bind to the action and to the effect that started.
  @Test func flowsBindAtSharedBoundaries() async throws {
    let journal = await recordedLinks()
    var root = try jsonObject(journal.snapshot().journalJSON())
    var entries = try #require(root["entries"] as? [[String: Any]])
    for position in entries.indices {
      var durations = try #require(entries[position]["durations"] as? [String: Any])
      durations["reducerOffset"] = 0
      entries[position]["durations"] = durations
    }
    root["entries"] = entries
    var effects = try #require(root["effects"] as? [[String: Any]])
    let started = effects.indices.filter { effects[$0]["phase"] as? String == "started" }
    let ended = try #require(effects.firstIndex { $0["phase"] as? String != "started" })
    let next = try #require(started.first { $0 > ended })
    effects[ended]["time"] = effects[next]["time"]
    root["effects"] = effects
    let edited = try CounterJournal(
      journalJSON: JSONSerialization.data(withJSONObject: root), reducer: Counter())
    let snapshot = edited.snapshot()
    let trace = try TraceEvents(snapshot.chromeTrace())
    let expected = try trace.expectedLinks(snapshot)
    let (flows, dropped) = trace.perfettoBindings()
    #expect(dropped.isEmpty)
    #expect(pairs(flows) == expected)
    #expect(pairs(trace.catapultBindings()) == expected)
  }
}

/// `chronicle convert --to chrome` and the library write one trace.
@Suite struct ChromeTraceOneWriterTests {
  @Test func aDocumentsTraceIsTheJournalsTrace() async throws {
    let thunk = AnyMiddleware<Counter.State, Counter.Action>(name: "thunk") { action, context, next in
      next(action)
      if action == .decrement {
        context.run(.run { _ in throw Counter.Failure() }, as: .thunk, label: "fails")
      }
    }
    let (store, journal) = makeTracedStore(middleware: [thunk])
    store.send(.load, context: "Screen")
    await store.waitUntilIdle()
    store.send(.decrement)
    await store.waitUntilIdle()
    store.send(.chain(remaining: 1))
    let snapshot = journal.snapshot()
    for states in [ExportOptions.States.checkpoints, .everyEntry] {
      let document = try JournalFile(data: snapshot.journalJSON(options: ExportOptions(states: states)))
      #expect(
        String(decoding: document.chromeTrace(), as: UTF8.self)
          == String(decoding: snapshot.chromeTrace(), as: UTF8.self))
    }
    let document = try JournalFile(data: snapshot.journalJSON())
    let trace = try TraceEvents(document.chromeTrace())
    #expect(trace.events.filter { $0.category == "effect" }.count == 2)
    #expect(trace.events.filter { $0.category == "reducer" }.count == snapshot.count)
    #expect(try pairs(trace.perfettoBindings().flows) == trace.expectedLinks(snapshot))
  }
}
