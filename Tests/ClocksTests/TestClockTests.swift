import ChronicleClocks
import ChronicleStore
import ChronicleTestSupport
import Synchronization
import Testing

@Suite("Test clock") struct TestClockTests {
  /// A sleeper's record of its wake-up: who woke, and what the clock said at that moment.
  struct Wake: Equatable, Sendable, CustomStringConvertible {
    let label: String
    let at: Duration

    init(_ label: String, _ at: Duration) {
      self.label = label
      self.at = at
    }

    var description: String { "\(label)@\(at)" }
  }

  @Test func startsAtGivenInstantWithZeroResolution() {
    let clock = TestClock(now: .init(offset: .seconds(7)))
    #expect(clock.now == TestClock.Instant(offset: .seconds(7)))
    #expect(clock.minimumResolution == .zero)
    #expect(TestClock().now.offset == .zero)
  }

  @Test func instantArithmeticIsOffsetArithmetic() {
    let start = TestClock.Instant(offset: .seconds(2))
    let later = start.advanced(by: .milliseconds(1500))
    #expect(later.offset == .milliseconds(3500))
    #expect(start.duration(to: later) == .milliseconds(1500))
    #expect(later.duration(to: start) == .milliseconds(-1500))
    #expect(start < later)
    #expect(!(later < start))
    #expect(start.advanced(by: .zero) == start)
  }

  @Test func sleepReturnsOnlyOnceAdvancePassesItsDeadline() async throws {
    let clock = TestClock()
    let activity = TaskActivity()
    let wakes = Recorder<Wake>()
    let sleeper = startEffect(on: activity) {
      try await clock.sleep(for: .seconds(1))
      wakes.append(Wake("sleeper", clock.now.offset))
    }

    await clock.advance(by: .milliseconds(999))
    #expect(wakes.values == [])
    #expect(clock.sleeperCount == 1)
    #expect(clock.now.offset == .milliseconds(999))

    await clock.advance(by: .milliseconds(1))
    #expect(wakes.values == [Wake("sleeper", .seconds(1))])
    #expect(clock.sleeperCount == 0)
    try await sleeper.value
  }

