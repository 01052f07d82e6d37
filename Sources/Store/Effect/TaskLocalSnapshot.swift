/// The values of a store's propagated task-locals, read when an action was queued (or work was
/// left in the inbox, or an action held by time travel), bound again around its processing.
@usableFromInline
package struct TaskLocalSnapshot: Sendable {
  let values: [CapturedTaskLocal]

  /// Runs `body` with every captured value bound.
  @usableFromInline
  package func run(_ body: () -> Void) {
    bind(from: 0, body)
  }

  private func bind(from index: Int, _ body: () -> Void) {
    if index == values.count { return body() }
    values[index].bind { bind(from: index + 1, body) }
  }

  /// Runs `body` with every captured value bound, in an effect's task: for a middleware that
  /// holds an action and sends it from a task started for another one (throttle).
  package func run(_ body: () async -> Void) async {
    await bind(from: 0, body)
  }

  private func bind(from index: Int, _ body: () async -> Void) async {
    if index == values.count { return await body() }
    await values[index].bindAsync { await bind(from: index + 1, body) }
  }
}

/// What a store was told to propagate; a store told nothing holds no instance, so its queues pay
/// only a `nil` check.
@usableFromInline
final class TaskLocalPropagation: Sendable {
  let taskLocals: [PropagatedTaskLocal]

  init(_ taskLocals: [PropagatedTaskLocal]) { self.taskLocals = taskLocals }

  /// Reads the current values.
  @usableFromInline
  func capture() -> TaskLocalSnapshot {
    TaskLocalSnapshot(values: taskLocals.map { $0.capture() })
  }
}
