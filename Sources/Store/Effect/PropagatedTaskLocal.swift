/// A task-local value that a store carries from where an action is sent to where it is processed,
/// and on to the effects, thunks and timers that action starts.
///
/// An action sent while the store is busy waits in a queue and is processed later by whichever
/// thread owns the store then, in that thread's task-local context: without propagation, a
/// `@TaskLocal` set around `send` is lost for it. A store given the task-locals to carry reads
/// their values when such an action is queued and binds them again while the action is processed,
/// so its middlewares, reducer and subscribers see them, and the tasks of the effects it starts
/// inherit them:
///
/// ```swift
/// enum API {
///   @TaskLocal static var baseURL = "https://example.com"
/// }
///
/// let store = Store(
///   initialState: Feature.State(), reducer: Feature(), propagating: [.taskLocal(API.$baseURL)])
/// API.$baseURL.withValue("https://staging.example.com") {
///   store.send(.load)   // its effects read the staging URL
/// }
/// ```
///
/// Swift cannot read "every task-local" generically, so a store carries only those it is given.
/// With swift-dependencies, carry `DependencyValues.$_current`, the task-local that holds every
/// dependency.
public struct PropagatedTaskLocal: Sendable {
  /// Reads the value now and returns a way to bind it again.
  let capture: @Sendable () -> CapturedTaskLocal

  /// Carries `taskLocal`.
  ///
  /// - Parameter taskLocal: The task-local, as its projected value: `API.$baseURL`.
  public init<Value: Sendable>(_ taskLocal: TaskLocal<Value>) {
    capture = {
      let value = taskLocal.get()
      return CapturedTaskLocal(
        bind: { body in taskLocal.withValue(value, operation: body) },
        bindAsync: { body in await taskLocal.withValue(value, operation: body) })
    }
  }

  /// Carries `taskLocal`: `.taskLocal(API.$baseURL)`.
  ///
  /// - Parameter taskLocal: The task-local, as its projected value.
  /// - Returns: The value to pass in a store's `propagating` list.
  public static func taskLocal<Value: Sendable>(_ taskLocal: TaskLocal<Value>) -> PropagatedTaskLocal {
    PropagatedTaskLocal(taskLocal)
  }
}

/// One task-local's value read at some moment, with what binds it again.
struct CapturedTaskLocal: Sendable {
  let bind: @Sendable (_ body: () -> Void) -> Void
  let bindAsync: @Sendable (_ body: () async -> Void) async -> Void
}
