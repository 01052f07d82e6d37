// Placeholder replaced by the TestClock work; minimal API so the store compiles meanwhile.
import Synchronization

package final class TaskActivity: Sendable {
  private let count = Mutex(0)
  package init() {}
  package func enter() { count.withLock { $0 += 1 } }
  package func leave() { count.withLock { $0 -= 1 } }
  package func bind<R>(_ operation: () async throws -> R) async rethrows -> R { try await operation() }
}
