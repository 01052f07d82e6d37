import ChronicleLocks
import ChronicleStore

/// Runs `body` the way a store runs an effect: on `activity` as its task executor, bound to it.
@discardableResult
func startEffect(
  on activity: TaskActivity,
  _ body: @escaping @Sendable () async throws -> Void
) -> Task<Void, any Error> {
  Task(executorPreference: activity) {
    try await activity.bind { try await body() }
  }
}

/// A thread-safe log that tasks append to; its lock is visible to ThreadSanitizer, so logging from
/// many threads under `--sanitize=thread` reports no false race.
final class ClockRecorder<Value: Sendable>: Sendable {
  private let storage = SanitizerVisibleMutex<[Value]>([])

  var values: [Value] { storage.withLock { $0 } }

  func append(_ value: Value) {
    storage.withLock { $0.append(value) }
  }
}
