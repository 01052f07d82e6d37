import ChronicleLocks

// Locks are `SanitizerVisibleMutex`: ThreadSanitizer cannot see `Mutex`'s ordering on Linux.

/// A thread-safe list of values for tests to record into from any thread.
public final class Recorder<Value: Sendable>: Sendable {
  private let storage = SanitizerVisibleMutex<[Value]>([])

  public init() {}

  public func append(_ value: Value) { storage.withLock { $0.append(value) } }
  public var values: [Value] { storage.withLock { $0 } }
  public var count: Int { storage.withLock { $0.count } }
}
