import ChronicleClocks
import ChronicleStore
import ChronicleTracer
import Foundation

/// Finds bugs before users do: runs many random sequences of actions and clock steps through a
/// real ``/ChronicleStore/Store``, checks invariants after every action, and shrinks the first
/// failure to a minimal sequence with its journal, a viewer page and a generated test.
///
/// ```swift
/// let explorer = Explorer(
///   initialState: Todos.State(),
///   reducer: { _ in Todos() },
///   actions: Todos.randomAction,
///   invariants: [Todos.selectionExists],
///   configuration: ExplorationConfiguration(seed: 7, runs: 500, stepsPerRun: 40))
/// let report = await explorer.explore()
/// if let failure = report.failure { print(failure) }   // the seed, the steps, the diff
/// ```
///
/// Each run makes a new `TestClock`, a reducer and middlewares for it, and a store. A step either
/// sends an action (made by ``ActionGenerator``), advances the clock by one of
/// ``ExplorationConfiguration/clockSteps``, or wakes the clock's next sleeper; after each step the
/// explorer waits until the store's effects have settled, so a run depends on its seed alone.
/// Effects, thunks and timers run as in the app, on the run's clock: the order of user actions
/// and the passing of time between them are both explored.
///
/// A violation is an invariant that returns `false`, or an effect that throws an error nothing
/// catches. The failing run is then shrunk: steps are removed (delta debugging), actions are
/// replaced by the simpler ones ``ActionGenerator`` offers, adjacent clock advances are merged
/// and shortened; each candidate is run again and kept only if it breaks the same property.
public struct Explorer<State: Equatable & Codable & Sendable, Action: Equatable & Sendable>: Sendable {
  let initialState: State
  let makeStore:
    @Sendable (
      _ clock: TestClock, _ outer: [AnyMiddleware<State, Action>], _ inner: AnyMiddleware<State, Action>
    )
      -> Store<State, Action>
  /// Makes a run's journal and the tracer recording into it.
  let makeJournal: @Sendable (_ clock: TestClock) -> (Journal<State, Action>, AnyMiddleware<State, Action>)
  let send: @Sendable (Store<State, Action>, Action) -> Void
  /// Makes a run's innermost middleware, which checks the invariants and reports to the run's
  /// monitor.
  let makeChecker: @Sendable (RunMonitor<State, Action>) -> AnyMiddleware<State, Action>
  let actions: ActionGenerator<State, Action>
  let invariants: [Invariant<State, Action>]
  /// How much to explore; see ``ExplorationConfiguration``.
  public var configuration: ExplorationConfiguration

  /// Creates an explorer.
  ///
  /// - Parameters:
  ///   - initialState: The state every run starts from.
  ///   - reducer: Makes the feature for a run, given the run's test clock: pass it wherever the
  ///     feature waits (its effects' sleeps, debounces, timers).
  ///   - middleware: Makes the middlewares for a run, given its clock; they run as in the app.
  ///   - actions: Makes the actions sent.
  ///   - invariants: The properties checked after every action.
  ///   - configuration: The seed and the budget.
  // Inlinable so that the closures making the store and sending to it are formed in the client,
  // specialized for its reducer: formed here, every send would go through generic witnesses.
  @inlinable
  public init<R: Reducer>(
    initialState: State,
    reducer: @escaping @Sendable (_ clock: TestClock) -> R,
    middleware: @escaping @Sendable (_ clock: TestClock) -> [AnyMiddleware<State, Action>] = { _ in [] },
    actions: ActionGenerator<State, Action>,
    invariants: [Invariant<State, Action>],
    configuration: ExplorationConfiguration = ExplorationConfiguration()
  ) where R.State == State, R.Action == Action {
    self.init(
      initialState: initialState,
      makeStore: { clock, outer, inner in
        Store(
          initialState: initialState, reducer: reducer(clock), middleware: outer + middleware(clock) + [inner]
        )
      },
      makeJournal: { clock in
        let journal = Journal(reducer: reducer(clock))
        return (journal, .tracer(journal))
      },
      send: { store, action in store.send(action) },
      makeChecker: { monitor in
        AnyMiddleware(name: "Explorer") { action, context, next in
          let before = context.state
          next(action)
          let after = context.state
          for invariant in invariants where !invariant.holds(old: before, action: action, new: after) {
            monitor.broke(
              invariant.name, before: before, action: action, after: after, sequence: context.sequence)
            break
          }
          if monitor.observesEveryAction {
            monitor.processed(
              action, after: after, isUser: context.cause.kind == .user, sequence: context.sequence)
          }
        } event: { event, context in
          monitor.effectEvent(event, state: context.state)
        }
      },
      actions: actions, invariants: invariants, configuration: configuration)
  }

