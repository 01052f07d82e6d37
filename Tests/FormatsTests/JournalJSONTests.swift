import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing
import TracerFixtures

@testable import ChronicleFormats
@testable import ChronicleTracer

/// Parses an export with Foundation's parser, independent of the one the importers use.
func jsonObject(_ data: Data) throws -> [String: Any] {
  try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// A recorded run with an effect, a context, a stopped action and checkpoints.
func recordedRun(checkpointInterval: Int = 3) async -> (CounterJournal, CounterStore) {
  let stopNotes = AnyMiddleware<Counter.State, Counter.Action>(name: "stop") { action, _, next in
    if action == .note("stop me") { return }
    next(action)
  }
  let (store, journal) = makeTracedStore(
    .init(checkpointInterval: checkpointInterval), middleware: [stopNotes])
  store.send(.increment)
  store.send(.add(5), context: "CounterScreen")
  store.send(.note("hello \"world\"\n\u{1}é🎉"))
  store.send(.note("stop me"))
  store.send(.load)
  await store.waitUntilIdle()
  store.send(.chain(remaining: 2))
  return (journal, store)
}

@Suite struct JournalJSONTests {
  @Test func theDocumentHasTheDocumentedStructure() async throws {
    let (journal, _) = await recordedRun()
    let snapshot = journal.snapshot()
    let root = try jsonObject(snapshot.journalJSON())
    #expect(Set(root.keys) == ["format", "version", "meta", "baseState", "entries", "effects"])
    #expect(root["format"] as? String == "chronicle.journal")
    #expect(root["version"] as? Int == 1)

    let meta = try #require(root["meta"] as? [String: Any])
    #expect(
      Set(meta.keys) == [
        "state", "action", "origin", "checkpointInterval", "firstIndex", "entryCount", "effectCount",
      ])
    let state = try #require(meta["state"] as? [String: Any])
    #expect(state["type"] as? String == "ChronicleTestSupport.Counter.State")
    #expect(state["shape"] as? String == "count: Int, log: Array<String>")
    #expect(state["encodable"] as? Bool == true)
    let action = try #require(meta["action"] as? [String: Any])
    #expect(action["type"] as? String == "ChronicleTestSupport.Counter.Action")
    #expect(meta["checkpointInterval"] as? Int == 3)
    #expect(meta["firstIndex"] as? Int == 0)
    #expect(meta["entryCount"] as? Int == 9)
    #expect(meta["effectCount"] as? Int == 2)
    let origin = try #require(meta["origin"] as? [String: Any])
    #expect(origin["wallTime"] is Int)
    #expect((origin["iso8601"] as? String)?.hasSuffix("Z") == true)

    let base = try #require(root["baseState"] as? [String: Any])
    #expect(base["count"] as? Int == 0)

    let entries = try #require(root["entries"] as? [[String: Any]])
    #expect(entries.count == 9)
    #expect(entries.map { $0["index"] as? Int } == Array(0..<9))
    #expect(entries.map { $0["seq"] as? Int } == Array(1...9))
    #expect(
      entries.map { $0["type"] as? String } == [
        "increment", "add", "note", "note", "load", "loaded", "chain", "chain", "chain",
      ])
    let times = entries.compactMap { $0["time"] as? Int }
    #expect(times.count == 9 && times == times.sorted())
    let required: Set<String> = [
      "index", "seq", "time", "wallTime", "cause", "type", "action", "replayable", "outcome", "durations",
    ]
    for entry in entries {
      #expect(required.isSubset(of: Set(entry.keys)))
      #expect(
        Set(entry.keys).subtracting(required).isSubset(of: [
          "context", "site", "effectSite", "checkpoint", "state",
        ]))
      #expect(entry["replayable"] as? Bool == true)
      let durations = try #require(entry["durations"] as? [String: Int])
      #expect(
        Set(durations.keys) == ["chain", "reducer", "reducerOffset"]
          || entry["outcome"] as? String == "stopped")
    }
    #expect(entries[1]["context"] as? String == "CounterScreen")
    #expect(entries[3]["outcome"] as? String == "stopped")
    #expect((entries[3]["durations"] as? [String: Int])?.keys.sorted() == ["chain"])
    #expect((entries[1]["action"] as? [String: Any])?["add"] as? [String: Int] == ["_0": 5])
    #expect(
      (entries[2]["action"] as? [String: Any])?["note"] as? [String: String] == [
        "_0": "hello \"world\"\n\u{1}é🎉"
      ])
    let cause = try #require(entries[5]["cause"] as? [String: Any])
    #expect(cause["kind"] as? String == "effect")
    #expect(cause["parent"] as? Int == 5)
    #expect(cause["effect"] as? Int == 1)
    #expect(cause["label"] as? String == "load")
    #expect(entries.indices.filter { entries[$0]["checkpoint"] != nil } == [3, 6])
    let checkpoint = try #require(entries[3]["checkpoint"] as? [String: Any])
    #expect(checkpoint["kind"] as? String == "interval")
    #expect((checkpoint["state"] as? [String: Any])?["count"] as? Int == 6)

    let effects = try #require(root["effects"] as? [[String: Any]])
    #expect(effects.map { $0["phase"] as? String } == ["started", "finished"])
    #expect(effects.map { $0["effect"] as? Int } == [1, 1])
    #expect(effects.map { $0["position"] as? Int } == [4, 6])
    #expect(effects.map { $0["ids"] as? [String] } == [["load"], ["load"]])
  }

  @Test func roundTripsEntriesStatesAndEvents() async throws {
    let (journal, _) = await recordedRun()
    let snapshot = journal.snapshot()
    let imported = try CounterJournal(journalJSON: snapshot.journalJSON(), reducer: Counter())
    let copy = imported.snapshot()
    #expect(copy.indices == snapshot.indices)
    for index in snapshot.indices {
      let (a, b) = (copy.entry(at: index)!, snapshot.entry(at: index)!)
      #expect(
        a.sequence == b.sequence && a.action == b.action && a.cause == b.cause && a.context == b.context)
      #expect(
        a.time == b.time && a.chainDuration == b.chainDuration && a.reducerDuration == b.reducerDuration)
      #expect(a.outcome == b.outcome && a.reducerOffset == b.reducerOffset)
      #expect(abs(a.wallTime.timeIntervalSince(b.wallTime)) < 1e-6)
      #expect(copy.state(after: index) == snapshot.state(after: index))
    }
    #expect(Array(copy.effectEvents) == Array(snapshot.effectEvents))
    #expect(copy.checkpoints.map(\.index) == snapshot.checkpoints.map(\.index))
    #expect(copy.checkpoints.map(\.kind) == snapshot.checkpoints.map(\.kind))
    #expect(copy.metadata.state == snapshot.metadata.state)
    // Exporting the import gives the same document.
    #expect(copy.journalJSON() == snapshot.journalJSON())
  }

  @Test func everyEntryStatesAreWrittenWhenAsked() async throws {
    let (journal, _) = await recordedRun()
    let snapshot = journal.snapshot()
    let root = try jsonObject(snapshot.journalJSON(options: .init(states: .everyEntry)))
    let entries = try #require(root["entries"] as? [[String: Any]])
    let counts = entries.map { ($0["state"] as? [String: Any])?["count"] as? Int }
    #expect(counts == snapshot.indices.map { snapshot.state(after: $0)?.count })
    let imported = try CounterJournal(
      journalJSON: snapshot.journalJSON(options: .init(states: .everyEntry)), reducer: Counter())
    #expect(imported.state(after: 8) == snapshot.state(after: 8))
  }

  @Test func aCommittedJournalExportsFromItsBaseState() throws {
    let (store, journal) = makeTracedStore(.init(checkpointInterval: 4))
    for _ in 0..<10 { store.send(.increment) }
    journal.commit(through: 6)
    let data = journal.snapshot().journalJSON()
    let root = try jsonObject(data)
    #expect((root["meta"] as? [String: Any])?["firstIndex"] as? Int == 7)
    #expect((root["baseState"] as? [String: Any])?["count"] as? Int == 7)
    let imported = try CounterJournal(journalJSON: data, reducer: Counter())
    #expect(imported.indices == 7..<10)
    #expect(imported.state(after: 9) == Counter.State(count: 10))
  }

  @Test func writingToAFileMatchesTheData() throws {
    let (store, journal) = makeTracedStore()
    for step in 0..<1_000 { store.send(.add(step)) }
    let snapshot = journal.snapshot()
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("chronicle-\(UUID()).json")
    defer { try? FileManager.default.removeItem(at: url) }
    try snapshot.writeJournalJSON(to: url)
    #expect(try Data(contentsOf: url) == snapshot.journalJSON())
    let imported = try CounterJournal(contentsOfJournalJSON: url, reducer: Counter())
    #expect(imported.state(after: 999) == store.state)
  }

  @Test func writingToAnImpossiblePathThrows() {
    let journal = CounterJournal(reducer: Counter())
    #expect(throws: JournalExportError.cannotOpen(path: "/nonexistent/dir/file.json", errno: ENOENT)) {
      try journal.snapshot().writeJournalJSON(to: URL(fileURLWithPath: "/nonexistent/dir/file.json"))
    }
  }
}
