import ChronicleFormats
import ChronicleStore
import ChronicleTesting
import ChronicleTimeTravel
import Foundation
import Testing

/// Examples/ReplayInTests: a journal recorded by the Tracer's exporter, committed to the
/// repository, replayed by a test — the regression test of a recorded run.
@Suite struct ExampleReplayTests {
  static let journalURL = URL(fileURLWithPath: "\(#filePath)")
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Examples/ReplayInTests/tally.journal.json")

  @Test func theCommittedJournalReplays() throws {
    let report = try #require(assertReplay(journal: Self.journalURL, reducer: Tally()))
    // Entries 4...11 (0...3 were committed): the state after each, and 3 interval checkpoints.
    #expect(report.replayedEntries == 8)
    #expect(report.verifiedStates == 11)
  }

  @Test func theCommittedJournalCatchesARegression() throws {
    let report = try Replay.verify(journalJSON: Self.journalURL, reducer: BrokenTally())
    let divergence = try #require(report.divergence)
    #expect(divergence.action == .add(3))
    #expect(divergence.index == 5)
    #expect(divergence.diff == "count: 21 → 22")
  }

  /// Rewrites the example's journal: `CHRONICLE_RECORD_EXAMPLES=1 swift test --filter recordTheExampleJournal`.
  /// Twelve actions with room for eight entries: the first ones are committed into the base
  /// state, which replay starts from.
  @Test(.enabled(if: ProcessInfo.processInfo.environment["CHRONICLE_RECORD_EXAMPLES"] == "1"))
  func recordTheExampleJournal() throws {
    let journal = TallyJournal(reducer: Tally(), configuration: .init(checkpointInterval: 4, maxEntries: 8))
    let store = TallyStore(initialState: Tally.State(), reducer: Tally(), middleware: [.tracer(journal)])
    for amount in [5, 1, 4, 2, 6, 3, 1, 2, 3, 2, 3, 1] { store.send(.add(amount), context: "Example") }
    try journal.snapshot().writeJournalJSON(to: Self.journalURL, options: ExportOptions(states: .everyEntry))
  }
}