  @usableFromInline
  init(
    initialState: State,
    makeStore:
      @escaping @Sendable (TestClock, [AnyMiddleware<State, Action>], AnyMiddleware<State, Action>) -> Store<
        State, Action
      >,
    makeJournal: @escaping @Sendable (TestClock) -> (Journal<State, Action>, AnyMiddleware<State, Action>),
    send: @escaping @Sendable (Store<State, Action>, Action) -> Void,
    makeChecker: @escaping @Sendable (RunMonitor<State, Action>) -> AnyMiddleware<State, Action>,
    actions: ActionGenerator<State, Action>,
    invariants: [Invariant<State, Action>],
    configuration: ExplorationConfiguration
  ) {
    self.initialState = initialState
    self.makeStore = makeStore
    self.makeJournal = makeJournal
    self.send = send
    self.makeChecker = makeChecker
    self.actions = actions
    self.invariants = invariants
    self.configuration = configuration
  }

  /// Runs random sequences until one breaks a property or the budget is spent, and shrinks the
  /// failure.
  ///
  /// - Returns: What was explored and, if a property broke, the shrunk failure.
  public func explore() async -> ExplorationReport<State, Action> {
    let elapsed = Self.stopwatch(configuration.clock)
    var runs = 0
    var steps = 0
    for run in 0..<max(0, configuration.runs) {
      if let limit = configuration.timeLimit, elapsed() >= limit { break }
      let seed = ExplorationRandom.runSeed(configuration.seed, run: run)
      let outcome = await execute(.random(seed: seed, count: configuration.stepsPerRun), recording: false)
      runs += 1
      steps += outcome.steps.count
      if let violation = outcome.violation {
        let failure = await failure(
          shrinking: outcome.steps, violation: violation, seed: seed, run: run,
          original: outcome.journal.map { ExplorationJournal.json($0, times: outcome.times) })
        return ExplorationReport(seed: configuration.seed, runs: runs, steps: steps, failure: failure)
      }
    }
    return ExplorationReport(seed: configuration.seed, runs: runs, steps: steps, failure: nil)
  }

  /// Runs `steps` and, if they break a property, shrinks them: for a run recorded elsewhere, or
  /// one written by hand.
  ///
  /// - Returns: The shrunk failure; `nil` if the steps break no property.
  public func shrink(_ steps: [ExplorationStep<Action>]) async -> ExplorationFailure<State, Action>? {
    let outcome = await execute(.fixed(steps), recording: false)
    guard let violation = outcome.violation else { return nil }
    return await failure(
      shrinking: outcome.steps, violation: violation, seed: nil, run: nil,
      original: outcome.journal.map { ExplorationJournal.json($0, times: outcome.times) })
  }

  /// Runs exactly `steps` once.
  ///
  /// - Returns: The first violation, if any.
  public func check(_ steps: [ExplorationStep<Action>]) async -> ExplorationFailureKind? {
    await execute(.fixed(steps), recording: false).violation?.kind
  }

  private func failure(
    shrinking steps: [ExplorationStep<Action>], violation: Violation<State, Action>, seed: UInt64?, run: Int?,
    original: Data?
  ) async -> ExplorationFailure<State, Action> {
    var shrinker = Shrinker(explorer: self, kind: violation.kind)
    let minimal = await shrinker.shrink(steps)
    let recorded = await execute(.fixed(minimal), recording: true)
    return ExplorationFailure(
      explorer: self, seed: seed, run: run, originalSteps: steps, fallback: violation, recorded: recorded,
      originalJournalJSON: original, shrinkRuns: shrinker.runs)
  }

