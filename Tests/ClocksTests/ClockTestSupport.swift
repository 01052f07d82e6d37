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
