import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing
import TracerFixtures

@testable import ChronicleTracer

@Suite struct RecordingTests {
  @Test func recordsEveryActionWithSequenceContextAndCause() {
    let (store, journal) = makeTracedStore()
    store.send(.increment)
    store.send(.add(5), context: "CounterScreen")
    store.send(.chain(remaining: 1))
    let snapshot = journal.snapshot()
    #expect(snapshot.indices == 0..<4)
    let entries = Array(snapshot.entries)
    #expect(entries.map(\.sequence) == [1, 2, 3, 4])
    #expect(entries.map(\.action) == [.increment, .add(5), .chain(remaining: 1), .chain(remaining: 0)])
    #expect(entries.map(\.context) == [nil, "CounterScreen", nil, nil])
    #expect(entries[0].cause == .user)
    #expect(entries[3].cause == Cause(kind: .effect, parent: 3))
    #expect(entries.allSatisfy { $0.outcome == .reduced && $0.reducerDuration != nil })
    #expect(snapshot.state(after: 3) == Counter.State(count: 8))
    #expect(snapshot.baseState == Counter.State())
  }

  @Test func everyStateIsRecomputedFromCheckpoints() {
    let live = Recorder<(UInt64, Counter.State)>()
    let (store, journal) = makeTracedStore(.init(checkpointInterval: 7), middleware: [liveStates(into: live)])
    for step in 0..<100 {
      store.send(step % 3 == 0 ? .note("n\(step)") : .add(step))
    }
    let snapshot = journal.snapshot()
    #expect(snapshot.checkpoints.map(\.index) == Array(stride(from: 0, to: 100, by: 7)))
    #expect(snapshot.checkpoint(atOrBefore: 50)?.index == 49)
    #expect(snapshot.checkpoint(atOrBefore: 49)?.index == 49)
    #expect(snapshot.checkpoint(atOrBefore: -1) == nil)
    for (index, (sequence, state)) in live.values.enumerated() {
      #expect(snapshot.entry(at: index)?.sequence == sequence)
      #expect(snapshot.state(after: index) == state)
    }
    var replayed: [Counter.State] = []
    snapshot.forEachState { _, state in replayed.append(state) }
    #expect(replayed == live.values.map(\.1))
  }
}

/// An action of one byte, for the memory test.
private enum Tap: Sendable, Equatable {
  case left, right
}

/// A buffer with value semantics that counts the copies its writes force.
private final class CountingStorage: @unchecked Sendable {
  // `@unchecked Sendable`: mutated only through `CopyCountingArray`'s copy-on-write, by the one
  // store that owns it, under the store's lock.
  var elements: [Int]
  init(_ elements: [Int]) { self.elements = elements }
}

private let copies = Recorder<Int>()

private struct CopyCountingArray: Sendable, Equatable {
  private var storage: CountingStorage

  init(count: Int) { storage = CountingStorage(Array(repeating: 0, count: count)) }

  var elements: [Int] { storage.elements }

  mutating func increment(at index: Int) {
    if !isKnownUniquelyReferenced(&storage) {
      copies.append(storage.elements.count)
      storage = CountingStorage(storage.elements)
    }
    storage.elements[index] += 1
  }

  static func == (lhs: Self, rhs: Self) -> Bool { lhs.elements == rhs.elements }
}

@Suite(.serialized) struct RecordingDetailTests {
  @Test func anActionStoppedAfterTheTracerIsRecordedAsStopped() {
    let stopTaps = AnyMiddleware<Counter.State, Counter.Action>(name: "stopNotes") { action, _, next in
      if case .note = action { return }
      next(action)
    }
    let (store, journal) = makeTracedStore(middleware: [stopTaps])
    store.send(.increment)
    store.send(.note("dropped"))
    store.send(.increment)
    let snapshot = journal.snapshot()
    #expect(snapshot.entries.map(\.outcome) == [.reduced, .stopped, .reduced])
    #expect(snapshot.entry(at: 1)?.reducerDuration == nil)
    #expect(snapshot.state(after: 1) == Counter.State(count: 1))
    #expect(snapshot.state(after: 2) == Counter.State(count: 2))
  }

