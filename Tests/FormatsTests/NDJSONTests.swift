import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing
import TracerFixtures

@testable import ChronicleFormats
@testable import ChronicleTracer

@Suite struct NDJSONTests {
  private func temporaryFile() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("chronicle-\(UUID()).ndjson")
  }

  private func lines(_ url: URL) throws -> [[String: Any]] {
    try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { line in
      try jsonObject(Data(line.utf8))
    }
  }

  @Test func theSinkWritesAHeaderThenOneLinePerEntryAndEvent() async throws {
    let url = temporaryFile()
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Counter.State, Counter.Action>(url: url)
    let (store, _) = makeTracedStore(.init(checkpointInterval: 2, sinks: [sink]))
    store.send(.increment, context: "Screen")
    store.send(.load)
    await store.waitUntilIdle()
    store.send(.add(3))
    let records = try lines(url)
    #expect(sink.linesWritten == records.count)
    #expect(records.count == 7)
    let header = records[0]
    #expect(Set(header.keys) == ["format", "version", "meta"])
    #expect(header["format"] as? String == "chronicle.journal.ndjson")
    #expect(header["version"] as? Int == 1)
    let meta = try #require(header["meta"] as? [String: Any])
    #expect(Set(meta.keys) == ["state", "action", "origin", "checkpointInterval"])
    #expect((meta["state"] as? [String: Any])?["shape"] as? String == "count: Int, log: Array<String>")
    // The effect starts while `.load` is reduced, before the tracer writes `.load`'s entry.
    #expect(
      records.dropFirst().map { $0.keys.sorted() } == [
        ["entry"], ["effect"], ["entry"], ["entry"], ["effect"], ["entry"],
      ])
    let entries = records.compactMap { $0["entry"] as? [String: Any] }
    #expect(entries.map { $0["seq"] as? Int } == [1, 2, 3, 4])
    #expect(entries.map { $0["index"] as? Int } == [0, 1, 2, 3])
    #expect(entries.map { $0["checkpoint"] != nil } == [true, false, true, false])
    #expect(((entries[0]["checkpoint"] as? [String: Any])?["kind"]) as? String == "resync")
    #expect(entries[0]["context"] as? String == "Screen")
    let effects = records.compactMap { $0["effect"] as? [String: Any] }
    #expect(effects.map { $0["phase"] as? String } == ["started", "finished"])
  }

  @Test func aStreamRoundTripsThroughTheLoader() async throws {
    let url = temporaryFile()
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Counter.State, Counter.Action>(url: url)
    let (store, journal) = makeTracedStore(.init(checkpointInterval: 3, sinks: [sink]))
    store.send(.note("é🎉\n"))
    store.send(.load)
    await store.waitUntilIdle()
    for step in 0..<20 { store.send(.add(step)) }
    let result = try CounterJournal.loadNDJSON(contentsOf: url, reducer: Counter())
    #expect(result.tornLine == nil)
    let (loaded, recorded) = (result.journal.snapshot(), journal.snapshot())
    #expect(loaded.indices == recorded.indices)
    for index in recorded.indices {
      #expect(loaded.entry(at: index)?.action == recorded.entry(at: index)?.action)
      #expect(loaded.entry(at: index)?.cause == recorded.entry(at: index)?.cause)
      #expect(loaded.entry(at: index)?.time == recorded.entry(at: index)?.time)
      #expect(loaded.state(after: index) == recorded.state(after: index))
    }
    #expect(Array(loaded.effectEvents) == Array(recorded.effectEvents))
    #expect(loaded.checkpoints.map(\.index) == recorded.checkpoints.map(\.index))
  }

  @Test func theStreamKeepsEverythingWhileTheJournalStaysBounded() throws {
    let url = temporaryFile()
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Counter.State, Counter.Action>(url: url)
    let (store, journal) = makeTracedStore(.init(checkpointInterval: 10, maxEntries: 20, sinks: [sink]))
    for _ in 0..<2_000 { store.send(.increment) }
    #expect(journal.count <= 20)
    #expect(sink.linesWritten == 2_001)
    let loaded = try CounterJournal.loadNDJSON(contentsOf: url, reducer: Counter()).journal
    #expect(loaded.indices == 0..<2_000)
    #expect(loaded.state(after: 1_999) == Counter.State(count: 2_000))
  }

  @Test func aStreamAfterAPauseCarriesTheResyncCheckpoint() throws {
    let url = temporaryFile()
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Counter.State, Counter.Action>(url: url)
    let (store, journal) = makeTracedStore(.init(sinks: [sink]))
    store.send(.increment)
    journal.pause()
    store.send(.add(100))
    journal.resume()
    store.send(.increment)
    let loaded = try CounterJournal.loadNDJSON(contentsOf: url, reducer: Counter()).journal
    #expect(loaded.state(after: 1) == Counter.State(count: 102))
  }

  @Test func aStreamOfATruncatedJournalLoadsTheNewBranch() throws {
    let url = temporaryFile()
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Counter.State, Counter.Action>(url: url)
    let (store, journal) = makeTracedStore(.init(checkpointInterval: 3, sinks: [sink]))
    for _ in 0..<6 { store.send(.increment) }
    journal.truncate(from: 2)
    store.send(.add(100))
    store.send(.increment)
    let loaded = try CounterJournal.loadNDJSON(contentsOf: url, reducer: Counter()).journal.snapshot()
    #expect(loaded.indices == 0..<4)
    #expect(loaded.entries.map(\.sequence) == [1, 2, 7, 8])
    #expect(loaded.state(after: 1) == Counter.State(count: 2))
    #expect(loaded.state(after: 3) == Counter.State(count: 107))
    #expect(loaded.state(after: 3) == journal.state(after: 3))
  }

  @Test func aFileWithOnlyATornHeaderLoadsEmpty() throws {
    let result = try CounterJournal.loadNDJSON(Data(#"{"format":"chronicle.jour"#.utf8), reducer: Counter())
    #expect(result.journal.count == 0)
    #expect(result.tornLine == TornLine(lineNumber: 1, byteOffset: 0, byteCount: 25))
  }

  @Test func aCorruptLineBeforeTheLastIsAnError() throws {
    let url = temporaryFile()
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Counter.State, Counter.Action>(url: url)
    let (store, _) = makeTracedStore(.init(sinks: [sink]))
    for _ in 0..<3 { store.send(.increment) }
    var text = try String(contentsOf: url, encoding: .utf8)
    text = text.replacingOccurrences(of: #""seq":2,"#, with: #""seq":"two","#)
    #expect(
      throws: JournalImportError.wrongType(
        entry: 1, field: "entries[1].seq", expected: "integer", found: "string")
    ) {
      try CounterJournal.loadNDJSON(Data(text.utf8), reducer: Counter())
    }
  }

  @Test func aSinkThatCannotOpenItsFileThrows() {
    #expect(throws: JournalExportError.cannotOpen(path: "/nonexistent/x.ndjson", errno: ENOENT)) {
      try NDJSONFileSink<Counter.State, Counter.Action>(url: URL(fileURLWithPath: "/nonexistent/x.ndjson"))
    }
  }
}
