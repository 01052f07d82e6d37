// What users run, not only the best case (issue 13): the time-travel setup the README recommends,
// the tracer and a minimal recording middleware on journals that keep growing across iterations
// (not a fresh 1,000-entry journal per iteration), a 100 KB state with one element changed per
// action, and the replay inside `jump`/`undo` per replayed step, next to `replay/verify`.
//
// The growing scenarios keep one store per benchmark process (a lazily built global: the harness
// runs each benchmark in a process of its own and calls its closure once per iteration), so a
// journal under its default configuration fills up to its 100,000-entry cap during warm-up and
// then commits its oldest entries as it records: the steady state of a long session.

import Benchmark
import ChronicleStore
import ChronicleTimeTravel
import ChronicleTracer
import Foundation
import Synchronization

// MARK: - Growing journals

/// The README's time-travel setup on a counter, default journal configuration.
struct RecommendedSetup: Sendable {
  let store: Store<Counter.State, Counter.Action>
  let journal: Journal<Counter.State, Counter.Action>
  let travel: TimeTravel<Counter.State, Counter.Action>

  init() {
    journal = Journal(reducer: Counter())
    travel = TimeTravel(journal: journal, policy: .locked)
    store = Store(
      initialState: Counter.State(), reducer: Counter(), middleware: [.timeTravel(travel), .tracer(journal)])
    travel.attach(store)
  }
}

let recommendedSetup = RecommendedSetup()

/// The tracer alone on a counter, default journal configuration.
struct TracedCounter: Sendable {
  let store: Store<Counter.State, Counter.Action>
  let journal: Journal<Counter.State, Counter.Action>

  init() {
    journal = Journal(reducer: Counter())
    store = makeStore(middleware: [.tracer(journal)])
  }
}

let tracedCounter = TracedCounter()

/// What a minimal recording middleware keeps per action: the sequence, the action, and when the
/// chain began and ended.
struct MinimalRecord: Sendable {
  var sequence: UInt64
  var action: Counter.Action
  var start: UInt64
  var end: UInt64
}

/// The least a recording middleware can do: read the monotonic clock around `next`, and write one
/// record into a ring of 100,000 (the journal's default entry cap) under a lock. The reference the
/// tracer is judged against.
final class MinimalRecorder: Sendable {
  static let capacity = 100_000

  struct Ring {
    var records = [MinimalRecord](
      repeating: MinimalRecord(sequence: 0, action: .increment, start: 0, end: 0),
      count: MinimalRecorder.capacity)
    var next = 0
  }

  let ring = Mutex(Ring())

  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
  }

  func middleware() -> AnyMiddleware<Counter.State, Counter.Action> {
    AnyMiddleware(name: "minimal") { [self] action, context, next in
      let start = Self.now()
      next(action)
      let end = Self.now()
      let record = MinimalRecord(sequence: context.sequence, action: action, start: start, end: end)
      ring.withLock { ring in
        ring.records[ring.next] = record
        ring.next = ring.next + 1 == Self.capacity ? 0 : ring.next + 1
      }
    }
  }
}

/// A counter store recording through `MinimalRecorder`.
struct MinimallyRecordedCounter: Sendable {
  let store: Store<Counter.State, Counter.Action>
  let recorder = MinimalRecorder()

  init() {
    store = makeStore(middleware: [recorder.middleware()])
  }
}

let minimallyRecordedCounter = MinimallyRecordedCounter()

// MARK: - An app-like state: what the byte cap's estimate costs

/// A to-do list of 200 items with string ids and titles; every action toggles one item, so every
/// checkpoint the journal keeps (one per 100 actions) is a state the estimate walks by reflection.
struct TodoList: Reducer {
  struct Todo: Equatable, Sendable {
    var id: String
    var title: String
    var done = false
  }

  struct State: Equatable, Sendable {
    var cursor = 0
    var filter = "all"
    var todos = (0..<200).map {
      Todo(id: "todo-\($0)-0F8FAD5B-D9CB-469F-A165", title: "Buy \($0) things for the house")
    }
  }

