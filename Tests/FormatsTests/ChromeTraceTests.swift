import ChronicleMiddleware
import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing
import TracerFixtures

@testable import ChronicleFormats
@testable import ChronicleTracer

@Suite struct ChromeTraceTests {
  private struct Event {
    var name: String
    var phase: String
    var tid: Int
    var ts: Double
    var dur: Double?
    var id: Int?
    var args: [String: Any]
    var raw: [String: Any]
  }

  private func events(_ data: Data) throws -> [Event] {
    let root = try jsonObject(data)
    #expect(Set(root.keys) == ["traceEvents", "displayTimeUnit", "otherData"])
    let list = try #require(root["traceEvents"] as? [[String: Any]])
    return try list.map { raw in
      Event(
        name: try #require(raw["name"] as? String), phase: try #require(raw["ph"] as? String),
        tid: try #require(raw["tid"] as? Int), ts: (raw["ts"] as? Double) ?? 0, dur: raw["dur"] as? Double,
        id: raw["id"] as? Int, args: raw["args"] as? [String: Any] ?? [:], raw: raw)
    }
  }

  @Test func actionsReducersAndEffectsAreSpansOnTracks() async throws {
    let (journal, _) = await recordedRun()
    let snapshot = journal.snapshot()
    let events = try events(snapshot.chromeTrace())
    for event in events {
      #expect(event.raw["pid"] as? Int == 1)
      #expect(["M", "X", "s", "f"].contains(event.phase))
    }
    let metadata = events.filter { $0.phase == "M" }
    #expect(metadata.map(\.name) == ["process_name", "thread_name", "thread_name"])
    #expect(metadata.map { $0.args["name"] as? String } == ["Chronicle store", "actions", "effects 1"])
    #expect(events.prefix(3).allSatisfy { $0.phase == "M" })

    let actions = events.filter { $0.raw["cat"] as? String == "action" }
    #expect(actions.count == snapshot.count)
    #expect(actions.map { $0.args["seq"] as? Int } == Array(1...9))
    #expect(actions.map(\.name) == snapshot.entries.map { ActionName.of($0.action) })
    #expect(actions.allSatisfy { $0.phase == "X" && $0.tid == 1 && $0.dur != nil })
    let reducers = events.filter { $0.raw["cat"] as? String == "reducer" }
    #expect(reducers.count == snapshot.entries.filter { $0.reducerDuration != nil }.count)
    for reducer in reducers {
      let action = try #require(actions.first { $0.args["index"] as? Int == reducer.args["index"] as? Int })
      #expect(action.ts <= reducer.ts && reducer.ts + reducer.dur! <= action.ts + action.dur! + 0.001)
    }
    let effects = events.filter { $0.raw["cat"] as? String == "effect" }
    #expect(effects.count == 1)
    #expect(effects[0].name == "effect load")
    #expect(effects[0].tid == 2)
    #expect(effects[0].args["outcome"] as? String == "finished")
    #expect(effects[0].args["parent"] as? Int == 5)
    #expect(effects[0].args["ids"] as? [String] == ["load"])

    // Timed events come in time order, and spans on one track never overlap unless nested.
    let timed = events.filter { $0.phase != "M" }
    #expect(timed.map(\.ts) == timed.map(\.ts).sorted())
    for (previous, next) in zip(actions, actions.dropFirst()) {
      #expect(previous.ts + previous.dur! <= next.ts + 0.001)
    }
  }

  @Test func causesAreFlowsFromASpanToASpan() async throws {
    let (journal, _) = await recordedRun()
    let snapshot = journal.snapshot()
    let events = try events(snapshot.chromeTrace())
    let spans = events.filter { $0.phase == "X" }
    let starts = events.filter { $0.phase == "s" }
    let ends = events.filter { $0.phase == "f" }
    // One flow per entry with a parent (the effect's action and the chain's two sends) and one
    // per effect started by an entry.
    let expected = snapshot.entries.filter { $0.cause.parent != nil }.count + 1
    #expect(starts.count == expected)
    #expect(Set(starts.compactMap(\.id)) == Set(ends.compactMap(\.id)))
    #expect(Set(starts.compactMap(\.id)).count == expected)
    func enclosing(_ flow: Event) -> Event? {
      spans.first { $0.tid == flow.tid && $0.ts <= flow.ts && flow.ts <= $0.ts + $0.dur! + 0.0005 }
    }
    for start in starts {
      let end = try #require(ends.first { $0.id == start.id })
      #expect(end.raw["bp"] as? String == "e")
      #expect(start.raw["cat"] as? String == "cause" && end.raw["cat"] as? String == "cause")
      #expect(start.ts <= end.ts)
      #expect(enclosing(start) != nil)
      #expect(enclosing(end) != nil)
    }
    // The effect's action: a flow from the effect span to the `loaded` span.
    let loaded = try #require(spans.first { $0.name == "loaded" })
    let intoLoaded = try #require(ends.first { $0.tid == 1 && $0.ts == loaded.ts })
    let fromEffect = try #require(starts.first { $0.id == intoLoaded.id })
    #expect(fromEffect.tid == 2)
  }

  @Test func overlappingEffectsGoToSeparateTracks() async throws {
    let gate = Signal()
    let slow = AnyMiddleware<Counter.State, Counter.Action>(name: "slow") { action, context, next in
      next(action)
      if action == .decrement {
        context.run(.run { _ in await gate.wait() }, as: .thunk, label: "wait")
      }
    }
    let journal = CounterJournal(reducer: Counter())
    let store = CounterStore(
      initialState: Counter.State(), reducer: Counter(),
      middleware: [.tracer(journal), slow, .tracerProbe(journal)])
    store.send(.decrement)
    store.send(.decrement)
    gate.fire()
    await store.waitUntilIdle()
    let events = try events(journal.snapshot().chromeTrace())
    let effects = events.filter { $0.raw["cat"] as? String == "effect" }
    #expect(effects.count == 2)
    #expect(Set(effects.map(\.tid)) == [2, 3])
    #expect(events.filter { $0.phase == "M" }.count == 4)
  }

  @Test func theTraceRoundTripsTheJournalsSequenceAndCauses() async throws {
    let (journal, _) = await recordedRun()
    let snapshot = journal.snapshot()
    let actions = try events(snapshot.chromeTrace()).filter { $0.raw["cat"] as? String == "action" }
    #expect(actions.map { $0.args["cause"] as? String } == snapshot.entries.map(\.cause.description))
    #expect(actions.map { $0.args["outcome"] as? String } == snapshot.entries.map(\.outcome.rawValue))
    let firstTime = try #require(snapshot.entry(at: 0)).time
    #expect(abs(actions[0].ts - Double(nanoseconds(firstTime)) / 1_000) < 0.001)
  }
}
