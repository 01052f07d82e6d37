import ChronicleLocks
import ChronicleStore
import Synchronization

/// A clock whose time moves only when a test advances it.
///
/// Give it to the code under test wherever that code takes a `Clock`, then move time by hand:
///
/// ```swift
/// let clock = TestClock()
/// let store = Store(initialState: Timer.State(), reducer: Timer(clock: clock))
/// store.send(.start)                        // a timer effect ticking every second
/// await clock.advance(by: .seconds(3))
/// #expect(store.state.ticks == 3)
/// ```
///
/// Nothing sleeps for real, so a test runs as fast as its code and never depends on timing.
///
/// ## What an advance delivers
///
/// ``advance(by:)`` wakes the due sleepers one at a time, earliest deadline first, ties in the
/// order the sleeps began, and sets ``now`` to each one's deadline as it wakes it. After each
/// wake it waits until the work it woke has settled, so that whatever that work does — sleep
/// again (the next tick of a repeating timer), send an action that starts another timer — is in
/// place before the next sleeper is chosen. A sleep that the woken work begins and that falls
/// due within the advance is delivered by that same advance.
///
/// "Settled" is exact for work that a store runs: each store effect runs on the store's
/// `TaskActivity`, a task executor that counts its jobs, and the clock waits until no store
/// has a job queued or running — every effect is suspended (on this clock, a stream, anything) or
/// done. An effect blocked on input the test has not provided yet is suspended, so it never
/// holds an advance up. A sleeper in any other task is given a fixed number of `Task.yield()`s
/// after it wakes, which is usually, but not provably, enough for it to run to its next sleep.
///
/// ## Concurrency
///
/// All methods may be called from any task. Advances are serialized in call order: each runs to
/// completion before the next starts, every sleeper is woken exactly once, and ``now`` never moves
/// backwards. A sleep cancelled at any moment, even while an advance is waking it, is either
/// woken or cancelled, never both.
public final class TestClock: Clock, Sendable {
  /// The clock's duration type: the standard library's `Duration`.
  public typealias Duration = Swift.Duration

  /// A point in a ``TestClock``'s time: an offset from the clock's start.
  ///
  /// ```swift
  /// await clock.advance(by: .seconds(1))
  /// #expect(clock.now == TestClock.Instant(offset: .seconds(1)))
  /// ```
  public struct Instant: InstantProtocol, Hashable, Comparable, Sendable {
    /// The time elapsed since the clock's start.
    public let offset: Duration

    /// Creates the instant `offset` after the clock's start.
    ///
    /// ```swift
    /// let clock = TestClock(now: .init(offset: .seconds(10)))
    /// ```
    public init(offset: Duration = .zero) {
      self.offset = offset
    }

    /// Returns the instant `duration` after this one (before it, if `duration` is negative).
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// Returns the duration from this instant to `other`; negative if `other` is earlier.
    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    /// Returns whether `lhs` comes before `rhs`.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    let activity: TaskActivity?
    let continuation: CheckedContinuation<Void, any Error>

    func precedes(_ other: Sleeper) -> Bool {
      (deadline, id) < (other.deadline, other.id)
    }
  }

  private struct State {
    var now: Instant
    var nextSleeperID: UInt64 = 0
    /// Sorted by deadline, then registration order: the front is always the next to wake.
    var sleepers: [Sleeper] = []

    mutating func insert(_ sleeper: Sleeper) {
      var low = 0
      var high = sleepers.count
      while low < high {
        let middle = (low + high) / 2
        if sleepers[middle].precedes(sleeper) { low = middle + 1 } else { high = middle }
      }
      sleepers.insert(sleeper, at: low)
    }

    mutating func removeSleeper(id: UInt64) -> Sleeper? {
      sleepers.firstIndex { $0.id == id }.map { sleepers.remove(at: $0) }
    }
  }

  private enum Step {
    case wake(Sleeper)
    case reachedTarget
    case reachedStepLimit
  }

  /// How many times an advance yields after waking a sleeper that no `TaskActivity` tracks,
  /// to let it run before the next sleeper is chosen.
  private static let yieldsPerUntrackedWake = 64

  private let state: SanitizerVisibleMutex<State>
  private let turns = TurnQueue()

  /// Creates a clock whose current time is `now`.
  ///
  /// ```swift
  /// let clock = TestClock()
  /// #expect(clock.now == TestClock.Instant(offset: .zero))
  /// ```
  public init(now: Instant = .init()) {
    state = SanitizerVisibleMutex(State(now: now))
  }

  /// The clock's current time; it changes only when the clock is advanced or run.
  public var now: Instant {
    state.withLock { $0.now }
  }

  /// The smallest step the clock can take: `.zero`, since it jumps straight to each deadline.
  public var minimumResolution: Duration {
    .zero
  }

  /// The number of sleeps that have begun and are neither woken nor cancelled.
  ///
  /// ```swift
  /// task.cancel()
  /// _ = await task.result
  /// #expect(clock.sleeperCount == 0)
  /// ```
  public var sleeperCount: Int {
    state.withLock { $0.sleepers.count }
  }