  enum Action: Equatable, Sendable { case toggle }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.todos[state.cursor].done.toggle()
    state.cursor = (state.cursor + 1) % state.todos.count
    return .none
  }
}

/// The tracer on a `TodoList` store, default journal configuration, or with a `stateSize` given
/// (which the journal calls instead of estimating).
struct TracedTodoList: Sendable {
  let store: Store<TodoList.State, TodoList.Action>

  init(stateSize: (@Sendable (TodoList.State) -> Int)?) {
    let journal = Journal(reducer: TodoList(), configuration: .init(stateSize: stateSize))
    store = Store(initialState: TodoList.State(), reducer: TodoList(), middleware: [.tracer(journal)])
  }
}

let estimatedTodoList = TracedTodoList(stateSize: nil)
let sizedTodoList = TracedTodoList(stateSize: { _ in 64 << 10 })

// MARK: - The 100 KB state

/// A feature whose state holds 100 KB (12,800 `Int`s); every action changes one element, so every
/// checkpoint the journal keeps owns a copy of the array.
struct LargeList: Reducer {
  static let length = 12_800

  struct State: Equatable, Sendable {
    var cursor = 0
    var values = [Int](repeating: 0, count: LargeList.length)
  }

  enum Action: Equatable, Sendable { case bump }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.values[state.cursor] &+= 1
    state.cursor = (state.cursor + 1) % LargeList.length
    return .none
  }
}

/// Actions recorded per iteration of the 100 KB scenarios.
let largeListActions = 1_000_000

/// Records `largeListActions` actions of `LargeList` into a fresh journal with `configuration`, and
/// notes what it holds (entries, bytes by the journal's estimate, resident memory growth).
func recordLargeList(
  _ benchmark: Benchmark, configuration: Journal<LargeList.State, LargeList.Action>.Configuration
) {
  let residentBefore = residentBytes()
  benchmark.startMeasurement()
  let journal = Journal(reducer: LargeList(), configuration: configuration)
  let store = Store(
    initialState: LargeList.State(), reducer: LargeList(), middleware: [.tracer(journal)])
  for _ in 0..<largeListActions {
    store.send(.bump)
  }
  benchmark.stopMeasurement()
  precondition(journal.count + journal.committedCount == largeListActions)
  let grown = residentBytes() - residentBefore
  let line =
    "chronicle-journal: \(benchmark.name) holds \(journal.count) entries, \(journal.committedCount) committed, "
    + "approximateBytes \(journal.approximateBytes), resident growth \(grown), peak \(residentBytes(peak: true))"
  holdings.withLock { $0 = line }
}

// MARK: - Replay inside jump and undo

/// A counter journal of 100,000 entries with a checkpoint every 10,000, so that a jump to the entry
/// before a checkpoint replays 9,999 entries: the fixed cost of a jump is spread over them.
struct SparseCounterHistory: Sendable {
  static let length = 100_000
  static let interval = 10_000
  let store: Store<Counter.State, Counter.Action>
  let journal: Journal<Counter.State, Counter.Action>
  let travel: TimeTravel<Counter.State, Counter.Action>

  init() {
    let configuration = Journal<Counter.State, Counter.Action>.Configuration(
      checkpointInterval: Self.interval, maxEntries: nil, maxBytes: nil)
    journal = Journal(reducer: Counter(), configuration: configuration)
    travel = TimeTravel(journal: journal)
    store = Store(
      initialState: Counter.State(), reducer: Counter(), middleware: [.timeTravel(travel), .tracer(journal)])
    travel.attach(store)
    for _ in 0..<Self.length {
      store.send(.increment)
    }
    precondition(journal.snapshot().checkpoint(atOrBefore: 29_999)?.index == 20_000)
  }
}

let sparseCounterHistory = SparseCounterHistory()

/// Moves per iteration of the replay-step scenarios; each replays 9,998 or 9,999 entries (run.sh
/// divides by the total for ns per replayed step).
let replayMoves = 100

/// How many actions the growing scenarios sent to each store, warm-up included.
let growingSent = Mutex<[ObjectIdentifier: Int]>([:])

