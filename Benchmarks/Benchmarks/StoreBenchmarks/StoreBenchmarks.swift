// The cost of `Store.send` per action, against the floor: the same reducer called in a bare loop.
//
// Every scenario does `actionsPerIteration` actions per measured iteration (the harness's
// scalingFactor), all in one run, so their ratios to `floor` are comparable. ./run.sh prints the
// per-action numbers and the ratios; BENCHMARKS.md records a run.
//
// The Counter reducer lives here, in a client module of ChronicleStore, on purpose: the store is
// generic and `send` is `@inlinable`, so what is measured is the hot path as specialized in the
// client for the client's own State and Action — what an application gets.

import Benchmark
import ChronicleStore

// MARK: - The feature under test

struct Counter: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
  }

  enum Action: Equatable, Sendable {
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
/// action costs with no store at all.
@inline(never)
func reduceDirectly(_ reducer: Counter, _ state: inout Counter.State, _ action: Counter.Action) -> Effect<Counter.Action> {
  reducer.reduce(into: &state, action: action)
}

// MARK: - Stores

func makeStore(middleware: [AnyMiddleware<Counter.State, Counter.Action>] = []) -> Store<Counter.State, Counter.Action> {
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

/// Actions per measured iteration.
let scaling: BenchmarkScalingFactor = .mega
let actionsPerIteration = scaling.rawValue

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .throughput, .instructions, .mallocCountTotal],
    timeUnits: .nanoseconds,
    warmupIterations: 3,
    scalingFactor: scaling,
    maxDuration: .seconds(4),
    maxIterations: 200
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
    precondition(state.count == actionsPerIteration)
    blackHole(state)
  }

  Benchmark("send/no-middleware") { benchmark in
    let store = makeStore()
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      store.send(.increment)
    }
    benchmark.stopMeasurement()
    expectCount(store, actionsPerIteration)
  }

  Benchmark("send/3-middlewares") { benchmark in
    let store = makeStore(middleware: [passThrough(), passThrough(), passThrough()])
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      store.send(.increment)
    }
    benchmark.stopMeasurement()
    expectCount(store, actionsPerIteration)
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
    expectCount(store, actionsPerIteration)
  }

  // Fewer actions per iteration: the allocation count is exact, not statistical.
  Benchmark(
    "send/allocations",
    configuration: .init(
      metrics: [.mallocCountTotal, .wallClock, .throughput],
      scalingFactor: .kilo,
      maxDuration: .seconds(1),
      maxIterations: 1_000
    )
  ) { benchmark in
    let store = makeStore()
    store.send(.increment)  // the first send may grow nothing, but keep it out of the count anyway
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      store.send(.increment)
    }
    benchmark.stopMeasurement()
    expectCount(store, benchmark.scaledIterations.count + 1)
  }
}