  @Test func theProbeRecordsTheActionTheReducerSaw() {
    let double = AnyMiddleware<Counter.State, Counter.Action>(name: "double") { action, _, next in
      if case .add(let amount) = action { next(.add(amount * 2)) } else { next(action) }
    }
    let (store, journal) = makeTracedStore(middleware: [double])
    store.send(.add(3))
    #expect(journal.entry(at: 0)?.action == .add(6))
    #expect(journal.state(after: 0) == Counter.State(count: 6))
  }

  @Test func withoutAProbeEveryActionIsAssumedToReachTheReducer() {
    let (store, journal) = makeTracedStore(probe: false)
    store.send(.increment)
    let entry = journal.entry(at: 0)
    #expect(entry?.outcome == .reduced)
    #expect(entry?.reducerDuration == nil && entry?.reducerOffset == nil)
    #expect(entry?.chainDuration ?? .zero > .zero)
  }

  @Test func timesAreMonotonicAndTheReducerFitsInTheChain() {
    let (store, journal) = makeTracedStore()
    let before = Date()
    for _ in 0..<50 { store.send(.increment) }
    let after = Date()
    let entries = Array(journal.snapshot().entries)
    for (previous, next) in zip(entries, entries.dropFirst()) {
      #expect(previous.time <= next.time)
      #expect(previous.time + previous.chainDuration <= next.time)
    }
    for entry in entries {
      #expect(
        entry.wallTime >= before.addingTimeInterval(-0.001)
          && entry.wallTime <= after.addingTimeInterval(0.001))
      #expect(entry.reducerOffset! + entry.reducerDuration! <= entry.chainDuration)
      // One clock read per action: the wall time is the origin plus the monotonic time.
      let derived = journal.metadata.origin.addingTimeInterval(
        Double(entry.time.components.seconds) + Double(entry.time.components.attoseconds) / 1e18)
      #expect(abs(entry.wallTime.timeIntervalSince(derived)) < 1e-6)
    }
    for (previous, next) in zip(entries, entries.dropFirst()) {
      #expect(previous.wallTime <= next.wallTime)
    }
  }

  @Test func aTrivialEntryTakesAtMost64Bytes() {
    #expect(MemoryLayout<EntryRecord<Tap>>.stride <= 64)
    let journal = Journal<Int, Tap>(configuration: .init(maxEntries: nil, maxBytes: nil)) { state, action in
      state += action == .left ? -1 : 1
      return .none
    }
    let store = Store<Int, Tap>(initialState: 0, middleware: [.tracer(journal), .tracerProbe(journal)]) {
      state, action in
      state += action == .left ? -1 : 1
      return .none
    }
    store.send(.left)
    let snapshot = journal.snapshot()
    let start = snapshot.approximateBytes - snapshot.content.checkpoints.byteCount
    for index in 0..<10_000 { store.send(index % 2 == 0 ? .right : .left) }
    let end = journal.snapshot()
    let perEntry = Double(end.approximateBytes - end.content.checkpoints.byteCount - start) / 10_000
    #expect(perEntry <= 64)
    // The chunks hold exactly the entries counted: 64-byte slots, nothing per entry on the heap.
    #expect(
      end.content.entries.chunks.allSatisfy {
        $0.capacity * MemoryLayout<EntryRecord<Tap>>.stride == 64 * 1024
      })
  }

  @Test func recordingALargeStateDoesNotCopyItOnEveryAction() {
    struct Big: Sendable, Equatable { var values = CopyCountingArray(count: 10_000) }
    let reducer: @Sendable (inout Big, Int) -> Effect<Int> = { state, index in
      state.values.increment(at: index % 10_000)
      return .none
    }
    let journal = Journal<Big, Int>(configuration: .init(checkpointInterval: 100), reduce: reducer)
    let store = Store<Big, Int>(initialState: Big(), middleware: [.tracer(journal)], reduce: reducer)
    let copiesBefore = copies.count
    for index in 0..<1_000 { store.send(index) }
    let forced = copies.count - copiesBefore
    // One copy per checkpoint (every 100 actions), the first one included: not one per action.
    #expect(forced <= 11)
    #expect(journal.state(after: 999)?.values.elements.reduce(0, +) == 1_000)
    #expect(journal.state(after: 999) == store.state)
  }
}
