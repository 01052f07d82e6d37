import ChronicleStore
import Foundation
import Synchronization
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

/// A state holding 1 MiB that `replace` swaps for a new buffer.
private struct Payloads: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
    var payload = [UInt8](repeating: 0, count: 1 << 20)
  }

  enum Action: Equatable, Sendable { case increment, replace }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += 1
    case .replace: state.payload = [UInt8](repeating: 1, count: 1 << 20)
    }
    return .none
  }
}

/// A state holding a dictionary of 10,000 entries that no action touches, and a counter.
private struct Table: Reducer {
  static let size = 10_000

  struct State: Equatable, Sendable {
    var count = 0
    var table = Dictionary(uniqueKeysWithValues: (0..<Table.size).map { ($0, $0) })
  }

  enum Action: Equatable, Sendable { case increment }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

/// Counts the tokens released.
private final class Releases: Sendable {
  let count = Atomic<Int>(0)
}

/// An object a state holds, which counts its release.
private final class Token: Sendable {
  let releases: Releases
  init(_ releases: Releases) { self.releases = releases }
  deinit { releases.count.add(1, ordering: .relaxed) }
}

/// A state that every action gives a new token.
private struct Renewing: Reducer {
  let releases: Releases

  struct State: Sendable { var token: Token }
  enum Action: Equatable, Sendable { case renew }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.token = Token(releases)
    return .none
  }
}

/// A list of notes that every action adds to: a state of many values to walk, growing.
private struct Notebook: Reducer {
  struct Note: Equatable, Sendable {
    var title = String(repeating: "t", count: 40)
    var body = String(repeating: "b", count: 200)
  }

  struct State: Equatable, Sendable { var notes = [Note](repeating: Note(), count: 8) }
  enum Action: Equatable, Sendable { case add }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.notes.append(Note())
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
    let arrays = snapshot.checkpoints.reduce(0) {
      $0 + 32 + $1.state.values.capacity * MemoryLayout<Int>.stride
    }
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

  @Test func aBufferSharedWithCommittedCheckpointsIsCountedByTheFirstOneLeft() {
    let journal = Journal(
      reducer: Untouched(), configuration: .init(checkpointInterval: 100, maxEntries: 400, maxBytes: nil))
    let store = Store(initialState: Untouched.State(), reducer: Untouched(), middleware: [.tracer(journal)])
    for _ in 0..<1_000 { store.send(.increment) }
    #expect(journal.committedCount == 600)
    // The 1 MiB buffer is still held by the checkpoints left.
    #expect(journal.approximateBytes >= 1 << 20)
    #expect(journal.approximateBytes < (1 << 20) + (128 << 10))
  }

  @Test func aBufferOfATruncatedCheckpointIsCountedWhenTheStoreRecordsItAgain() {
    let journal = Journal(
      reducer: Payloads(), configuration: .init(checkpointInterval: 100, maxEntries: nil, maxBytes: nil))
    let store = Store(initialState: Payloads.State(), reducer: Payloads(), middleware: [.tracer(journal)])
    for _ in 0..<99 { store.send(.increment) }
    store.send(.replace)
    for _ in 0..<50 { store.send(.increment) }
    // The checkpoint before entry 100, the only one holding the second buffer, goes; the store
    // still holds that buffer, and the next entry's checkpoint keeps it again.
    journal.truncate(from: 50)
    store.send(.increment)
    #expect(journal.snapshot().checkpoints.map(\.index) == [0, 50])
    #expect(journal.approximateBytes >= 2 << 20)
    #expect(journal.approximateBytes < (2 << 20) + (128 << 10))
  }

  @Test func aDictionaryNoActionTouchesIsCountedOnceForAllCheckpoints() {
    let journal = Journal(
      reducer: Table(), configuration: .init(checkpointInterval: 100, maxEntries: nil, maxBytes: nil))
    let store = Store(initialState: Table.State(), reducer: Table(), middleware: [.tracer(journal)])
    for _ in 0..<1_000 { store.send(.increment) }
    let tableBytes = Table.size * MemoryLayout<(key: Int, value: Int)>.stride
    #expect(journal.snapshot().checkpoints.count == 10)
    #expect(journal.approximateBytes >= tableBytes)
    #expect(journal.approximateBytes < tableBytes + (128 << 10))
  }

  @Test func theGivenStateSizeIsCountedForEveryCheckpoint() {
    func approximateBytes(stateSize: Int) -> Int {
      let journal = Journal(
        reducer: LargeList(),
        configuration: .init(
          checkpointInterval: 100, maxEntries: nil, maxBytes: nil, stateSize: { _ in stateSize }))
      let store = Store(initialState: LargeList.State(), reducer: LargeList(), middleware: [.tracer(journal)])
      for _ in 0..<1_000 { store.send(.bump) }
      return journal.approximateBytes
    }
    #expect(approximateBytes(stateSize: 1_000) - approximateBytes(stateSize: 0) == 10 * 1_000)
  }

  @Test func committedCheckpointsReleaseTheirStates() {
    let releases = Releases()
    let reducer = Renewing(releases: releases)
    let journal = Journal(
      reducer: reducer, configuration: .init(checkpointInterval: 10, maxEntries: 40, maxBytes: nil))
    let store = Store(
      initialState: Renewing.State(token: Token(releases)), reducer: reducer, middleware: [.tracer(journal)])
    for _ in 0..<1_000 { store.send(.renew) }
    let alive = 1_001 - releases.count.load(ordering: .relaxed)
    // The store's token, and one per checkpoint kept: none held by a committed one.
    #expect(alive == journal.snapshot().checkpoints.count + 1)
  }

  @Test func aCostlyWalksSizeIsCountedForTheNextCheckpointsInsteadOfWalkingThem() {
    let journal = Journal(
      reducer: Notebook(), configuration: .init(checkpointInterval: 10, maxEntries: nil, maxBytes: nil))
    let store = Store(initialState: Notebook.State(), reducer: Notebook(), middleware: [.tracer(journal)])
    for _ in 0..<150 { store.send(.add) }
    let sizes = journal.storage.withLock { Array($0.content.checkpoints.sizes) }
    // A walk looks into 26 values (the state, its array, 8 sampled notes and their 2 strings
    // each): the 6 checkpoints after it count its size. The first one counts everything, and is
    // not reused.
    #expect(sizes.count == 15)
    #expect(sizes[2...7] == ArraySlice(repeating: sizes[1], count: 6))
    #expect(sizes[8] > sizes[1])
    #expect(sizes[9...14] == ArraySlice(repeating: sizes[8], count: 6))
  }
}
