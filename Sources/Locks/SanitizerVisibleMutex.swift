import Synchronization

/// A `Mutex` whose ordering ThreadSanitizer can see.
///
/// On Linux, `Mutex` takes and releases its lock with atomics compiled inside the Synchronization
/// library, which is not built with TSan instrumentation: TSan sees no happens-before edge between
/// two critical sections on different threads and reports the protected value as racing (seen
/// with Swift 6.3.1). Each critical section here also acquires and releases an `Atomic`, whose
/// operations are inlined into this module and so instrumented, which gives TSan that edge. The
/// cost is two uncontended atomic operations per critical section.
///
/// Use it instead of `Mutex` for state that tests exercise from several threads under
/// `swift test --sanitize=thread`.
///
/// On x86-64 an acquiring load and a releasing store are plain moves, so the store's hot path
/// pays nothing for it there.
@usableFromInline
package struct SanitizerVisibleMutex<Value>: ~Copyable, Sendable {
  @usableFromInline let mutex: Mutex<Value>
  @usableFromInline let edge = Atomic<Int>(0)

  @inlinable
  package init(_ initialValue: sending Value) {
    mutex = Mutex(initialValue)
  }

  /// Runs `body` with exclusive access to the value, like `Mutex.withLock`.
  @inlinable
  package borrowing func withLock<Result, Failure: Error>(
    _ body: (inout sending Value) throws(Failure) -> sending Result
  ) throws(Failure) -> sending Result {
    try mutex.withLock { (value: inout sending Value) throws(Failure) -> sending Result in
      _ = edge.load(ordering: .acquiring)
      defer { edge.store(0, ordering: .releasing) }
      return try body(&value)
    }
  }

  /// Runs `body` with exclusive access to the value if no other thread holds the lock, like
  /// `Mutex.withLockIfAvailable`; returns `nil` without waiting otherwise.
  @inlinable
  package borrowing func withLockIfAvailable<Result, Failure: Error>(
    _ body: (inout sending Value) throws(Failure) -> sending Result
  ) throws(Failure) -> sending Result? {
    try mutex.withLockIfAvailable { (value: inout sending Value) throws(Failure) -> sending Result in
      _ = edge.load(ordering: .acquiring)
      defer { edge.store(0, ordering: .releasing) }
      return try body(&value)
    }
  }
}
