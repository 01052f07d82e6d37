import ChronicleClocks
import ChronicleFormats
import ChronicleStore
import ChronicleTesting
import Foundation
import Synchronization
import Testing

/// The worked example's explorer: 500 runs of 30 steps at most.
func todosExplorer(
  seed: UInt64 = 1, runs: Int = 500, fixed: Bool = false
) -> Explorer<
  ExampleTodos.State, ExampleTodos.Action
> {
  Explorer(
    initialState: ExampleTodos.State(), reducer: { _ in ExampleTodos(isFixed: fixed) },
    actions: ExampleTodos.actions, invariants: [ExampleTodos.selectionAgrees],
    configuration: ExplorationConfiguration(seed: seed, runs: runs, stepsPerRun: 30))
}

/// The debounced search's explorer: 200 runs of 20 steps, the clock moved by 100 ms, 300 ms or 1 s.
func searchExplorer() -> Explorer<DebouncedSearch.State, DebouncedSearch.Action> {
  Explorer(
    initialState: DebouncedSearch.State(), reducer: { DebouncedSearch(clock: $0, isFixed: false) },
    actions: DebouncedSearch.actions, invariants: [DebouncedSearch.searchesAreNotEmpty],
    configuration: ExplorationConfiguration(
      seed: 1, runs: 200, stepsPerRun: 20, clockSteps: [.milliseconds(100), .milliseconds(300), .seconds(1)],
      wakeNextWeight: 0))
}

/// The test the debounced search's failure generates (committed as ExploredSearchTest.swift).
let exploredSearchOptions = ExplorationTestOptions(
  reducer: "DebouncedSearch(clock: clock)", testName: "exploredSearchFailure",
  stateType: "DebouncedSearch.State")

/// The test the worked example's failure generates (committed as ExploredTodosTest.swift).
let exploredTodosOptions = ExplorationTestOptions(
  reducer: "ExampleTodos()", testName: "exploredTodosFailure", stateType: "ExampleTodos.State")