  /// Suspends until an advance of this clock reaches `deadline`.
  ///
  /// Returns at once if `deadline` is not after ``now``. `tolerance` is ignored: the clock wakes
  /// each sleeper exactly at its deadline.
  ///
  /// ```swift
  /// try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
  /// ```
  ///
  /// - Throws: `CancellationError` if the task is cancelled before or during the sleep; the
  ///   sleep is then removed from the clock.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    // Read here, in the sleeping task itself: a task that merely inherited the binding gets nil.
    let activity = TaskActivity.current
    let id: UInt64? = state.withLock { state in
      guard deadline > state.now else { return nil }
      defer { state.nextSleeperID += 1 }
      return state.nextSleeperID
    }
    guard let id else { return }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let registered: Result<Bool, CancellationError> = state.withLock { state in
          // Checked under the lock that `onCancel` takes: either it already ran (and found
          // nothing to remove), and the flag is visible here, or it runs later and finds us.
          if Task.isCancelled { return .failure(CancellationError()) }
          guard deadline > state.now else { return .success(false) }
          state.insert(Sleeper(id: id, deadline: deadline, activity: activity, continuation: continuation))
          return .success(true)
        }
        switch registered {
        case .failure(let error): continuation.resume(throwing: error)
        case .success(false): continuation.resume()
        case .success(true): break
        }
      }
    } onCancel: {
      guard let sleeper = state.withLock({ $0.removeSleeper(id: id) }) else { return }
      sleeper.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward by `duration`, waking every sleeper that falls due on the way.
  ///
  /// ```swift
  /// await clock.advance(by: .seconds(1))
  /// ```
  ///
  /// The advance is measured from ``now`` at the moment this call's turn comes, after the advances
  /// called before it. A negative `duration` changes nothing. If the calling task is cancelled,
  /// the advance stops before waking another sleeper and returns, leaving ``now`` at the deadline
  /// of the last sleeper it woke (unchanged if it woke none).
  public func advance(by duration: Duration) async {
    await deliver(maxSteps: nil) { $0.advanced(by: duration) }
  }

  /// Moves time forward to `deadline`, waking every sleeper that falls due on the way.
  ///
  /// ```swift
  /// await clock.advance(to: TestClock.Instant(offset: .seconds(5)))
  /// ```
  ///
  /// If `deadline` is not after ``now`` (for instance because a concurrent advance already went
  /// further), nothing changes: time never moves backwards. Cancellation is handled as in
  /// ``advance(by:)``.
  public func advance(to deadline: Instant) async {
    await deliver(maxSteps: nil) { _ in deadline }
  }

  /// Advances to the next deadline again and again until no sleeper is left.
  ///
  /// ```swift
  /// store.send(.startCountdown)     // ten ticks, then stops
  /// await clock.run()
  /// #expect(store.state.remaining == 0)
  /// ```
  ///
  /// Work that keeps sleeping forever (a repeating timer) would keep `run` going forever, so it
  /// stops after waking `maxSteps` sleepers, leaving the remaining ones asleep and ``now`` at the
  /// deadline of the last one woken.
  ///
  /// - Returns: `true` if no sleeper is left; `false` if it stopped at `maxSteps` or because the
  ///   calling task was cancelled.
  @discardableResult
  public func run(maxSteps: Int = 10_000) async -> Bool {
    await deliver(maxSteps: maxSteps) { _ in nil }
  }

  /// Wakes due sleepers one at a time, up to the instant `makeTarget` returns for the current time
  /// (no limit if it returns `nil`) and at most `maxSteps` of them (no limit if `nil`).
  ///
  /// - Returns: whether it stopped because no sleeper was due any more.
  @discardableResult
  private func deliver(maxSteps: Int?, target makeTarget: (Instant) -> Instant?) async -> Bool {
    guard await turns.beginTurn() else { return false }
    defer { turns.endTurn() }
    let target = makeTarget(now)
    var steps = 0
    while true {
      await settleTrackedActivities()
      if Task.isCancelled { return false }
      let step = state.withLock { state -> Step in
        guard let next = state.sleepers.first, target.map({ next.deadline <= $0 }) ?? true else {
          if let target, target > state.now { state.now = target }
          return .reachedTarget
        }
        if let maxSteps, steps >= maxSteps { return .reachedStepLimit }
        state.sleepers.removeFirst()
        state.now = max(state.now, next.deadline)
        return .wake(next)
      }
      switch step {
      case .reachedTarget:
        return true
      case .reachedStepLimit:
        return false
      case .wake(let sleeper):
        steps += 1
        // Resuming enqueues the task's next job on its activity synchronously, so the settle at
        // the top of the loop waits for it.
        sleeper.continuation.resume()
        if sleeper.activity == nil {
          for _ in 0..<Self.yieldsPerUntrackedWake { await Task.yield() }
        }
      }
    }
  }

  /// Waits until every store's activity is quiescent at once: waiting for one can wake work that
  /// makes another busy again, so it re-checks all of them after each wait.
  private func settleTrackedActivities() async {
    while !Task.isCancelled {
      guard let busy = TaskActivity.all.first(where: { !$0.isQuiescentForCaller }) else { return }
      await busy.waitUntilQuiescent()
    }
  }
}
