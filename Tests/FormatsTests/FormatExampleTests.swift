import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing
import TracerFixtures

@testable import ChronicleFormats
@testable import ChronicleTracer

/// The example files of docs/formats load, so the documentation stays true.
@Suite struct FormatExampleTests {
  private func example(_ name: String) throws -> URL {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("docs/formats/\(name)")
    #expect(FileManager.default.fileExists(atPath: url.path), "\(url.path)")
    return url
  }

  /// The run every example records: `increment`, `add(5)`, `load`, then the effect's `loaded(42)`.
  private func expectTheExampleRun(_ journal: CounterJournal) {
    let snapshot = journal.snapshot()
    #expect(snapshot.entries.map(\.action) == [.increment, .add(5), .load, .loaded(42)])
    #expect(snapshot.entries.map(\.context) == Array(repeating: "CounterScreen", count: 4))
    #expect(snapshot.entry(at: 3)?.cause == Cause(kind: .effect, parent: 3, effect: 1, label: "load"))
    #expect(snapshot.state(after: 1) == Counter.State(count: 6))
    #expect(snapshot.state(after: 3) == Counter.State(count: 42))
    #expect(snapshot.entries.map(\.site?.line) == [18, 19, 20, 51])
    #expect(snapshot.entries.map(\.effectSite?.line) == [nil, nil, nil, 51])
  }

  @Test func theJournalJSONExampleLoads() throws {
    let journal = try CounterJournal(
      contentsOfJournalJSON: example("journal.example.json"), reducer: Counter())
    expectTheExampleRun(journal)
    #expect(journal.snapshot().effectEvents.map(\.phase) == [.started, .finished])
  }

  @Test func theNDJSONExampleLoads() throws {
    let result = try CounterJournal.loadNDJSON(
      contentsOf: example("journal.example.ndjson"), reducer: Counter())
    #expect(result.tornLine == nil)
    expectTheExampleRun(result.journal)
  }

  @Test func bothReduxDevToolsExamplesLoad() throws {
    for name in ["redux-devtools-custom.example.json", "redux-devtools-lifted.example.json"] {
      expectTheExampleRun(
        try CounterJournal(reduxDevTools: Data(contentsOf: example(name)), reducer: Counter()))
    }
  }

  @Test func theChromeTraceExampleHasItsSpansAndFlows() throws {
    let root = try jsonObject(Data(contentsOf: example("chrome-trace.example.json")))
    let events = try #require(root["traceEvents"] as? [[String: Any]])
    #expect(
      events.filter { $0["cat"] as? String == "action" }.compactMap { $0["name"] as? String } == [
        "increment", "add", "load", "loaded",
      ])
    #expect(events.filter { $0["cat"] as? String == "effect" }.count == 1)
    #expect(events.filter { $0["ph"] as? String == "s" }.count == 2)
    #expect(events.filter { $0["ph"] as? String == "f" }.count == 2)
  }
}