@Suite struct ExplorationTests {
  @Test func aTodoBugNeedingFiveActionsIsFoundAndShrunkToThem() async throws {
    let report = await todosExplorer().explore()
    let failure = try #require(report.failure)
    #expect(report.runs == 11)
    #expect(failure.run == 10)
    #expect(failure.kind == .invariant("the selected row is the selected todo"))
    #expect(failure.originalSteps.count == 13)
    #expect(failure.shrinkRuns == 75)
    #expect(
      failure.steps == [
        .send(.add("a")), .send(.toggle(0)), .send(.add("a")), .send(.select(1)), .send(.clearCompleted),
      ])
    #expect(failure.action == .clearCompleted)
    #expect(failure.stateAfter.selected == 1)
    #expect(
      failure.changes.map(\.description) == [
        #"todos[0]: removed ExampleTodos.Todo(id: 0, title: "a", done: true)"#
      ])
  }

  @Test func theShrunkRunIsOneMinimal() async throws {
    let explorer = todosExplorer()
    let steps = try #require(await explorer.explore().failure).steps
    for index in steps.indices {
      var fewer = steps
      fewer.remove(at: index)
      #expect(await explorer.check(fewer) == nil, "without step \(index + 1)")
      if case .send(let action) = steps[index] {
        for simpler in ExampleTodos.simplify(action) {
          var simplified = steps
          simplified[index] = .send(simpler)
          #expect(await explorer.check(simplified) == nil, "with .\(simpler) at step \(index + 1)")
        }
      }
    }
    #expect(await explorer.check(steps) == .invariant("the selected row is the selected todo"))
  }

  /// The README's example: the fixed todo list, a random seed, the default budget.
  @Test func theReadmeExplorationFindsNothingInTheFixedTodoList() async {
    let report = await assertExploration(
      Explorer(
        initialState: ExampleTodos.State(), reducer: { _ in ExampleTodos() },
        actions: ExampleTodos.actions, invariants: [ExampleTodos.selectionAgrees]),
      test: ExplorationTestOptions(reducer: "ExampleTodos()"))
    #expect(report.runs == 100)
    #expect(report.failure == nil)
  }

  @Test func aPaymentBugNeedsThePaymentToFinishBetweenTwoPays() async throws {
    let explorer = Explorer(
      initialState: Checkout.State(), reducer: { Checkout(clock: $0) },
      actions: .weighted([(3, .pay), (1, .cancel)]), invariants: [Checkout.paysOnceInvariant],
      configuration: ExplorationConfiguration(seed: 1, runs: 200, stepsPerRun: 20))
    let failure = try #require(await explorer.explore().failure)
    #expect(failure.steps == [.send(.pay), .wakeNext, .send(.pay)])
    #expect(failure.stateBefore == Checkout.State(paying: false, paid: true))
    #expect(failure.stateAfter == Checkout.State(paying: true, paid: true))
  }

  @Test func aDebounceBugNeedsTheClockToPassTheWindow() async throws {
    let explorer = Explorer(
      initialState: DebouncedSearch.State(), reducer: { DebouncedSearch(clock: $0, isFixed: false) },
      actions: DebouncedSearch.actions, invariants: [DebouncedSearch.searchesAreNotEmpty],
      configuration: ExplorationConfiguration(
        seed: 1, runs: 200, stepsPerRun: 20,
        clockSteps: [.milliseconds(100), .milliseconds(300), .seconds(1)],
        wakeNextWeight: 0))
    let failure = try #require(await explorer.explore().failure)
    #expect(failure.steps == [.send(.type("a")), .send(.clear), .advance(.milliseconds(300))])
    #expect(failure.action == .search)
    #expect(failure.stateAfter.searches == [""])
  }

  @Test func aTimerMiddlewaresTickAfterAResetIsFound() async throws {
    let explorer = Explorer(
      initialState: TimedStopwatch.State(), reducer: { _ in TimedStopwatch() },
      middleware: TimedStopwatch.timers,
      actions: .weighted([(2, .start), (1, .stop), (1, .reset)]),
      invariants: [TimedStopwatch.ticksOnlyWhileRunning],
      configuration: ExplorationConfiguration(seed: 1, runs: 100, stepsPerRun: 20, clockSteps: [.seconds(1)]))
    let failure = try #require(await explorer.explore().failure)
    #expect(failure.steps == [.send(.start), .send(.reset), .wakeNext])
    #expect(failure.action == .tick)
  }

  @Test func aWrappingCounterIsFoundAfterExactly128Increments() async throws {
    let explorer = Explorer(
      initialState: SmallCounter.State(), reducer: { _ in SmallCounter() },
      actions: SmallCounter.actions, invariants: [SmallCounter.neverNegative],
      configuration: ExplorationConfiguration(seed: 1, runs: 20, stepsPerRun: 300))
    let failure = try #require(await explorer.explore().failure)
    #expect(failure.steps == Array(repeating: .send(.increment), count: 128))
    #expect(failure.stateAfter.count == -128)
  }

  @Test func theFixedReducersKeepTheirInvariantsForTheWholeBudget() async {
    let report = await todosExplorer(fixed: true).explore()
    #expect(report.failure == nil)
    #expect(report.runs == 500)
    #expect(report.steps == 500 * 30)
  }

  @Test func theSameSeedGivesTheSameJournalAndTestByteForByte() async throws {
    let first = try #require(await todosExplorer().explore().failure)
    let second = try #require(await todosExplorer().explore().failure)
    #expect(first.journalJSON == second.journalJSON)
    #expect(first.testSource(exploredTodosOptions) == second.testSource(exploredTodosOptions))
    #expect(first.description == second.description)
  }

  /// Explorations running at once share the process's test clocks' settling (an advance waits
  /// for every store's effects): each still depends on its seed alone.
  @Test func explorationsRunningAtOnceGiveTheSameFailureAsOneAlone() async throws {
    let alone = try #require(await searchExplorer().explore().failure)
    let together = await withTaskGroup(
      of: ExplorationFailure<DebouncedSearch.State, DebouncedSearch.Action>?.self
    ) {
      group in
      for _ in 0..<6 { group.addTask { await searchExplorer().explore().failure } }
      for _ in 0..<2 {
        group.addTask {
          _ = await todosExplorer().explore(); return nil
        }
      }
      return await group.reduce(into: []) { $0.append($1) }.compactMap { $0 }
    }
    #expect(together.count == 6)
    for failure in together {
      #expect(failure.steps == alone.steps)
      #expect(failure.journalJSON == alone.journalJSON)
      #expect(failure.testSource(exploredSearchOptions) == alone.testSource(exploredSearchOptions))
    }
  }

  @Test func theFailingRunsSeedMakesItTheFirstRun() async throws {
    let found = try #require(await todosExplorer().explore().failure)
    let seed = try #require(found.seed)
    let again = await todosExplorer(seed: seed, runs: 1).explore()
    #expect(again.runs == 1)
    #expect(again.failure?.originalSteps == found.originalSteps)
    #expect(found.description.contains("ExplorationConfiguration(seed: \(seed)) runs it first"))
  }

  @Test func theTimeLimitIsMeasuredOnTheGivenClock() async {
    var explorer = todosExplorer(fixed: true)
    // The clock moves a second each time it is read: read at the start, then before each run.
    explorer.configuration.clock = SteppingClock()
    explorer.configuration.timeLimit = .seconds(3)
    let report = await explorer.explore()
    #expect(report.runs == 2)
  }

  @Test func anEffectThatThrowsIsAFailure() async throws {
    struct Declined: Error, CustomStringConvertible {
      var description: String { "declined" }
    }
    let explorer = Explorer(
      initialState: Checkout.State(),
      reducer: { _ in
        Reduce<Checkout.State, Checkout.Action> { state, action in
          guard action == .pay else { return .none }
          state.paying = true
          return .run { _ in throw Declined() }
        }
      },
      actions: .weighted([(1, .cancel), (1, .pay)]), invariants: [],
      configuration: ExplorationConfiguration(seed: 3, runs: 10, stepsPerRun: 10))
    let failure = try #require(await explorer.explore().failure)
    #expect(failure.kind == .effectFailed("declined"))
    #expect(failure.steps == [.send(.pay)])
  }

  @Test func anInitialStateThatBreaksAnInvariantFailsWithNoSteps() async throws {
    let explorer = Explorer(
      initialState: SmallCounter.State(count: -1), reducer: { _ in SmallCounter() },
      actions: SmallCounter.actions, invariants: [SmallCounter.neverNegative],
      configuration: ExplorationConfiguration(seed: 1, runs: 5, stepsPerRun: 5))
    let report = await explorer.explore()
    #expect(report.runs == 1)
    #expect(report.failure?.steps == [])
    #expect(report.failure?.kind == .invariant("the count is never negative"))
  }

  @Test func shrinkReducesAHandWrittenRun() async throws {
    let steps: [ExplorationStep<ExampleTodos.Action>] = [
      .send(.add("milk")), .send(.add("eggs")), .send(.add("bread")), .send(.toggle(2)), .send(.toggle(0)),
      .send(.select(2)), .send(.toggle(2)), .send(.select(1)), .send(.add("milk")), .send(.clearCompleted),
    ]
    let failure = try #require(await todosExplorer().shrink(steps))
    #expect(failure.seed == nil)
    #expect(failure.originalSteps == steps)
    #expect(
      failure.steps == [
        .send(.add("a")), .send(.add("a")), .send(.toggle(0)), .send(.select(1)), .send(.clearCompleted),
      ])
    #expect(await todosExplorer().shrink(Array(steps.dropLast())) == nil)
  }

  @Test func theJournalOpensAsADocumentWithOneEntryPerAction() async throws {
    let failure = try #require(await todosExplorer().explore().failure)
    let document = try JournalFile(data: failure.journalJSON)
    #expect(document.count == 5)
    #expect(document.actionText(at: 4).contains("clearCompleted"))
    #expect(failure.viewerHTML().hasPrefix("<!DOCTYPE html>"))
  }

  @Test func recordingEveryRunKeepsTheFailingRunBeforeShrinking() async throws {
    var explorer = todosExplorer()
    #expect(try #require(await explorer.explore().failure).originalJournalJSON == nil)
    explorer.configuration.recordsJournal = true
    let failure = try #require(await explorer.explore().failure)
    let original = try JournalFile(data: #require(failure.originalJournalJSON))
    #expect(original.count == 13)
    #expect(try JournalFile(data: failure.journalJSON).count == 5)
  }

  @Test func theJournalTimesAreTheTestClocks() async throws {
    let explorer = Explorer(
      initialState: DebouncedSearch.State(), reducer: { DebouncedSearch(clock: $0, isFixed: false) },
      actions: DebouncedSearch.actions, invariants: [DebouncedSearch.searchesAreNotEmpty],
      configuration: ExplorationConfiguration(
        seed: 1, runs: 200, stepsPerRun: 20,
        clockSteps: [.milliseconds(100), .milliseconds(300), .seconds(1)],
        wakeNextWeight: 0))
    let failure = try #require(await explorer.explore().failure)
    let document = try JournalFile(data: failure.journalJSON)
    #expect(document.entries.map(\.time) == [0, 0, 300_000_000])
    #expect(document.entries.map(\.causeKind) == ["user", "user", "effect"])
  }

  @Test func assertExplorationRecordsTheReportAsAnIssue() async {
    await withKnownIssue {
      await assertExploration(todosExplorer(), test: exploredTodosOptions)
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("Shrunk from 13 steps to 5") && text.contains("@Test func exploredTodosFailure()")
    }
  }

  @Test func assertExplorationRecordsNothingWhenEveryRunPasses() async {
    let report = await assertExploration(todosExplorer(runs: 20, fixed: true))
    #expect(report.runs == 20)
  }

  @Test func theRandomGeneratorGivesTheSameNumbersEverywhere() {
    var random = ExplorationRandom(seed: 42)
    let numbers = (0..<3).map { _ in random.next() }
    var again = ExplorationRandom(seed: 42)
    #expect(numbers == (0..<3).map { _ in again.next() })
    // xoshiro256** seeded through SplitMix64, as the reference algorithms compute them.
    #expect(numbers == [1_546_998_764_402_558_742, 6_990_951_692_964_543_102, 12_544_586_762_248_559_009])
    var bounded = ExplorationRandom(seed: 7)
    let draws = (0..<1000).map { _ in bounded.next(below: 6) }
    #expect(Set(draws) == Set(0..<6))
  }

  @Test func aWeightOfZeroIsNeverPicked() async {
    let generator = ActionGenerator<SmallCounter.State, SmallCounter.Action>.weighted([
      (0, .reset), (1, .increment), (0, .decrement),
    ])
    let explorer = Explorer(
      initialState: SmallCounter.State(), reducer: { _ in SmallCounter() }, actions: generator,
      invariants: [Invariant("never resets") { _, action, _ in action != .reset }],
      configuration: ExplorationConfiguration(seed: 5, runs: 10, stepsPerRun: 100))
    let report = await explorer.explore()
    #expect(report.failure == nil)
  }
}

