import ChronicleStore
import ChronicleTestSupport
import Testing
import TracerFixtures

@testable import ChronicleTracer

/// The package-level reads that replay and time travel walk a snapshot with.
@Suite struct ReplayAccessTests {
  /// A journal of `.add(n)` for n in 1...40, every fifth replaced by `.note("n")`, which a
  /// middleware stops; 16 entries kept in chunks of 16, so the kept ones start mid-chunk.
  func recordWithStops() -> CounterJournal {
    let stopNotes = AnyMiddleware<Counter.State, Counter.Action>(name: "stopNotes") { action, _, next in
      if case .note = action { return }
      next(action)
    }
    let (store, journal) = makeTracedStore(
      .init(checkpointInterval: 4, maxEntries: 16), middleware: [stopNotes])
    for number in 1...40 { store.send(number % 5 == 0 ? .note("\(number)") : .add(number)) }
    return journal
  }

  /// What the entry at `index` of `recordWithStops()` holds: the action, whether it was reduced.
  func expected(at index: Int) -> (Counter.Action, Bool) {
    let number = index + 1
    return number % 5 == 0 ? (.note("\(number)"), false) : (.add(number), true)
  }

  @Test func forEachActionHandsOutEachActionAndWhetherItWasReducedInOrder() throws {
    let snapshot = recordWithStops().snapshot()
    let indices = snapshot.indices
    // Committed through entry 23: the entries start in the middle of the second chunk.
    #expect(indices == 24..<40)
    var seen: [(Counter.Action, Bool)] = []
    snapshot.forEachAction(in: indices) { seen.append(($0, $1)) }
    let recorded = indices.map { expected(at: $0) }
    #expect(seen.map(\.0) == recorded.map(\.0))
    #expect(seen.map(\.1) == recorded.map(\.1))
    #expect(seen.map(\.0) == snapshot.entries.map(\.action))
    #expect(seen.map(\.1) == snapshot.entries.map { $0.outcome == .reduced })
  }

  @Test func forEachActionWalksASubrangeAcrossAChunkBoundary() {
    let snapshot = recordWithStops().snapshot()
    var seen: [Counter.Action] = []
    var reduced: [Bool] = []
    snapshot.forEachAction(in: 30..<35) {
      seen.append($0)
      reduced.append($1)
    }
    #expect(seen == [.add(31), .add(32), .add(33), .add(34), .note("35")])
    #expect(reduced == [true, true, true, true, false])
  }

  @Test func forEachActionOverAnEmptyRangeCallsNothing() {
    let snapshot = recordWithStops().snapshot()
    var calls = 0
    snapshot.forEachAction(in: 33..<33) { _, _ in calls += 1 }
    snapshot.forEachAction(in: snapshot.indices.upperBound..<snapshot.indices.upperBound) { _, _ in calls += 1
    }
    #expect(calls == 0)
  }

  @Test func checkpointSliceHoldsTheCheckpointsInOrder() {
    let snapshot = recordWithStops().snapshot()
    let slice = snapshot.checkpointSlice
    // Entries 0...23 were committed: the base state is the checkpoint at 24.
    #expect(slice.map(\.index) == [24, 28, 32, 36])
    #expect(slice.allSatisfy { $0.kind == .interval })
    // The sums of 1...24, 1...28, … without the multiples of 5 (stopped).
    #expect(slice.map(\.state.count) == [250, 331, 423, 526])
    #expect(slice.map(\.index) == snapshot.checkpoints.map(\.index))
    #expect(slice.first?.state == snapshot.baseState)
  }
}
