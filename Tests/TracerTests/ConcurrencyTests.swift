import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing
import TracerFixtures

@testable import ChronicleFormats
@testable import ChronicleTracer

@Suite struct ConcurrencyTests {
  @Test func snapshotsAndExportsWhileOtherThreadsSend() async throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("chronicle-\(UUID()).ndjson")
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Counter.State, Counter.Action>(url: url)
    let (store, journal) = makeTracedStore(.init(checkpointInterval: 16, maxEntries: 400, sinks: [sink]))
    let senders = 4
    let perSender = 500
    await withTaskGroup(of: Void.self) { group in
      for sender in 0..<senders {
        group.addTask {
          for step in 0..<perSender {
            store.send(step % 10 == 0 ? .note("\(sender)-\(step)") : .increment, context: "sender \(sender)")
          }
        }
      }
      group.addTask {
        // Read while recording: each snapshot is consistent on its own.
        for round in 0..<40 {
          let snapshot = journal.snapshot()
          let sequences = snapshot.entries.map(\.sequence)
          #expect(sequences == sequences.sorted())
          if let last = snapshot.indices.last {
            let state = snapshot.state(after: last)
            #expect(state != nil)
          }
          if round % 8 == 0 {
            let data = snapshot.journalJSON()
            let copy = try? CounterJournal(journalJSON: data, reducer: Counter())
            #expect(copy?.count == snapshot.count)
            _ = snapshot.chromeTrace()
          }
        }
      }
    }
    let total = senders * perSender
    #expect(journal.committedCount + journal.count == total)
    #expect(journal.state(after: total - 1) == store.state)
    let loaded = try CounterJournal.loadNDJSON(contentsOf: url, reducer: Counter())
    #expect(loaded.journal.count == total)
    #expect(loaded.journal.state(after: total - 1) == store.state)
  }

  @Test func pausingAndCommittingFromAnotherThreadKeepTheJournalReplayable() async {
    let (store, journal) = makeTracedStore(.init(checkpointInterval: 8))
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        for _ in 0..<2_000 { store.send(.increment) }
      }
      group.addTask {
        for round in 0..<200 {
          if round % 2 == 0 { journal.pause() } else { journal.resume() }
          if round % 50 == 25 { journal.commit(through: journal.indices.lowerBound + 10) }
        }
        journal.resume()
      }
    }
    store.send(.increment)
    let snapshot = journal.snapshot()
    #expect(snapshot.state(after: snapshot.indices.last!) == store.state)
    var previous: Counter.State?
    snapshot.forEachState { entry, state in
      if let previous, snapshot.checkpoints.first(where: { $0.index == entry.index })?.kind != .resync {
        #expect(state.count == previous.count + 1)
      }
      previous = state
    }
  }
}
