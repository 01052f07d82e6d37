import ChronicleLocks
import Dispatch
import Synchronization

/// Runs a store's effect tasks and counts their jobs, so that a `TestClock` (ChronicleClocks) can wait until all
/// of them are suspended or finished before it moves time on.
///
/// A store creates every effect task with this activity as its task executor preference:
///
/// ```swift
/// Task(executorPreference: activity) {
///   await activity.bind { await effect() }
/// }
/// ```
///
/// Every job of those tasks — the first run, and each resumption after an `await` — is enqueued
/// here, counted, and run on the store's serial dispatch queue; the count drops when the job returns, which
/// happens exactly when the task suspends again or finishes. The activity is *quiescent* when no
/// job is queued or running: every effect task is waiting for something (a clock sleep, a
/// stream, the network) or done. Unlike counting tasks, this never waits for a task that is
/// blocked on input the test has yet to provide.
///
/// Resuming a continuation enqueues the task's next job synchronously, so a clock that wakes a
/// sleeper and then waits for quiescence waits for whatever the woken work does next — send an
/// action, start another timer, sleep again.
package final class TaskActivity: TaskExecutor, Sendable {
  private struct State {
    var jobs = 0
    var nextWaiterID: UInt64 = 0
    var waiters: [(id: UInt64, allowance: Int, resume: @Sendable () -> Void)] = []
  }

  /// What `bind` publishes through the task-local: which activity, and which task bound it.
  private final class Binding: Sendable {
    let activity: TaskActivity
    let taskHash: Int
    let isActive = Atomic<Bool>(true)

    init(activity: TaskActivity, taskHash: Int) {
      self.activity = activity
      self.taskHash = taskHash
    }
  }

  @TaskLocal private static var binding: Binding?

  /// Every activity that has run a job, held weakly, so a test clock can settle them all —
  /// including a store whose first effect has not reached its first sleep yet.
  private static let registry = SanitizerVisibleMutex<[WeakActivity]>([])
  private struct WeakActivity { weak var activity: TaskActivity? }

  /// Where this store's effect jobs run, one at a time. A serial queue is served by the
  /// overcommitting thread pool, which adds a thread when every one is busy. Global and
  /// concurrent queues share a pool of one thread per core with Swift's cooperative executor on
  /// Linux, so two effects that compute without suspending would starve every task in the process.
  private let queue = DispatchQueue(label: "chronicle.effects")

  private let state = SanitizerVisibleMutex(State())
  private let registered = Atomic<Bool>(false)

  /// Creates an activity with no jobs.
  package init() {}

  /// The live activities that have run at least one job.
  package static var all: [TaskActivity] {
    registry.withLock { list in
      list.removeAll { $0.activity == nil }
      return list.compactMap(\.activity)
    }
  }

  /// Jobs queued or running.
  package var runningCount: Int { state.withLock { $0.jobs } }

  /// Queues `job` on the effects queue, counting it until it returns.
  package func enqueue(_ job: consuming ExecutorJob) {
    if !registered.exchange(true, ordering: .relaxed) {
      Self.registry.withLock { $0.append(WeakActivity(activity: self)) }
    }
    let job = UnownedJob(job)
    state.withLock { $0.jobs += 1 }
    queue.async {
      job.runSynchronously(on: self.asUnownedTaskExecutor())
      self.jobReturned()
    }
  }

  private func jobReturned() {
    let ready = state.withLock { state -> [@Sendable () -> Void] in
      state.jobs -= 1
      let jobs = state.jobs
      let ready = state.waiters.filter { jobs <= $0.allowance }.map(\.resume)
      if !ready.isEmpty { state.waiters.removeAll { jobs <= $0.allowance } }
      return ready
    }
    for resume in ready { resume() }
  }

  /// Suspends until no job is queued or running — or, when the caller itself runs on this
  /// activity, until its own job is the only one. Returns early if the calling task is cancelled.
  package func waitUntilQuiescent() async {
    let allowance = TaskActivity.current === self ? 1 : 0
    let id: UInt64? = state.withLock { state in
      guard state.jobs > allowance else { return nil }
      defer { state.nextWaiterID += 1 }
      return state.nextWaiterID
    }
    guard let id else { return }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        // The caller's own job ends when it suspends here, so from now on it does not count.
        let resumeNow = state.withLock { state in
          if state.jobs == 0 || Task.isCancelled { return true }
          state.waiters.append((id, 0, { continuation.resume() }))
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      let resume = state.withLock { state in
        state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0).resume }
      }
      resume?()
    }
  }

  /// Blocks the calling thread until no job is queued or running — or, when the caller itself
  /// runs on this activity, until its own job is the only one — or until `deadline`. Returns
  /// whether the activity became quiescent.
  ///
  /// For code that cannot suspend, such as a deinitializer. The jobs it waits for run on the
  /// store's own queue, never on the caller's thread or Swift's cooperative pool, so blocking
  /// here cannot keep them from running.
  package func blockUntilQuiescent(deadline: DispatchTime) -> Bool {
    let allowance = TaskActivity.current === self ? 1 : 0
    let semaphore = DispatchSemaphore(value: 0)
    let id: UInt64? = state.withLock { state in
      guard state.jobs > allowance else { return nil }
      defer { state.nextWaiterID += 1 }
      state.waiters.append((state.nextWaiterID, allowance, { semaphore.signal() }))
      return state.nextWaiterID
    }
    guard let id else { return true }
    if semaphore.wait(timeout: deadline) == .success { return true }
    // Timed out — unless the last job returned meanwhile and already took the waiter out.
    return state.withLock { state in
      guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return true }
      state.waiters.remove(at: index)
      return false
    }
  }

  /// Whether the activity has no job besides, possibly, the caller's own.
  package var isQuiescentForCaller: Bool {
    runningCount <= (TaskActivity.current === self ? 1 : 0)
  }

  /// Runs `operation` in the current task with this activity bound to it, so ``current``
  /// returns it (and clocks can find the store a sleeping task belongs to).
  package func bind<R>(
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> R
  ) async rethrows -> R {
    let binding = Binding(activity: self, taskHash: Self.currentTaskHash ?? 0)
    defer { binding.isActive.store(false, ordering: .releasing) }
    return try await Self.$binding.withValue(binding, operation: operation, isolation: isolation)
  }

  /// The activity bound to the current task by ``bind(isolation:_:)``, or `nil` — also in tasks
  /// that merely inherited the binding (child tasks, `Task {}` created inside `bind`).
  package static var current: TaskActivity? {
    guard let binding, binding.isActive.load(ordering: .acquiring),
      let taskHash = currentTaskHash, taskHash == binding.taskHash
    else { return nil }
    return binding.activity
  }

  private static var currentTaskHash: Int? {
    withUnsafeCurrentTask { $0?.hashValue }
  }
}
