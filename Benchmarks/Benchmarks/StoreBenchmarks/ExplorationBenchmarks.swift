// Exploration (issue 30): steps per second of `Explorer` on a pure reducer (the counter), with and
// without every run recorded in a journal; on a feature whose every action starts an effect on the
// run's TestClock; and the time to shrink a 1,000-step failing run of the DocC article's todo list.
//
// The step scenarios explore one run of 1,000 steps per measured iteration (the harness's
// scalingFactor), store and clock included, so "ns per action" is ns per step. The shrink
// scenario shrinks once per iteration.

import Benchmark
import ChronicleClocks
import ChronicleStore
import ChronicleTesting

/// A feature whose every `.start` starts an effect that waits 10 ms on the run's clock and
/// sends `.tick`; a new start cancels the one in flight.
struct Ticker: Reducer {
  enum Action: Equatable, Sendable { case start, tick }
  let clock: TestClock

  func reduce(into state: inout Counter.State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [clock] send in
        try await clock.sleep(for: .milliseconds(10))
        await send(.tick)
      }
      .cancellable(id: "tick", cancelInFlight: true)
    case .tick:
      state.count += 1
      return .none
    }
  }
}

/// The DocC article's todo list, with its bug (see Tests/TestingTests/ExplorationFixtures.swift).
struct BenchmarkTodos: Reducer {
  struct Todo: Equatable, Codable, Sendable {
    var id: Int
    var title: String
    var done = false
  }

  struct State: Equatable, Codable, Sendable {
    var todos: [Todo] = []
    var nextID = 0
    var selected: Int?
    var selectedID: Int?
  }

  enum Action: Equatable, Sendable, Codable {
    case add(String), toggle(Int), select(Int), delete(Int), clearCompleted
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let title):
      state.todos.append(Todo(id: state.nextID, title: title))
      state.nextID += 1
    case .toggle(let index):
      if state.todos.indices.contains(index) { state.todos[index].done.toggle() }
    case .select(let index):
      guard state.todos.indices.contains(index) else { return .none }
      state.selected = index
      state.selectedID = state.todos[index].id
    case .delete(let index):
      guard state.todos.indices.contains(index) else { return .none }
      state.todos.remove(at: index)
      if let selected = state.selected, selected >= index {
        state.selected = selected == index ? nil : selected - 1
        if selected == index { state.selectedID = nil }
      }
    case .clearCompleted:
      if let selected = state.selected, state.todos[selected].done {
        state.selected = nil
        state.selectedID = nil
      }
      state.todos.removeAll(where: \.done)
    }
    return .none
  }

  static let selectionAgrees = Invariant<State, Action>("the selected row is the selected todo") { state in
    guard let selected = state.selected else { return state.selectedID == nil }
    return state.todos.indices.contains(selected) && state.todos[selected].id == state.selectedID
  }

  static func simplify(_ action: Action) -> [Action] {
    switch action {
    case .add(let title): title == "a" ? [] : [.add("a")]
    case .toggle(let index): (0..<index).map(Action.toggle)
    case .select(let index): (0..<index).map(Action.select)
    case .delete(let index): (0..<index).map(Action.delete)
    case .clearCompleted: []
    }
  }

  /// A run of exactly 1,000 steps that breaks the invariant at its last: 994 random actions other
  /// than `clearCompleted`, then a new todo selected below a completed first one, and the clear.
  static func failingRun() -> [ExplorationStep<Action>] {
    var random = ExplorationRandom(seed: 30)
    var state = State()
    var steps: [Action] = []
    func apply(_ action: Action) {
      _ = BenchmarkTodos().reduce(into: &state, action: action)
      steps.append(action)
    }
    while steps.count < 994 {
      let count = state.todos.count
      switch count == 0 ? 0 : random.next(below: 4) {
      case 0: apply(.add(["milk", "eggs", "bread"][random.next(below: 3)]))
      case 1: apply(.toggle(random.next(below: count)))
      case 2: apply(.select(random.next(below: count)))
      default: apply(.delete(random.next(below: count)))
      }
    }
    if state.todos.isEmpty { apply(.add("milk")) }
    apply(.add("eggs"))
    apply(.select(state.todos.count - 1))
    while steps.count < 998 { apply(.toggle(0)) }
    apply(state.todos[0].done ? .select(state.todos.count - 1) : .toggle(0))
    apply(.clearCompleted)
    return steps.map { .send($0) }
  }
}

func registerExplorationBenchmarks() {
  let counterActions = ActionGenerator<Counter.State, Counter.Action>.weighted([
    (3, .increment), (1, .decrement),
  ])
  let counterInvariant = Invariant<Counter.State, Counter.Action>("finite") { $0.count > Int.min }

  for (name, journal) in [("exploration/pure", false), ("exploration/pure-journal", true)] {
    Benchmark(name) { benchmark in
      let explorer = Explorer(
        initialState: Counter.State(), reducer: { _ in Counter() }, actions: counterActions,
        invariants: [counterInvariant],
        configuration: ExplorationConfiguration(
          seed: 1, runs: 1, stepsPerRun: benchmark.scaledIterations.count, recordsJournal: journal))
      benchmark.startMeasurement()
      let report = await explorer.explore()
      benchmark.stopMeasurement()
      precondition(report.failure == nil && report.steps == benchmark.scaledIterations.count)
    }
  }

  Benchmark("exploration/effect-per-action") { benchmark in
    let explorer = Explorer(
      initialState: Counter.State(), reducer: { Ticker(clock: $0) },
      actions: .weighted([(1, .start)]), invariants: [Invariant("finite") { $0.count > Int.min }],
      configuration: ExplorationConfiguration(
        seed: 1, runs: 1, stepsPerRun: benchmark.scaledIterations.count, clockSteps: [.milliseconds(10)],
        sendWeight: 4, advanceWeight: 1, wakeNextWeight: 0))
    benchmark.startMeasurement()
    let report = await explorer.explore()
    benchmark.stopMeasurement()
    precondition(report.failure == nil && report.steps == benchmark.scaledIterations.count)
  }

  Benchmark(
    "exploration/shrink-1000",
    configuration: .init(scalingFactor: .one, maxDuration: .seconds(20), maxIterations: 20)
  ) { benchmark in
    let steps = BenchmarkTodos.failingRun()
    let explorer = Explorer(
      initialState: BenchmarkTodos.State(), reducer: { _ in BenchmarkTodos() },
      actions: ActionGenerator(simplify: BenchmarkTodos.simplify) { _, _ in .clearCompleted },
      invariants: [BenchmarkTodos.selectionAgrees], configuration: ExplorationConfiguration(seed: 1))
    precondition(steps.count == 1_000)
    benchmark.startMeasurement()
    let failure = await explorer.shrink(steps)
    benchmark.stopMeasurement()
    precondition(failure?.originalSteps.count == 1_000, "the run fails before its last step")
    precondition(failure?.steps.count == 5, "shrunk to \(failure?.steps.count ?? 0) steps")
  }
}
