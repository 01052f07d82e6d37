import ChronicleStore
import Synchronization
import Testing

@testable import ChronicleTracer

/// A feature whose actions carry payloads and whose state can grow past a journal's byte cap.
struct Blob: Reducer {
  enum Action: Sendable {
    /// Carries bytes; the state keeps none of them.
    case payload([UInt8])
    /// Appends this many bytes to the state.
    case grow(Int)
    /// Carries a label; the state keeps nothing.
    case label(String)
    /// Empties the state.
    case clear
  }

  /// Counts the reducer's calls: the store's and the journal's (its replays).
  final class Calls: Sendable {
    let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
  }

  let calls: Calls

  func reduce(into state: inout [UInt8], action: Action) -> Effect<Action> {
    calls.count.add(1, ordering: .relaxed)
    switch action {
    case .grow(let count): state.append(contentsOf: repeatElement(1, count: count))
    case .clear: state = []
    case .payload, .label: break
    }
    return .none
  }
}

typealias BlobJournal = Journal<[UInt8], Blob.Action>

/// A store tracing into a new journal configured with `configuration`, and its reducer's calls.
func makeBlobStore(
  _ configuration: BlobJournal.Configuration
) -> (Store<[UInt8], Blob.Action>, BlobJournal, Blob.Calls) {
  let calls = Blob.Calls()
  let journal = BlobJournal(reducer: Blob(calls: calls), configuration: configuration)
  let store = Store(initialState: [UInt8](), reducer: Blob(calls: calls), middleware: [.tracer(journal)])
  return (store, journal, calls)
}

extension BlobJournal.Configuration {
  /// The default configuration, counting nothing for actions.
  static var uncountedActions: Self {
    var configuration = Self()
    configuration.actionSize = { _ in 0 }
    return configuration
  }
}

/// Counts the calls of a size function.
final class SizeCalls: Sendable {
  let count = Atomic<Int>(0)
  var value: Int { count.load(ordering: .relaxed) }
}

/// An action that counts the instances of it alive.
final class LiveToken: Sendable {
  let alive: SizeCalls

  init(_ alive: SizeCalls) {
    self.alive = alive
    alive.count.add(1, ordering: .relaxed)
  }

  deinit { alive.count.subtract(1, ordering: .relaxed) }
}

/// Counts the tokens sent.
struct LiveTokens: Reducer {
  func reduce(into state: inout Int, action: LiveToken) -> Effect<LiveToken> {
    state += 1
    return .none
  }
}

@Suite struct ActionBytesCapTests {
  @Test func committedActionsAreFreedWithoutWaitingForTheRestOfTheirChunk() {
    let alive = SizeCalls()
    var configuration = Journal<Int, LiveToken>.Configuration(maxEntries: nil, maxBytes: 64 << 10)
    configuration.actionSize = { _ in 1_000 }
    let journal = Journal<Int, LiveToken>(reducer: LiveTokens(), configuration: configuration)
    let store = Store(initialState: 0, reducer: LiveTokens(), middleware: [.tracer(journal)])
    for _ in 0..<500 { store.send(LiveToken(alive)) }
    // All in the journal's first chunk (1,024 entries).
    #expect(journal.committedCount > 0)
    #expect(alive.value == journal.count)
  }

  @Test func committedActionsASnapshotSharesStayForIt() {
    let alive = SizeCalls()
    var configuration = Journal<Int, LiveToken>.Configuration(maxEntries: nil, maxBytes: 64 << 10)
    configuration.actionSize = { _ in 1_000 }
    let journal = Journal<Int, LiveToken>(reducer: LiveTokens(), configuration: configuration)
    let store = Store(initialState: 0, reducer: LiveTokens(), middleware: [.tracer(journal)])
    for _ in 0..<20 { store.send(LiveToken(alive)) }
    let snapshot = journal.snapshot()
    for _ in 0..<480 { store.send(LiveToken(alive)) }
    #expect(journal.committedCount > 20)
    #expect(snapshot.entries.count == 20)
    #expect(snapshot.entries.allSatisfy { $0.action.alive === alive })
    #expect(alive.value >= journal.count + 20)
  }

