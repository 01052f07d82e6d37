// Time travel and replay (issue 5): jumping to a random entry of a 1,000,000-entry counter journal
// on a live store, verifying that journal by replay, and the memory a journal of 1,000,000 actions
// takes when the state holds 1 MB.
//
// Jump and replay read a journal recorded once per process (a lazily built global, first touched
// before `startMeasurement()`), so their iterations measure the jumps and the replays only. The
// harness runs each benchmark in a process of its own, so `peakMemoryResident` is the memory
// scenario's own.

import Benchmark
import ChronicleStore
import ChronicleTimeTravel
import ChronicleTracer
import Foundation
import Synchronization

/// The number of entries in the journals jumped through, replayed and measured.
let journalLength = 1_000_000

/// SplitMix64: a seeded generator, so every run jumps to the same entries.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// A live counter store with time travel and a tracer, after `journalLength` increments.
struct CounterHistory: Sendable {
  let store: Store<Counter.State, Counter.Action>
  let journal: Journal<Counter.State, Counter.Action>
  let travel: TimeTravel<Counter.State, Counter.Action>

  init() {
    // The default checkpoint interval (100); no caps, which would otherwise commit all but the
    // last 100,000 entries.
    let configuration = Journal<Counter.State, Counter.Action>.Configuration(maxEntries: nil, maxBytes: nil)
    journal = Journal(reducer: Counter(), configuration: configuration)
    travel = TimeTravel(journal: journal)
    store = Store(
      initialState: Counter.State(), reducer: Counter(), middleware: [.timeTravel(travel), .tracer(journal)])
    travel.attach(store)
    for _ in 0..<journalLength {
      store.send(.increment)
    }
    precondition(journal.count == journalLength, "the journal holds \(journal.count) entries")
    precondition(journal.snapshot().checkpoint(atOrBefore: journalLength)?.index == journalLength - 100)
  }
}

/// Built on first use, in each benchmark process that reads it.
let counterHistory = CounterHistory()

/// A feature whose state holds 1 MiB that no action touches: checkpoints share it (copy on write).
struct LargeCounter: Reducer {
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

/// What the memory scenario's last journal held, printed by its teardown: the harness silences
/// output while it runs a benchmark, and its histograms would round the counts.
let holdings = Mutex<String?>(nil)

/// Prints `holdings` to stderr, for run.sh.
@Sendable func printHoldings() {
  guard let line = holdings.withLock({ $0 }) else { return }
  FileHandle.standardError.write(Data((line + "\n").utf8))
}

func registerTimeTravelBenchmarks() {
  // 1,000 jumps per iteration (the default scaling factor): run.sh reports ns per jump.
  Benchmark("timetravel/jump") { benchmark in
    let travel = counterHistory.travel
    var generator = SplitMix64(state: 5)
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      travel.jump(to: Int.random(in: 0..<journalLength, using: &generator))
    }
    benchmark.stopMeasurement()
    precondition(travel.isInPast)
  }

  // One replay of the whole journal per iteration: run.sh reports ns per replayed action.
  Benchmark(
    "replay/verify",
    configuration: .init(
      warmupIterations: 3, scalingFactor: .one, maxDuration: .seconds(5), maxIterations: 200)
  ) { benchmark in
    let snapshot = counterHistory.journal.snapshot()
    benchmark.startMeasurement()
    let report = Replay.verify(snapshot, reducer: Counter())
    benchmark.stopMeasurement()
    precondition(report.succeeded && report.replayedEntries == journalLength)
    precondition(report.verifiedStates == journalLength / 100 - 1)
  }

  // Three recordings, each one iteration; the peak is the harness's sample of the whole process.
  let memoryConfiguration = Benchmark.Configuration(
    metrics: [.wallClock, .throughput, .peakMemoryResident],
    warmupIterations: 0, scalingFactor: .one, maxDuration: .seconds(10), maxIterations: 3)

  // One whole recording per iteration, under the default configuration: checkpoints every 100
  // entries, at most 100,000 entries and 64 MiB. What the journal kept is printed by the teardown.
  Benchmark("journal/memory-1MB-state", configuration: memoryConfiguration) { benchmark in
    recordLargeJournal(benchmark, configuration: .init())
  } teardown: {
    printHoldings()
  }

  // The same without the entry cap (the byte cap stays): all 1,000,000 entries are kept.
  Benchmark("journal/memory-1MB-state-uncapped", configuration: memoryConfiguration) { benchmark in
    recordLargeJournal(benchmark, configuration: .init(maxEntries: nil))
  } teardown: {
    printHoldings()
  }
}

/// Records `journalLength` actions of `LargeCounter` into a journal with `configuration` and
/// reports what it holds.
func recordLargeJournal(
  _ benchmark: Benchmark, configuration: Journal<LargeCounter.State, LargeCounter.Action>.Configuration
) {
  benchmark.startMeasurement()
  let journal = Journal(reducer: LargeCounter(), configuration: configuration)
  let store = Store(
    initialState: LargeCounter.State(), reducer: LargeCounter(), middleware: [.tracer(journal)])
  for _ in 0..<journalLength {
    store.send(.increment)
  }
  benchmark.stopMeasurement()
  precondition(store.state.count == journalLength)
  precondition(journal.count + journal.committedCount == journalLength)
  let line =
    "chronicle-journal: \(benchmark.name) holds \(journal.count) entries, \(journal.committedCount) committed, "
    + "approximateBytes \(journal.approximateBytes)"
  holdings.withLock { $0 = line }
}
