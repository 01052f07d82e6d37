import Foundation
import Synchronization

/// The store's lock, whose word is the thread holding it: taking the lock records its owner, and a
/// thread tells a re-entrant call by finding its own id there.
///
/// Uncontended, taking it is one compare-and-exchange and releasing it one exchange and a load.
/// A `Mutex` paired with a separate owner word cost ten instructions more per `send` (106 against
/// 96, `Benchmarks/callgrind.sh`): two reads of the thread's id for the `Mutex`, the owner's two
/// stores, and the ordering edge ThreadSanitizer needs around `Mutex` (these atomics are inlined
/// into this module and instrumented, so TSan sees this lock's ordering itself).
///
/// A thread that finds the lock taken parks on a condition until the holder releases it. The
/// holder's release (a sequentially consistent exchange) is ordered with its read of `waiters`,
/// and a parking thread counts itself in `waiters` before trying again under the condition's
/// lock, so either the holder sees the waiter and wakes one, or the waiter's try sees the lock
/// free: no wake-up is lost.
@usableFromInline
struct StoreLock: ~Copyable, Sendable {
  /// The `ThreadID` of the thread holding the lock, or 0. Only the holder writes its own id, so a
  /// thread reading its own id knows it holds the lock; relaxed ordering is enough for that.
  @usableFromInline let owner = Atomic<UInt>(0)
  /// How many threads are parked, or about to park, waiting for the lock.
  @usableFromInline let waiters = Atomic<Int>(0)
  /// Where waiting threads park.
  @usableFromInline let parking = NSCondition()

  @usableFromInline init() {}

  /// Takes the lock for `thread` if it is free.
  @inlinable @inline(__always)
  func tryLock(_ thread: UInt) -> Bool {
    owner.compareExchange(
      expected: 0, desired: thread, successOrdering: .acquiring, failureOrdering: .relaxed
    )
    .exchanged
  }

  /// Takes the lock for `thread`, waiting for it as long as it takes.
  @inlinable @inline(__always)
  func lock(_ thread: UInt) {
    if !tryLock(thread) { lockContended(thread) }
  }

  /// Releases the lock; call on the thread that holds it.
  @inlinable @inline(__always)
  func unlock() {
    owner.store(0, ordering: .sequentiallyConsistent)
    if waiters.load(ordering: .sequentiallyConsistent) != 0 { wakeOne() }
  }

  /// Runs `body` holding the lock, taken for `thread`.
  @inlinable @inline(__always)
  func withLock<Result>(_ thread: UInt, _ body: () -> Result) -> Result {
    lock(thread)
    let result = body()
    unlock()
    return result
  }

  /// Runs `body` holding the lock if it is free, taken for `thread`; returns `nil` without waiting
  /// otherwise.
  @inlinable @inline(__always)
  func withLockIfAvailable<Result>(_ thread: UInt, _ body: () -> Result) -> Result? {
    guard tryLock(thread) else { return nil }
    let result = body()
    unlock()
    return result
  }

  /// Parks until the lock is free, then takes it.
  // Never inlined, nor `wakeOne()`: the uncontended path is what `send` inlines.
  @usableFromInline @inline(never)
  func lockContended(_ thread: UInt) {
    // A short spin first: most holders release within a few hundred nanoseconds (one action).
    for _ in 0..<64 {
      if owner.load(ordering: .relaxed) == 0, tryLock(thread) { return }
    }
    waiters.add(1, ordering: .sequentiallyConsistent)
    parking.lock()
    // Sequentially consistent, so that this try comes after the count in the order the holder's
    // release and its read of `waiters` are part of.
    while !owner.compareExchange(
      expected: 0, desired: thread, successOrdering: .sequentiallyConsistent,
      failureOrdering: .sequentiallyConsistent
    ).exchanged {
      parking.wait()
    }
    parking.unlock()
    waiters.subtract(1, ordering: .sequentiallyConsistent)
  }

  /// Wakes one parked thread.
  @usableFromInline @inline(never)
  func wakeOne() {
    parking.lock()
    parking.signal()
    parking.unlock()
  }
}
