import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing
import TracerFixtures

@testable import ChronicleTracer

@Suite struct CapsTests {
  @Test func theEntryCapCommitsTheOldestEntriesIntoTheBaseState() {
    let live = Recorder<(UInt64, Counter.State)>()
    let (store, journal) = makeTracedStore(
      .init(checkpointInterval: 10, maxEntries: 100), middleware: [liveStates(into: live)])
    for step in 1...1_000 { store.send(.add(step)) }
    let snapshot = journal.snapshot()
    #expect(snapshot.count <= 100)
    #expect(snapshot.count >= 90)
    #expect(journal.committedCount + snapshot.count == 1_000)
    #expect(snapshot.indices.upperBound == 1_000)
    let first = snapshot.indices.lowerBound
    #expect(snapshot.baseState == live.values[first - 1].1)
    for index in snapshot.indices {
      #expect(snapshot.state(after: index) == live.values[index].1)
    }
  }

  @Test func aCapBelowTheCheckpointIntervalLowersTheInterval() {
    let (store, journal) = makeTracedStore(.init(checkpointInterval: 100, maxEntries: 8))
    for _ in 0..<50 { store.send(.increment) }
    let snapshot = journal.snapshot()
    #expect(snapshot.count <= 8)
    #expect(snapshot.metadata.checkpointInterval == 2)
    #expect(snapshot.state(after: 49) == Counter.State(count: 50))
    #expect(snapshot.baseState == Counter.State(count: snapshot.indices.lowerBound))
  }

  @Test func theByteCapCountsCheckpointStates() {
    var configuration = CounterJournal.Configuration(
      checkpointInterval: 10, maxEntries: nil, maxBytes: 40_000)
    configuration.stateSize = { state in 1_000 + state.log.reduce(0) { $0 + $1.utf8.count } }
    let (store, journal) = makeTracedStore(configuration)
    for step in 0..<2_000 { store.send(.note("\(step)")) }
    let snapshot = journal.snapshot()
    #expect(journal.approximateBytes <= 40_000 + 10 * 64 + 20_000)
    #expect(journal.committedCount > 0)
    #expect(snapshot.state(after: 1_999)?.log.count == 2_000)
    #expect(snapshot.baseState?.log.count == snapshot.indices.lowerBound)
  }

  @Test func everNewContextLabelsStayWithinTheByteCap() {
    let cap = 256 << 10
    let (store, journal) = makeTracedStore(.init(checkpointInterval: 100, maxEntries: nil, maxBytes: cap))
    let padding = String(repeating: "x", count: 200)
    for step in 0..<20_000 { store.send(.increment, context: "screen \(step) \(padding)") }
    let snapshot = journal.snapshot()
    #expect(journal.approximateBytes <= cap)
    // The entries a quarter of the cap holds are kept, not committed away.
    #expect(snapshot.count >= cap / 4 / (MemoryLayout<EntryRecord<Counter.Action>>.stride + 216 + 16))
    // The table holds the labels of the remaining entries, and at most the last one besides.
    #expect(snapshot.content.strings.count <= snapshot.count + 1)
    #expect(snapshot.entries.last?.context == "screen 19999 \(padding)")
    #expect(snapshot.entries.first?.context == "screen \(snapshot.indices.lowerBound) \(padding)")
  }

  @Test func everNewContextLabelsAreFreedUnderTheEntryCap() {
    let (store, journal) = makeTracedStore(.init(checkpointInterval: 10, maxEntries: 100))
    for step in 0..<5_000 { store.send(.increment, context: "screen \(step)") }
    let snapshot = journal.snapshot()
    #expect(snapshot.content.strings.count <= snapshot.count + 1)
    #expect(snapshot.entries.map(\.context) == snapshot.indices.map { "screen \($0)" })
  }

  @Test func resettingFreesEveryLabelButTheLast() {
    let (store, journal) = makeTracedStore(.init(checkpointInterval: 10))
    for step in 0..<50 { store.send(.increment, context: "screen \(step)") }
    journal.reset()
    #expect(journal.snapshot().content.strings.count == 1)
    store.send(.increment, context: "after")
    #expect(journal.snapshot().entries.map(\.context) == ["after"])
  }

  @Test func committingThroughAnEntryMakesItsStateTheBase() {
    let (store, journal) = makeTracedStore(.init(checkpointInterval: 4))
    for _ in 0..<10 { store.send(.increment) }
    journal.commit(through: 5)
    #expect(journal.indices == 6..<10)
    #expect(journal.baseState == Counter.State(count: 6))
    #expect(journal.committedCount == 6)
    store.send(.increment)
    #expect(journal.state(after: 10) == Counter.State(count: 11))
  }

  @Test func effectEventsGoWithTheEntriesCommitted() async {
    let (store, journal) = makeTracedStore(.init(checkpointInterval: 2, maxEntries: 8))
    store.send(.load)
    await store.waitUntilIdle()
    #expect(journal.snapshot().effectEvents.count == 2)
    for _ in 0..<20 { store.send(.increment) }
    #expect(journal.snapshot().effectEvents.isEmpty)
  }

  @Test func truncatingStartsABranchThatReplaysFromTheStoresState() {
    let (store, journal) = makeTracedStore(.init(checkpointInterval: 3))
    for _ in 0..<10 { store.send(.increment) }
    let oldFuture = journal.snapshot()
    journal.truncate(from: 4)
    #expect(journal.indices == 0..<4)
    // Time travel would now show state(after: 3); here the store simply continues.
    store.send(.add(100))
    let branch = journal.snapshot()
    #expect(branch.indices == 0..<5)
    #expect(branch.checkpoints.last?.index == 4)
    #expect(branch.checkpoints.last?.kind == .resync)
    #expect(branch.state(after: 4) == Counter.State(count: 110))
    #expect(oldFuture.state(after: 9) == Counter.State(count: 10))
    journal.restore(oldFuture)
    #expect(journal.indices == 0..<10)
    #expect(journal.state(after: 9) == Counter.State(count: 10))
  }

  @Test func resetLeavesOnlyTheGivenBaseState() {
    let (store, journal) = makeTracedStore()
    for _ in 0..<5 { store.send(.increment) }
    journal.reset(to: Counter.State(count: 42))
    #expect(journal.count == 0)
    #expect(journal.baseState == Counter.State(count: 42))
    store.send(.increment)
    #expect(journal.indices == 5..<6)
    #expect(journal.state(after: 5) == Counter.State(count: 6))
  }
}
