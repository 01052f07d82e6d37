import ChronicleTestSupport
import Dispatch
import Synchronization
import Testing

@testable import ChronicleStore

/// A value only the lock guards: ThreadSanitizer reports any access the lock does not order.
private final class Guarded: @unchecked Sendable {
  // Unchecked: only touched while holding the `StoreLock` under test.
  var value = 0
}

/// A `StoreLock` with its value, in a class so that threads can share it.
private final class LockedCounter: Sendable {
  let lock = StoreLock()
  let guarded = Guarded()
}

@Suite struct StoreLockTests {
  @Test func theLockIsExclusiveWhenEightThreadsContendForIt() {
    let counter = LockedCounter()
    let iterations = 20_000
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      let thread = ThreadID.current
      for index in 0..<iterations {
        if index % 4 == 0, counter.lock.withLockIfAvailable(thread, { counter.guarded.value += 1 }) != nil {
          continue
        }
        counter.lock.withLock(thread) { counter.guarded.value += 1 }
      }
    }
    #expect(counter.lock.withLock(ThreadID.current) { counter.guarded.value } == 8 * iterations)
    #expect(counter.lock.owner.load(ordering: .relaxed) == 0)
    #expect(counter.lock.waiters.load(ordering: .relaxed) == 0)
  }

  @Test func theOwnerIsTheThreadHoldingTheLock() {
    let counter = LockedCounter()
    let thread = ThreadID.current
    let inside = counter.lock.withLock(thread) { counter.lock.owner.load(ordering: .relaxed) }
    #expect(inside == thread)
    #expect(counter.lock.owner.load(ordering: .relaxed) == 0)
  }

  @Test func aLockTakenIsNotAvailable() {
    let counter = LockedCounter()
    let thread = ThreadID.current
    let nested = counter.lock.withLock(thread) { counter.lock.withLockIfAvailable(thread) { 1 } }
    #expect(nested == nil)
  }

  @Test func contendedSendsAreEachReducedOnceAndOneAtATime() {
    let inside = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
    let exclusive = AnyMiddleware<Counter.State, Counter.Action> { action, _, next in
      if inside.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
        overlaps.add(1, ordering: .relaxed)
      }
      next(action)
      inside.subtract(1, ordering: .sequentiallyConsistent)
    }
    let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [exclusive])
    let iterations = 5_000
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<iterations { store.send(.increment) }
    }
    #expect(store.state.count == 8 * iterations)
    #expect(overlaps.load(ordering: .relaxed) == 0)
  }
}