/// A clock whose time moves one second each time it is read.
final class SteppingClock: Clock, Sendable {
  typealias Duration = Swift.Duration
  private let readings = Mutex(0)

  var now: TestClock.Instant {
    TestClock.Instant(
      offset: .seconds(
        readings.withLock { reading in
          defer { reading += 1 }
          return reading
        }))
  }

  var minimumResolution: Duration { .zero }

  func sleep(until deadline: TestClock.Instant, tolerance: Duration?) async throws {}
}

/// The worked example's generated test is ExploredTodosTest.swift, compiled with this target: run
/// as it is, against the fixed reducer, and here against the buggy one.
@Suite struct GeneratedExplorationTestTests {
  /// The committed file is the generator's output, after a first line that exempts it from the
  /// repository's line-length lint (its recorded states are long JSON literals).
  @Test func theCommittedTestIsTheGeneratedOne() async throws {
    let failure = try #require(await todosExplorer().explore().failure)
    #expect(try committed("ExploredTodosTest.swift") == failure.testSource(exploredTodosOptions))
  }

  @Test func theCommittedSearchTestIsTheGeneratedOne() async throws {
    let failure = try #require(await searchExplorer().explore().failure)
    #expect(try committed("ExploredSearchTest.swift") == failure.testSource(exploredSearchOptions))
  }

  @Test func theGeneratedSearchTestFailsOnTheBuggyReducer() async throws {
    try await withKnownIssue {
      try await DebouncedSearch.$isFixed.withValue(false) { try await exploredSearchFailure() }
    } matching: { issue in
      issue.description.contains("searchesSomething")
    }
  }

  @Test func theGeneratedSearchTestPassesOnTheFixedReducer() async throws {
    try await DebouncedSearch.$isFixed.withValue(true) { try await exploredSearchFailure() }
  }

  /// A committed generated test without its first line.
  private func committed(_ name: String) throws -> String {
    let url = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().appendingPathComponent(name)
    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(text.hasPrefix("// swift-format-ignore-file\n"))
    return String(text.drop { $0 != "\n" }.dropFirst())
  }

  @Test func theGeneratedTestFailsOnTheBuggyReducer() async throws {
    try await withKnownIssue {
      try await ExampleTodos.$isFixed.withValue(false) { try await exploredTodosFailure() }
    } matching: { issue in
      issue.description.contains("selectionAgrees")
    }
  }

  @Test func theGeneratedTestPassesOnTheFixedReducer() async throws {
    try await ExampleTodos.$isFixed.withValue(true) { try await exploredTodosFailure() }
  }
}
