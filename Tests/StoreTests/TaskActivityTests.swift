import ChronicleStore
import ChronicleTestSupport
import Synchronization
import Testing

@Suite("Task activity") struct TaskActivityTests {
  struct Failure: Error, Equatable {}

  @Test func noJobsMeansQuiescent() async {
    let activity = TaskActivity()
    #expect(activity.runningCount == 0)
    await activity.waitUntilQuiescent()
  }

  @Test func aRunningJobIsCountedUntilItsTaskSuspendsOrEnds() async {
    let activity = TaskActivity()
    let started = Signal()
    let release = Atomic<Bool>(false)
    let task = Task(executorPreference: activity) {
      started.fire()
      while !release.load(ordering: .acquiring) {}  // a job that does not suspend
    }
    await started.wait()
    #expect(activity.runningCount == 1)
    let waiter = Task { await activity.waitUntilQuiescent() }
    release.store(true, ordering: .releasing)
    await task.value
    await waiter.value
    #expect(activity.runningCount == 0)
  }

  @Test func aTaskBlockedOnInputIsQuiescent() async {
    let activity = TaskActivity()
    let (stream, input) = AsyncStream.makeStream(of: Int.self)
    let seen = Recorder<Int>()
    let listener = Task(executorPreference: activity) {
      for await value in stream { seen.append(value) }
    }
    // Suspended waiting for the stream: nothing runs, so waiting for quiescence returns.
    await activity.waitUntilQuiescent()
    input.yield(1)
    input.finish()
    await listener.value
    #expect(seen.values == [1])
    // A task's value is published from inside its last job, which counts until it returns.
    await activity.waitUntilQuiescent()
    #expect(activity.runningCount == 0)
  }

  @Test func cancelledWaiterReturns() async {
    let activity = TaskActivity()
    let started = Signal()
    let release = Atomic<Bool>(false)
    let busy = Task(executorPreference: activity) {
      started.fire()
      while !release.load(ordering: .acquiring) {}
    }
    await started.wait()
    let waiter = Task { await activity.waitUntilQuiescent() }
    waiter.cancel()
    await waiter.value
    #expect(activity.runningCount == 1)
    release.store(true, ordering: .releasing)
    await busy.value
  }

  @Test func currentIsTheBoundActivityOnlyInsideBind() async {
    let activity = TaskActivity()
    #expect(TaskActivity.current == nil)
    let inside = await activity.bind { TaskActivity.current }
    #expect(inside === activity)
    #expect(TaskActivity.current == nil)
  }

  @Test func bindReturnsTheOperationsValueAndRethrowsItsError() async {
    let activity = TaskActivity()
    #expect(await activity.bind { 42 } == 42)
    await #expect(throws: Failure.self) {
      try await activity.bind { throw Failure() }
    }
    #expect(TaskActivity.current == nil)
  }

  @Test func currentIsNilInTasksCreatedInsideBind() async {
    let activity = TaskActivity()
    let seen = await activity.bind {
      async let structuredChild = TaskActivity.current
      let groupChild = await withTaskGroup(of: TaskActivity?.self) { group in
        group.addTask { TaskActivity.current }
        return await group.next()!
      }
      let unstructured = await Task { TaskActivity.current }.value
      let stillBound = TaskActivity.current
      return [await structuredChild, groupChild, unstructured, stillBound]
    }
    #expect(seen.map { $0 === activity } == [false, false, false, true])
  }

  @Test func currentIsNilInTaskThatOutlivesBind() async {
    let activity = TaskActivity()
    let gate = AsyncStream<Void>.makeStream()
    let outliving = await activity.bind {
      Task {
        for await _ in gate.stream {}
        return TaskActivity.current
      }
    }
    gate.continuation.finish()
    #expect(await outliving.value == nil)
  }

  @Test func nestedBindMakesTheInnerActivityCurrent() async {
    let outer = TaskActivity()
    let inner = TaskActivity()
    let seen = await outer.bind {
      let nested = await inner.bind { TaskActivity.current }
      return [nested, TaskActivity.current]
    }
    #expect(seen[0] === inner)
    #expect(seen[1] === outer)
  }
}
