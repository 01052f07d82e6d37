import Synchronization

/// The journal's lock: a `Mutex` whose critical sections ThreadSanitizer can order.
///
/// On Linux, `Mutex` locks with atomics compiled inside the Synchronization library, which is not
/// instrumented, so TSan sees two critical sections on different threads as unordered. Each
/// section here also loads (acquiring) and stores (releasing) an `Atomic` inlined into the
/// caller, which TSan sees. ChronicleStore's `SanitizerVisibleMutex` does the same, but is not
/// inlinable; this one is, because the tracer records under it on every action and must be
/// specialized for the client's types (an unspecialized generic call costs a metadata lookup).
@usableFromInline
struct JournalLock<Value>: ~Copyable, @unchecked Sendable {
  // `@unchecked Sendable`: the value is only reached through `withLock`, under `mutex`.
  @usableFromInline let mutex: Mutex<Void>
  @usableFromInline let edge = Atomic<Int>(0)
  @usableFromInline let value: UnsafeMutablePointer<Value>

  @usableFromInline
  init(_ initial: consuming Value) {
    mutex = Mutex(())
    value = .allocate(capacity: 1)
    value.initialize(to: initial)
  }

  deinit {
    value.deinitialize(count: 1)
    value.deallocate()
  }

  @inlinable
  borrowing func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try mutex.withLock { _ in
      _ = edge.load(ordering: .acquiring)
      defer { edge.store(0, ordering: .releasing) }
      return try body(&value.pointee)
    }
  }
}
