// The cost of `Store.send` per action, against the floor: the same reducer called in a bare loop.
//
// Every scenario does 1,000 actions per measured iteration (the harness's scalingFactor) and
// they all run in one run, so their ratios to `floor` are comparable. ./run.sh prints the
// per-action numbers and the ratios; BENCHMARKS.md records a run.
//
// The Counter reducer lives here, in a client module of ChronicleStore, on purpose: the store is
// generic and `send` is `@inlinable`, so what is measured is the hot path as specialized in the
// client for the client's own State and Action — what an application gets.

import Benchmark
import ChronicleStore

// MARK: - The feature under test

struct Counter: Reducer {
  struct State: Equatable, Sendable, Codable {
    var count = 0
  }

  enum Action: Equatable, Sendable, Codable {
    case increment
    case decrement
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += 1
    case .decrement: state.count -= 1
    }
    return .none
  }
}

// MARK: - The floor

/// The reducer called through a function the optimizer may not inline into the loop: what one
/// action costs with no store at all. This is `floor`, the reference for every ratio.
@inline(never)
func reduceDirectly(
  _ reducer: Counter, _ state: inout Counter.State, _ action: Counter.Action
) -> Effect<Counter.Action> {
  reducer.reduce(into: &state, action: action)
}

/// The counter's arithmetic alone, without returning an `Effect`: `floor/bare-increment`, what the
/// floor would be if returning `.none` cost nothing.
@inline(never)
func incrementDirectly(_ state: inout Counter.State, _ action: Counter.Action) {
  switch action {
  case .increment: state.count += 1
  case .decrement: state.count -= 1
  }
}

/// Allocated once per action by `control/one-malloc`, which checks that the malloc counter works.
final class Box {
  var value: Int
  init(_ value: Int) { self.value = value }
}

// MARK: - Stores

func makeStore(
  middleware: [AnyMiddleware<Counter.State, Counter.Action>] = []
) -> Store<Counter.State, Counter.Action> {
  Store(initialState: Counter.State(), reducer: Counter(), middleware: middleware)
}

func passThrough() -> AnyMiddleware<Counter.State, Counter.Action> {
  AnyMiddleware { action, context, next in next(action) }
}

/// Checks, outside the measured region, that every action reached the reducer.
func expectCount(_ store: Store<Counter.State, Counter.Action>, _ expected: Int) {
  // Reading `state` arms Observation for this store; it is discarded right after.
  let count = store.state.count
  precondition(count == expected, "expected \(expected) actions to be reduced, got \(count)")
}

// MARK: - Benchmarks

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    // `.instructions` is left out: it needs hardware performance counters, which VMs often lack.
    metrics: [.wallClock, .throughput, .mallocCountTotal],
    timeUnits: .nanoseconds,
    warmupIterations: 100,
    // 1,000 actions per measured iteration: long enough (2 µs to 1 ms) that the clock reads around
    // an iteration are noise, short enough that most iterations run within one scheduler time
    // slice, so the p50 holds up on a shared 2-core machine where other builds may be running.
    scalingFactor: .kilo,
    maxDuration: .seconds(5),
    maxIterations: 100_000
  )

  Benchmark("floor") { benchmark in
    let reducer = Counter()
    var state = Counter.State()
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      let effect = reduceDirectly(reducer, &state, .increment)
      if !effect.isNone { fatalError("the counter returns no effect") }
    }
    benchmark.stopMeasurement()
    precondition(state.count == benchmark.scaledIterations.count)
    blackHole(state)
  }

  Benchmark("floor/bare-increment") { benchmark in
    var state = Counter.State()
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      incrementDirectly(&state, .increment)
    }
    benchmark.stopMeasurement()
    precondition(state.count == benchmark.scaledIterations.count)
    blackHole(state)
  }

  Benchmark("send/no-middleware") { benchmark in
    let store = makeStore()
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      store.send(.increment)
    }
    benchmark.stopMeasurement()
    expectCount(store, benchmark.scaledIterations.count)
  }

  Benchmark("send/3-middlewares") { benchmark in
    let store = makeStore(middleware: [passThrough(), passThrough(), passThrough()])
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      store.send(.increment)
    }
    benchmark.stopMeasurement()
    expectCount(store, benchmark.scaledIterations.count)
  }

  Benchmark("send/1-observer") { benchmark in
    let store = makeStore()
    let subscription = store.observe(\.count) { _ in }
    withExtendedLifetime(subscription) {
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        store.send(.increment)
      }
      benchmark.stopMeasurement()
    }
    expectCount(store, benchmark.scaledIterations.count)
  }

  // Every scenario counts mallocs; this one is the dedicated check, on a store that has already
  // processed an action.
  // A store whose `state` has been read, as a SwiftUI view reads it: from then on every action is
  // reported to Observation (`willSet`/`didSet` on the store's registrar).
  Benchmark("send/observation-armed") { benchmark in
    let store = makeStore()
    _ = store.state
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      store.send(.increment)
    }
    benchmark.stopMeasurement()
    expectCount(store, benchmark.scaledIterations.count)
  }

  // A store observed through one member, as a SwiftUI view reading `store.count` observes it:
  // each action also compares `count` before and after, and reports it (it changes every time).
  Benchmark("send/observation-member") { benchmark in
    let store = makeStore()
    _ = store.count
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      store.send(.increment)
    }
    benchmark.stopMeasurement()
    expectCount(store, benchmark.scaledIterations.count)
  }

  Benchmark("send/allocations") { benchmark in
    let store = makeStore()
    store.send(.increment)  // one-time set-up, if any, is not a per-send cost
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      store.send(.increment)
    }
    benchmark.stopMeasurement()
    expectCount(store, benchmark.scaledIterations.count + 1)
  }

  // The control for the one above: one heap allocation per action must count as 1, so that the 0
  // above means "no allocation" and not "nothing counted".
  Benchmark("control/one-malloc", configuration: .init(maxDuration: .seconds(1), maxIterations: 1_000)) {
    benchmark in
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      blackHole(Box(index))
    }
    benchmark.stopMeasurement()
  }

  registerMiddlewareBenchmarks()
  registerTimeTravelBenchmarks()
  registerExportBenchmarks()
  registerImportBenchmarks()
  registerWorstCaseBenchmarks()
  registerViewerBenchmarks()
  registerSinkBenchmarks()
  registerExplorationBenchmarks()
}