  @Test func sleepersWakeInDeadlineOrderWithTiesInRegistrationOrder() async throws {
    let clock = TestClock()
    let first = TaskActivity()
    let second = TaskActivity()
    let wakes = Recorder<Wake>()
    let plan: [(String, TaskActivity, Duration)] = [
      ("a", first, .milliseconds(300)), ("b", second, .milliseconds(100)),
      ("c", first, .milliseconds(200)), ("d", first, .milliseconds(100)),
      ("e", second, .milliseconds(300)), ("f", second, .milliseconds(200)),
    ]
    var tasks: [Task<Void, any Error>] = []
    for (label, activity, delay) in plan {
      tasks.append(
        startEffect(on: activity) {
          try await clock.sleep(for: delay)
          wakes.append(Wake(label, clock.now.offset))
        })
      // Registration order is the order of this loop.
      await activity.waitUntilQuiescent()
    }

    await clock.advance(by: .seconds(1))

    #expect(
      wakes.values == [
        Wake("b", .milliseconds(100)), Wake("d", .milliseconds(100)),
        Wake("c", .milliseconds(200)), Wake("f", .milliseconds(200)),
        Wake("a", .milliseconds(300)), Wake("e", .milliseconds(300)),
      ])
    #expect(clock.now.offset == .seconds(1))
    for task in tasks { try await task.value }
  }

  @Test func sleepUntilInstantNotAfterNowReturnsAtOnce() async throws {
    let clock = TestClock(now: .init(offset: .seconds(5)))
    try await clock.sleep(until: clock.now)
    try await clock.sleep(until: .init(offset: .seconds(1)))
    try await clock.sleep(for: .zero)
    try await clock.sleep(for: .seconds(-3))
    #expect(clock.sleeperCount == 0)
    #expect(clock.now.offset == .seconds(5))
  }

  @Test func advancingToAnEarlierInstantChangesNothing() async {
    let clock = TestClock()
    await clock.advance(to: .init(offset: .seconds(5)))
    await clock.advance(to: .init(offset: .seconds(2)))
    #expect(clock.now.offset == .seconds(5))
    await clock.advance(by: .seconds(-1))
    #expect(clock.now.offset == .seconds(5))
    await clock.advance(by: .zero)
    #expect(clock.now.offset == .seconds(5))
  }

  @Test func repeatingTimerTicksExactlyOncePerPeriodAndStopsWhenCancelled() async {
    let clock = TestClock()
    let activity = TaskActivity()
    let ticks = Recorder<Duration>()
    let timer = startEffect(on: activity) {
      while true {
        try await clock.sleep(for: .milliseconds(100))
        ticks.append(clock.now.offset)
      }
    }

    await clock.advance(by: .seconds(1))
    #expect(ticks.values == (1...10).map { .milliseconds(100 * $0) })

    await clock.advance(by: .milliseconds(250))
    #expect(ticks.values == (1...12).map { .milliseconds(100 * $0) })
    #expect(clock.now.offset == .milliseconds(1250))

    timer.cancel()
    await #expect(throws: CancellationError.self) { try await timer.value }
    #expect(clock.sleeperCount == 0)
    // A task's value is published from inside its last job, which counts until it returns.
    await activity.waitUntilQuiescent()
    #expect(activity.runningCount == 0)

    await clock.advance(by: .seconds(10))
    #expect(ticks.values.count == 12)
  }

  @Test func sleepBegunByWokenWorkIsDeliveredInTheSameAdvance() async throws {
    let clock = TestClock()
    let activity = TaskActivity()
    let wakes = Recorder<Wake>()
    let effect = startEffect(on: activity) {
      try await clock.sleep(for: .milliseconds(100))
      wakes.append(Wake("tick", clock.now.offset))
      // As if the tick's action started a second effect with its own timer.
      startEffect(on: activity) {
        try await clock.sleep(for: .milliseconds(50))
        wakes.append(Wake("started by tick", clock.now.offset))
      }
      try await clock.sleep(for: .milliseconds(300))
      wakes.append(Wake("second sleep", clock.now.offset))
    }

    await clock.advance(by: .milliseconds(500))

    #expect(
      wakes.values == [
        Wake("tick", .milliseconds(100)),
        Wake("started by tick", .milliseconds(150)),
        Wake("second sleep", .milliseconds(400)),
      ])
    #expect(clock.sleeperCount == 0)
    try await effect.value
  }

  @Test func cancelledSleeperThrowsCancellationErrorAndLeavesTheClock() async {
    let clock = TestClock()
    let activity = TaskActivity()
    let wakes = Recorder<Wake>()
    let sleeper = startEffect(on: activity) {
      try await clock.sleep(for: .seconds(1))
      wakes.append(Wake("sleeper", clock.now.offset))
    }
    await activity.waitUntilQuiescent()
    #expect(clock.sleeperCount == 1)

    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.sleeperCount == 0)
    // A task's value is published from inside its last job, which counts until it returns.
    await activity.waitUntilQuiescent()
    #expect(activity.runningCount == 0)

    await clock.advance(by: .seconds(2))
    #expect(wakes.values == [])
  }

  @Test func sleepInAlreadyCancelledTaskThrowsWithoutRegistering() async {
    let clock = TestClock()
    let sleeper = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(1))
    }
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.sleeperCount == 0)
  }

  @Test func cancellingSleepersWhileAdvancingResumesEachExactlyOnce() async {
    let clock = TestClock()
    let activity = TaskActivity()
    let count = 1_000
    let woken = Recorder<Int>()
    let sleepers = (0..<count).map { index in
      startEffect(on: activity) {
        try await clock.sleep(for: .milliseconds(index + 1))
        woken.append(index)
      }
    }
    await activity.waitUntilQuiescent()
    #expect(clock.sleeperCount == count)

    await withTaskGroup(of: Void.self) { group in
      group.addTask { await clock.advance(by: .seconds(2)) }
      // One canceller chases the advance from the front (racing it for the same sleepers), the
      // other comes from the back.
      group.addTask {
        for index in stride(from: 0, to: count, by: 2) {
          sleepers[index].cancel()
          await Task.yield()
        }
      }
      group.addTask {
        for index in stride(from: count - 1, through: 0, by: -2) {
          sleepers[index].cancel()
          await Task.yield()
        }
      }
    }

    var succeeded: [Int] = []
    var cancelled = 0
    for (index, sleeper) in sleepers.enumerated() {
      switch await sleeper.result {
      case .success: succeeded.append(index)
      case .failure(let error):
        #expect(error is CancellationError)
        cancelled += 1
      }
    }
    #expect(succeeded.count + cancelled == count)
    #expect(woken.values == succeeded)
    #expect(clock.sleeperCount == 0)
    // A task's value is published from inside its last job, which counts until it returns.
    await activity.waitUntilQuiescent()
    #expect(activity.runningCount == 0)
    #expect(clock.now.offset == .seconds(2))
  }

  @Test func concurrentAdvancesWakeEachSleeperOnceInOrder() async throws {
    let clock = TestClock()
    let activity = TaskActivity()
    let wakes = Recorder<Wake>()
    let sleepers = (1...100).map { index in
      startEffect(on: activity) {
        try await clock.sleep(for: .milliseconds(index))
        wakes.append(Wake("\(index)", clock.now.offset))
      }
    }
    await activity.waitUntilQuiescent()

    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<10 {
        group.addTask { await clock.advance(by: .milliseconds(10)) }
      }
    }

    #expect(wakes.values == (1...100).map { Wake("\($0)", .milliseconds($0)) })
    #expect(clock.now.offset == .milliseconds(100))
    for sleeper in sleepers { try await sleeper.value }
  }

  @Test func concurrentAdvancesToInstantsNeverMoveTimeBackwards() async throws {
    let clock = TestClock()
    let activity = TaskActivity()
    let wakes = Recorder<Wake>()
    let sleepers = (1...50).map { index in
      startEffect(on: activity) {
        try await clock.sleep(for: .milliseconds(index))
        wakes.append(Wake("\(index)", clock.now.offset))
      }
    }
    await activity.waitUntilQuiescent()
    let lags = Recorder<Duration>()

    await withTaskGroup(of: Void.self) { group in
      for target in [30, 10, 50, 20, 40] {
        group.addTask {
          await clock.advance(to: .init(offset: .milliseconds(target)))
          lags.append(clock.now.offset - .milliseconds(target))
        }
      }
    }

    #expect(wakes.values == (1...50).map { Wake("\($0)", .milliseconds($0)) })
    #expect(clock.now.offset == .milliseconds(50))
    #expect(lags.values.count == 5)
    #expect(lags.values.allSatisfy { $0 >= .zero })
    for sleeper in sleepers { try await sleeper.value }
  }

  @Test func runWakesEverySleeperAndReportsDrained() async throws {
    let clock = TestClock()
    let activity = TaskActivity()
    let wakes = Recorder<Wake>()
    let countdown = startEffect(on: activity) {
      for remaining in (0..<3).reversed() {
        try await clock.sleep(for: .seconds(1))
        wakes.append(Wake("\(remaining)", clock.now.offset))
      }
    }

    let drained = await clock.run()

    #expect(drained)
    #expect(wakes.values == [Wake("2", .seconds(1)), Wake("1", .seconds(2)), Wake("0", .seconds(3))])
    #expect(clock.now.offset == .seconds(3))
    try await countdown.value
  }

  @Test func runStopsAfterMaxStepsForEndlessTimer() async {
    let clock = TestClock()
    let activity = TaskActivity()
    let ticks = Recorder<Duration>()
    let timer = startEffect(on: activity) {
      while true {
        try await clock.sleep(for: .milliseconds(100))
        ticks.append(clock.now.offset)
      }
    }

    let drained = await clock.run(maxSteps: 20)

    #expect(!drained)
    #expect(ticks.values == (1...20).map { .milliseconds(100 * $0) })
    #expect(clock.now.offset == .seconds(2))
    #expect(clock.sleeperCount == 1)
    timer.cancel()
    _ = await timer.result
    #expect(clock.sleeperCount == 0)
  }

  @Test func sleeperOutsideAnyActivityIsWokenByAdvance() async throws {
    let clock = TestClock()
    let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
    while clock.sleeperCount == 0 { await Task.yield() }

    await clock.advance(by: .seconds(3))

    try await sleeper.value
    #expect(clock.sleeperCount == 0)
    #expect(clock.now.offset == .seconds(3))
  }

  @Test func advanceFromInsideAnEffectDoesNotWaitForItself() async throws {
    let clock = TestClock()
    let activity = TaskActivity()
    let log = Recorder<String>()
    let sleeper = startEffect(on: activity) {
      try await clock.sleep(for: .seconds(1))
      log.append("woke at \(clock.now.offset)")
    }
    let driver = startEffect(on: activity) {
      await clock.advance(by: .seconds(1))
      log.append("advanced")
    }

    try await driver.value
    try await sleeper.value
    #expect(log.values == ["woke at 1.0 seconds", "advanced"])
  }

  @Test func cancelledAdvanceReturnsWithoutMovingTime() async {
    let clock = TestClock()
    let activity = TaskActivity()
    let started = Signal()
    let release = Atomic<Bool>(false)
    let busy = Task(executorPreference: activity) {
      started.fire()
      while !release.load(ordering: .acquiring) {}  // a job that never suspends on its own
    }
    await started.wait()
    let advance = Task { await clock.advance(by: .seconds(1)) }
    advance.cancel()
    await advance.value

    #expect(clock.now.offset == .zero)
    release.store(true, ordering: .releasing)
    await busy.value
  }

  @Test func sleepsThroughAnExistentialClock() async throws {
    let clock = TestClock()
    let activity = TaskActivity()
    let anyClock: any Clock<Duration> = clock
    let wakes = Recorder<Wake>()
    let sleeper = startEffect(on: activity) {
      try await anyClock.sleep(for: .seconds(2))
      wakes.append(Wake("sleeper", clock.now.offset))
    }

    await clock.advance(by: .seconds(5))

    #expect(wakes.values == [Wake("sleeper", .seconds(2))])
    try await sleeper.value
  }

  @Test func effectAwaitingOtherInputDoesNotHoldUpAdvance() async throws {
    let clock = TestClock()
    let activity = TaskActivity()
    let input = AsyncStream<String>.makeStream()
    let log = Recorder<String>()
    let listener = startEffect(on: activity) {
      for await line in input.stream { log.append(line) }
    }
    let timer = startEffect(on: activity) {
      try await clock.sleep(for: .seconds(1))
      log.append("tick at \(clock.now.offset)")
    }

    await clock.advance(by: .seconds(1))
    #expect(log.values == ["tick at 1.0 seconds"])

    input.continuation.finish()
    try await listener.value
    try await timer.value
    // A task's value is published from inside its last job, which counts until it returns.
    await activity.waitUntilQuiescent()
    #expect(activity.runningCount == 0)
  }

  @Test func releasedActivityIsNoLongerTracked() async throws {
    let clock = TestClock()
    weak var released: TaskActivity?
    do {
      let activity = TaskActivity()
      released = activity
      try await startEffect(on: activity) {}.value
    }
    // The finished task lets go of its executor preference (the activity) on its own thread,
    // possibly just after `value` has returned here: give it turns to do so before checking.
    for _ in 0..<10_000 where released != nil { await Task.yield() }
    #expect(released == nil)
    #expect(!TaskActivity.all.contains { $0 === released })
    await clock.advance(by: .seconds(1))
    #expect(clock.now.offset == .seconds(1))
  }
}