  @Test func actionsOf200KBEachStayUnderAnEightMiBCap() {
    let cap = 8 << 20
    let (store, journal, _) = makeBlobStore(.init(maxEntries: nil, maxBytes: cap))
    var largest = 0
    for step in 0..<2_000 {
      store.send(.payload([UInt8](repeating: UInt8(truncatingIfNeeded: step), count: 200_000)))
      largest = max(largest, journal.approximateBytes)
    }
    #expect(largest <= cap)
    let snapshot = journal.snapshot()
    // Honest: the payloads held are counted.
    #expect(journal.approximateBytes >= snapshot.count * 200_000)
    // Committed down to about three quarters of the cap, then filled up to it again.
    #expect(snapshot.count >= (cap * 3 / 4) / 200_000 - 1)
    #expect(snapshot.count <= cap / 200_000)
    #expect(journal.committedCount + snapshot.count == 2_000)
    #expect(snapshot.indices.upperBound == 2_000)
    #expect(snapshot.state(after: 1_999) == store.state)
    #expect(journal.byteCapOverrun == nil)
  }

  @Test func snapshotsTakenWhileCommittedActionsAreFreedReadTheirOwnActions() async {
    var configuration = BlobJournal.Configuration(checkpointInterval: 8, maxEntries: nil, maxBytes: 64 << 10)
    configuration.actionSize = { action in
      guard case .payload(let bytes) = action else { return 0 }
      return bytes.count
    }
    let (store, journal, _) = makeBlobStore(configuration)
    let wrong = SizeCalls()
    let read = SizeCalls()
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        for step in 0..<3_000 {
          store.send(.payload([UInt8](repeating: UInt8(truncatingIfNeeded: step), count: 4_000)))
        }
      }
      group.addTask {
        for _ in 0..<300 {
          let snapshot = journal.snapshot()
          for entry in snapshot.entries {
            guard case .payload(let bytes) = entry.action else { continue }
            // The store numbers actions from 1.
            let expected = UInt8(truncatingIfNeeded: entry.sequence - 1)
            read.count.add(1, ordering: .relaxed)
            if bytes.count != 4_000 || !bytes.allSatisfy({ $0 == expected }) {
              wrong.count.add(1, ordering: .relaxed)
            }
          }
        }
      }
    }
    #expect(read.value > 0)
    #expect(wrong.value == 0)
    #expect(journal.committedCount > 2_900)
  }

  @Test func committingTruncatingAndResettingForgetTheBytesOfTheActionsTheyRemove() {
    var configuration = BlobJournal.Configuration()
    configuration.actionSize = { _ in 1_000 }
    let (store, journal, _) = makeBlobStore(configuration)
    for step in 0..<10 { store.send(.label("label \(step)")) }
    #expect(journal.storage.withLock { $0.content.actionBytes.total } == 10_000)
    journal.truncate(from: 6)
    #expect(journal.storage.withLock { $0.content.actionBytes.total } == 6_000)
    journal.commit(through: 1)
    #expect(journal.storage.withLock { $0.content.actionBytes.total } == 4_000)
    journal.reset()
    #expect(journal.storage.withLock { $0.content.actionBytes.total } == 0)
  }

  @Test func aGivenActionSizeIsCountedForEveryRecordedAction() {
    let measured = SizeCalls()
    var counting = BlobJournal.Configuration()
    counting.actionSize = { _ in
      measured.count.add(1, ordering: .relaxed)
      return 1_000
    }
    let (counted, countedJournal, _) = makeBlobStore(counting)
    let (uncounted, uncountedJournal, _) = makeBlobStore(.uncountedActions)
    for step in 0..<100 {
      counted.send(.label("label \(step)"))
      uncounted.send(.label("label \(step)"))
    }
    #expect(measured.value == 100)
    let record = MemoryLayout<ActionBytes.Item>.stride
    #expect(countedJournal.approximateBytes == uncountedJournal.approximateBytes + 100 * (1_000 + record))
  }

  @Test func smallPayloadsAreWalkedOneInUpTo1024AndCountedAtTheLastWalksSize() {
    let (sampled, sampledJournal, _) = makeBlobStore(.init())
    let (uncounted, uncountedJournal, _) = makeBlobStore(.uncountedActions)
    let label = String(repeating: "x", count: 100)
    for _ in 0..<2_000 {
      sampled.send(.label(label))
      uncounted.send(.label(label))
    }
    let record = MemoryLayout<ActionBytes.Item>.stride
    #expect(sampledJournal.approximateBytes == uncountedJournal.approximateBytes + 2_000 * (100 + record))
    #expect(sampledJournal.storage.withLock { $0.actionSampler.period } == 1_024)
  }

  @Test func aLargeActionBetweenWalksGoesUncountedAndTheNextWalkedOneMakesEveryActionWalked() {
    let (store, journal, _) = makeBlobStore(.init(maxBytes: 64 << 20))
    let label = String(repeating: "x", count: 100)
    // Walked: the 1st, 3rd, 7th, ... 1023rd, then every 1,024th: the 2,047th. (Checkpoints come
    // before entries 0, 100, 200, ...: not between the readings below.)
    for _ in 0..<2_001 { store.send(.label(label)) }
    let before = journal.approximateBytes
    store.send(.payload([UInt8](repeating: 0, count: 200_000)))
    let stride = MemoryLayout<EntryRecord<Blob.Action>>.stride
    let record = MemoryLayout<ActionBytes.Item>.stride
    #expect(journal.approximateBytes == before + stride + 100 + record)
    for _ in 2_003..<2_047 { store.send(.label(label)) }
    let beforeWalked = journal.approximateBytes
    store.send(.payload([UInt8](repeating: 0, count: 200_000)))
    #expect(journal.approximateBytes == beforeWalked + stride + 200_000 + record)
    #expect(journal.storage.withLock { $0.actionSampler.period } == 1)
  }
}

