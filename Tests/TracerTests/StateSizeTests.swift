import ChronicleStore
import Foundation
import Testing

@testable import ChronicleTracer

/// A state of 100 KB (12,800 `Int`s) of which every action changes one element: every checkpoint
/// owns a copy of the array.
private struct LargeList: Reducer {
  static let length = 12_800

  struct State: Equatable, Sendable {
    var cursor = 0
    var values = [Int](repeating: 0, count: LargeList.length)
  }

  enum Action: Equatable, Sendable { case bump }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.values[state.cursor] += 1
    state.cursor = (state.cursor + 1) % LargeList.length
    return .none
  }
}

/// A state holding 1 MiB that no action touches, and a counter.
private struct Untouched: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
    var payload = [UInt8](repeating: 7, count: 1 << 20)
  }

  enum Action: Equatable, Sendable { case increment }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

/// Strings, an array of strings and a dictionary.
private struct Document: Sendable {
  var title = String(repeating: "t", count: 100)
  var short = "short"
  var tags = (0..<10).map { String(repeating: "\($0)", count: 20) }
  var table = Dictionary(uniqueKeysWithValues: (0..<100).map { ($0, $0) })
}

@Suite struct StateSizeTests {
  @Test func theEstimateCountsLongStringsArraysOfStringsAndDictionaries() {
    let expected =
      MemoryLayout<Document>.size + 100  // the long title; "short" is stored inline
      + 10 * MemoryLayout<String>.stride + 10 * 20  // the tags' array, and each tag's bytes
      + 100 * MemoryLayout<(key: Int, value: Int)>.stride  // the table's elements
    #expect(StateSizeEstimate.bytes(of: Document()) == expected)
  }

  @Test func aStateWithoutReferencesCountsItsInlineSize() {
    #expect(StateSizeEstimate.bytes(of: (1, 2.0, true)) == MemoryLayout<(Int, Double, Bool)>.size)
  }

  @Test func theByteCapCommitsEntriesOfA100KBStateToStayWithinIt() {
    let cap = 4 << 20
    let journal = Journal(
      reducer: LargeList(), configuration: .init(checkpointInterval: 100, maxEntries: nil, maxBytes: cap))
    let store = Store(initialState: LargeList.State(), reducer: LargeList(), middleware: [.tracer(journal)])
    for _ in 0..<10_000 { store.send(.bump) }
    let snapshot = journal.snapshot()
    #expect(journal.approximateBytes <= cap)
    #expect(journal.committedCount > 0)
    #expect(journal.committedCount + snapshot.count == 10_000)
    // About 40 checkpoints of 100 KB fit in 4 MiB: 4,000 entries, not all 10,000.
    #expect(snapshot.count < 4_100)
    #expect(snapshot.count >= 3_000)
  }

  @Test func theEstimateOfA100KBStateJournalIsWithin5PercentOfItsHeapBytes() {
    let journal = Journal(
      reducer: LargeList(), configuration: .init(checkpointInterval: 100, maxEntries: nil, maxBytes: 4 << 20))
    let store = Store(initialState: LargeList.State(), reducer: LargeList(), middleware: [.tracer(journal)])
    for _ in 0..<10_000 { store.send(.bump) }
    let snapshot = journal.snapshot()
    // What the checkpoints' arrays and the entries hold on the heap: each array's capacity, and
    // its header (32 bytes); the entries' records.
    let arrays = snapshot.checkpoints.reduce(0) { $0 + 32 + $1.state.values.capacity * MemoryLayout<Int>.stride }
    let entries = snapshot.count * MemoryLayout<EntryRecord<LargeList.Action>>.stride
    let heap = Double(arrays + entries)
    let estimate = Double(journal.approximateBytes)
    #expect(estimate <= heap)
    #expect(estimate >= heap * 0.95)
  }

  @Test func anArrayNoActionTouchesIsCountedOnceForAllCheckpoints() {
    let journal = Journal(
      reducer: Untouched(), configuration: .init(checkpointInterval: 100, maxEntries: nil, maxBytes: nil))
    let store = Store(initialState: Untouched.State(), reducer: Untouched(), middleware: [.tracer(journal)])
    for _ in 0..<1_000 { store.send(.increment) }
    #expect(journal.snapshot().checkpoints.count == 10)
    // One 1 MiB buffer, shared by the ten checkpoints (and the store).
    #expect(journal.approximateBytes >= 1 << 20)
    #expect(journal.approximateBytes < (1 << 20) + (128 << 10))
  }
}
