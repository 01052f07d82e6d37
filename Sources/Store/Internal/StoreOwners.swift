import ChronicleLocks

/// Every live store's owner, readable from any thread, so that a thread about to wait for a busy
/// store can tell whether it is processing another store.
///
/// Such a thread must not wait: the store's owner may itself be sending to a store this thread
/// holds (two stores whose middlewares send to each other), and each would wait for the other.
/// The registry is asked only once a store's lock was found taken, so the uncontended `send`
/// pays nothing for it; keeping a per-thread "processing" mark instead would cost two
/// thread-local writes on every action.
@usableFromInline
enum StoreOwners {
  /// Reads one store's `owner` without retaining the store (its deinit may be waiting for the
  /// registry's lock to unregister it).
  private struct Entry {
    let owner: @Sendable () -> UInt
  }

  // `SanitizerVisibleMutex` rather than `Mutex`: stores are registered and scanned from many
  // threads in tests run under ThreadSanitizer.
  private static let entries = SanitizerVisibleMutex<[ObjectIdentifier: Entry]>([:])

  /// Adds a store; `owner` reads the thread processing it, or 0.
  static func register(_ id: ObjectIdentifier, owner: @escaping @Sendable () -> UInt) {
    entries.withLock { $0[id] = Entry(owner: owner) }
  }

  /// Removes a store; called first thing in its deinit.
  static func unregister(_ id: ObjectIdentifier) {
    entries.withLock { $0[id] = nil }
  }

  /// Whether `thread` is processing some store: holds its lock as its owner. A store's owner is
  /// written only by the thread that holds its lock, with its own id and then 0, so a thread
  /// finds its own id there exactly while it owns that store.
  @usableFromInline
  static func isProcessing(_ thread: UInt) -> Bool {
    entries.withLock { entries in entries.values.contains { $0.owner() == thread } }
  }
}
