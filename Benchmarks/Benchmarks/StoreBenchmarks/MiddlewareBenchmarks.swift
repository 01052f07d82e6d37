// The built-in middlewares' costs (issues 3 and 4), in the same run as `floor` so their ratios
// are comparable: a logger whose predicate rejects every action, a logger writing to a no-op sink
// with the diff on, the tracer recording every action, and an async round trip — an action that
// starts work which sends one action back — through a thunk and through `Effect.run`.

import Benchmark
import ChronicleMiddleware
import ChronicleStore
import ChronicleTracer

/// A feature whose `.load` starts an `Effect.run` that sends `.increment` back.
struct Loader: Reducer {
  enum Action: Equatable, Sendable { case load, increment }

  func reduce(into state: inout Counter.State, action: Action) -> Effect<Action> {
    switch action {
    case .load: return .run { send in await send(.increment) }
    case .increment:
      state.count += 1
      return .none
    }
  }
}

func registerMiddlewareBenchmarks() {
  Benchmark("logger/predicate-rejects") { benchmark in
    let store = makeStore(middleware: [.logger(predicate: { _ in false }, sink: .text { _ in })])
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      store.send(.increment)
    }
    benchmark.stopMeasurement()
    expectCount(store, benchmark.scaledIterations.count)
  }

  Benchmark("logger/no-op-sink-with-diff") { benchmark in
    let store = makeStore(middleware: [.logger(diff: true, sink: .text { blackHole($0) })])
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      store.send(.increment)
    }
    benchmark.stopMeasurement()
    expectCount(store, benchmark.scaledIterations.count)
  }

  Benchmark("tracer/record") { benchmark in
    let journal = Journal<Counter.State, Counter.Action>(initialState: Counter.State(), reducer: Counter())
    let store = makeStore(middleware: [.tracer(journal)])
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      store.send(.increment)
    }
    benchmark.stopMeasurement()
    expectCount(store, benchmark.scaledIterations.count)
  }

  Benchmark("round-trip/thunk") { benchmark in
    let store = makeStore()
    let thunk = Thunk<Counter.State, Counter.Action, Void>("increment") { send, _, _ in
      await send(.increment)
    }
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      store.dispatch(thunk)
      await store.waitUntilIdle()
    }
    benchmark.stopMeasurement()
    expectCount(store, benchmark.scaledIterations.count)
  }

  Benchmark("round-trip/effect-run") { benchmark in
    let store = Store(initialState: Counter.State(), reducer: Loader())
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      store.send(.load)
      await store.waitUntilIdle()
    }
    benchmark.stopMeasurement()
    let count = store.state.count
    precondition(count == benchmark.scaledIterations.count)
  }
}
