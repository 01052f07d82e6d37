import ChronicleStore
import ChronicleTestSupport
import Testing
import TracerFixtures

@testable import ChronicleTracer

/// How a journal stores call sites: a 4-byte code per entry into a table of the distinct pairs.
@Suite struct SiteStorageTests {
  @Test func anEntryStaysSixtyFourBytesWithItsSiteCode() {
    #expect(MemoryLayout<EntryRecord<UInt8>>.stride == 64)
  }

  @Test func entriesFromTwoLinesKeepTwoSites() {
    let journal = CounterJournal(reducer: Counter(), configuration: .init(maxEntries: nil, maxBytes: nil))
    let store = CounterStore(
      initialState: Counter.State(), reducer: Counter(), middleware: [.tracer(journal)])
    for _ in 0..<50_000 {
      store.send(.increment)
      store.send(.increment)
    }
    let snapshot = journal.snapshot()
    #expect(snapshot.count == 100_000)
    var codes = Set<UInt32>()
    snapshot.content.entries.forEach(in: snapshot.indices) { codes.insert($0.site) }
    #expect(codes.count == 2)
    #expect(snapshot.content.sites.pairs.count == 2)
  }
}