@Suite struct StateOverByteCapTests {
  /// A journal with checkpoints every 4 entries and a 10,000-byte cap, whose state grows by
  /// 1,024 bytes an action, measured exactly: the checkpoint before entry 12 (12,288 bytes) is
  /// the first over the cap.
  static func growPastTheCap(
    actions: Int
  ) -> (store: Store<[UInt8], Blob.Action>, journal: BlobJournal, reductions: Blob.Calls, sizes: SizeCalls) {
    let sizes = SizeCalls()
    let configuration = BlobJournal.Configuration(
      checkpointInterval: 4, maxEntries: nil, maxBytes: 10_000,
      stateSize: { state in
        sizes.count.add(1, ordering: .relaxed)
        return state.count
      })
    let (store, journal, calls) = makeBlobStore(configuration)
    for _ in 0..<actions { store.send(.grow(1_024)) }
    return (store, journal, calls, sizes)
  }

  @Test func aStateOverTheCapIsReportedOnceWithTheFirstCheckpointOverIt() {
    let run = Self.growPastTheCap(actions: 2_000)
    #expect(run.journal.byteCapOverrun == ByteCapOverrun(index: 12, stateBytes: 12 * 1_024, maxBytes: 10_000))
  }

  @Test func pastTheCapTheJournalKeepsItsLastCheckpointAndTheEntriesAfterIt() {
    let run = Self.growPastTheCap(actions: 2_000)
    let snapshot = run.journal.snapshot()
    #expect(snapshot.indices == 1_996..<2_000)
    #expect(snapshot.checkpoints.map(\.index) == [1_996])
    #expect(snapshot.baseState?.count == 1_996 * 1_024)
    #expect(snapshot.state(after: 1_999) == run.store.state)
    #expect(run.journal.committedCount == 1_996)
    #expect(run.journal.approximateBytes > 10_000)
  }

  @Test func pastTheCapNoStateIsMeasuredOrRecomputedPerAction() {
    let run = Self.growPastTheCap(actions: 2_000)
    // One size per checkpoint (before entries 0, 4, ... 1,996), none for commits.
    #expect(run.sizes.value == 500)
    // The store's reducer calls only: committing recomputed no state.
    #expect(run.reductions.value == 2_000)
  }

  @Test func onceTheStateIsBackUnderTheCapTheJournalKeepsItsEntriesAgain() {
    let run = Self.growPastTheCap(actions: 100)
    run.store.send(.clear)
    for step in 0..<40 { run.store.send(.label("after \(step)")) }
    // The checkpoint before entry 104 holds the emptied state: committing up to it meets the cap.
    #expect(run.journal.indices == 104..<141)
    #expect(run.journal.approximateBytes <= 10_000)
    #expect(run.journal.byteCapOverrun?.index == 12)
  }

  @Test func withTheJournalsOwnEstimateNoStateIsRecomputedPastTheCap() {
    let (store, journal, calls) = makeBlobStore(
      .init(checkpointInterval: 4, maxEntries: nil, maxBytes: 10_000))
    for _ in 0..<2_000 { store.send(.grow(1_024)) }
    #expect(calls.value == 2_000)
    #expect(journal.indices == 1_996..<2_000)
    #expect(journal.byteCapOverrun?.index == 12)
  }
}