/// Sends the iteration's actions to a growing scenario's store.
///
/// Its state is not read here: reading `store.state` arms Observation, and from then on every
/// action pays the registrar, which an app that observes nothing does not (and which made the
/// time-travel setup look cheaper against the tracer than it is). The count is checked once, in
/// the teardown, by `checkGrowing(_:)`.
func sendGrowing(_ store: Store<Counter.State, Counter.Action>, _ benchmark: Benchmark) {
  benchmark.startMeasurement()
  for _ in benchmark.scaledIterations {
    store.send(.increment)
  }
  benchmark.stopMeasurement()
  growingSent.withLock { $0[ObjectIdentifier(store), default: 0] += benchmark.scaledIterations.count }
}

/// Checks that every action a growing scenario sent reached the reducer.
func checkGrowing(_ store: Store<Counter.State, Counter.Action>) {
  let sent = growingSent.withLock { $0[ObjectIdentifier(store), default: 0] }
  precondition(store.state.count == sent, "expected \(sent) actions to be reduced, got \(store.state.count)")
}

func registerWorstCaseBenchmarks() {
  Benchmark("timetravel/send-recommended") { benchmark in
    sendGrowing(recommendedSetup.store, benchmark)
  } teardown: {
    checkGrowing(recommendedSetup.store)
  }

  Benchmark("tracer/record-growing") { benchmark in
    sendGrowing(tracedCounter.store, benchmark)
  } teardown: {
    checkGrowing(tracedCounter.store)
  }

  Benchmark("tracer/minimal-recording-middleware") { benchmark in
    sendGrowing(minimallyRecordedCounter.store, benchmark)
  } teardown: {
    checkGrowing(minimallyRecordedCounter.store)
  }

  Benchmark("tracer/record-app-state") { benchmark in
    let store = estimatedTodoList.store
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      store.send(.toggle)
    }
    benchmark.stopMeasurement()
  }

  Benchmark("tracer/record-app-state-sized") { benchmark in
    let store = sizedTodoList.store
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      store.send(.toggle)
    }
    benchmark.stopMeasurement()
  }

  // Long scenarios: CPU time as well as wall clock, several samples.
  let long = Benchmark.Configuration(
    metrics: [.wallClock, .throughput, .cpuTotal, .peakMemoryResident],
    warmupIterations: 0, scalingFactor: .one, maxDuration: .seconds(20), maxIterations: 3)

  // Under the default configuration: at most 100,000 entries and 64 MiB.
  Benchmark("journal/100KB-state", configuration: long) { benchmark in
    recordLargeList(benchmark, configuration: .init())
  } teardown: {
    printHoldings()
  }

  // Without the entry cap: only the default 64 MiB byte cap bounds the journal.
  Benchmark("journal/100KB-state-uncapped", configuration: long) { benchmark in
    recordLargeList(benchmark, configuration: .init(maxEntries: nil))
  } teardown: {
    printHoldings()
  }

  let replay = Benchmark.Configuration(
    metrics: [.wallClock, .throughput, .cpuTotal], warmupIterations: 3, scalingFactor: .one,
    maxDuration: .seconds(5),
    maxIterations: 200)

  // Alternates between the entries before two checkpoints: each jump replays 9,999 entries.
  Benchmark("timetravel/jump-replay-step", configuration: replay) { benchmark in
    let travel = sparseCounterHistory.travel
    benchmark.startMeasurement()
    for move in 0..<replayMoves {
      travel.jump(to: move % 2 == 0 ? 29_999 : 59_999)
    }
    benchmark.stopMeasurement()
    precondition(sparseCounterHistory.store.state.count == 59_999)
  }

  // From the entry before a checkpoint, undo (9,998 replayed) and redo (9,999) in turn.
  Benchmark("timetravel/undo-replay-step", configuration: replay) { benchmark in
    let travel = sparseCounterHistory.travel
    if travel.position != 29_999 { travel.jump(to: 29_999) }
    benchmark.startMeasurement()
    for move in 0..<replayMoves {
      if move % 2 == 0 { travel.undo() } else { travel.redo() }
    }
    benchmark.stopMeasurement()
    precondition(travel.position == 29_999)
  }
}