  // MARK: - Running

  enum StepSource {
    case random(seed: UInt64, count: Int)
    case fixed([ExplorationStep<Action>])
  }

  /// What a run did.
  struct Outcome: Sendable {
    /// The steps taken, up to and including the one during which the violation happened.
    var steps: [ExplorationStep<Action>]
    var violation: Violation<State, Action>?
    /// For a recorded run: every action processed, the test clock's time at each sequence number,
    /// and the journal.
    var records: [ProcessedAction<State, Action>] = []
    var times: [UInt64: Duration] = [:]
    var journal: JournalSnapshot<State, Action>?
  }

  func execute(_ source: StepSource, recording: Bool) async -> Outcome {
    let clock = TestClock()
    let journal = recording || configuration.recordsJournal ? makeJournal(clock) : nil
    let monitor = RunMonitor(
      initialState: initialState, invariants: invariants,
      recording: recording ? .actions(clock) : journal == nil ? .nothing : .times(clock),
      keepsLatestState: actions.readsState)
    if let violation = monitor.checkInitialState(initialState) {
      return Outcome(steps: [], violation: violation)
    }
    let store = makeStore(clock, journal.map { [$0.1] } ?? [], makeChecker(monitor))
    var random: ExplorationRandom
    let count: Int
    switch source {
    case .random(let seed, let steps):
      random = ExplorationRandom(seed: seed)
      count = max(0, steps)
    case .fixed(let steps):
      random = ExplorationRandom(seed: 0)
      count = steps.count
    }
    var performed: [ExplorationStep<Action>] = []
    performed.reserveCapacity(count)
    for index in 0..<count {
      let step: ExplorationStep<Action>
      switch source {
      case .random: step = choose(&random, clock: clock, monitor: monitor)
      case .fixed(let steps): step = steps[index]
      }
      monitor.beginStep(index)
      performed.append(step)
      if case .send(let action) = step {
        // Written out here, not through `perform`: most steps are sends that start no effect.
        send(store, action)
        if store.activity.runningCount > 0 { await store.activity.waitUntilQuiescent() }
      } else {
        await perform(step, on: store, clock: clock)
      }
      if monitor.hasViolation { break }
    }
    return Outcome(
      steps: performed, violation: monitor.violation, records: monitor.records, times: monitor.times,
      journal: journal?.0.snapshot())
  }

  private func choose(
    _ random: inout ExplorationRandom, clock: TestClock, monitor: RunMonitor<State, Action>
  ) -> ExplorationStep<Action> {
    let send = max(0, configuration.sendWeight)
    let advance = configuration.clockSteps.isEmpty ? 0 : max(0, configuration.advanceWeight)
    let wake = configuration.wakeNextWeight > 0 && clock.sleeperCount > 0 ? configuration.wakeNextWeight : 0
    let total = send + advance + wake
    let draw = random.next(below: total)
    if total == 0 || draw < send {
      return .send(actions.make(&random, actions.readsState ? monitor.latest : initialState))
    }
    if draw < send + advance {
      return .advance(configuration.clockSteps[random.next(below: configuration.clockSteps.count)])
    }
    return .wakeNext
  }

  private func perform(
    _ step: ExplorationStep<Action>, on store: Store<State, Action>, clock: TestClock
  ) async {
    switch step {
    case .send(let action):
      send(store, action)
      if store.activity.runningCount > 0 { await store.activity.waitUntilQuiescent() }
    case .advance(let duration):
      await clock.advance(by: duration)
    case .wakeNext:
      await clock.run(maxSteps: 1)
    }
  }

  /// A function returning the time elapsed on `clock` since it was made.
  private static func stopwatch<C: Clock<Duration>>(_ clock: C) -> () -> Duration {
    let start = clock.now
    return { start.duration(to: clock.now) }
  }
}
