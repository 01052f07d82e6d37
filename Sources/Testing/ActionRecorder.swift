import ChronicleLocks
import ChronicleStore
import Synchronization

/// The innermost middleware of a ``TestStore``: records every action that reaches the reducer
/// with the state right after it, splitting the ones the test sent from the ones effects sent.
final class ActionRecorder<State: Sendable, Action: Sendable>: Sendable {
  struct Step: Sendable {
    var action: Action
    var state: State
  }

  private struct Storage {
    var sending = false
    var sent: Step?
    var received: [Step] = []
    var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    var nextWaiter: UInt64 = 0
  }

  private let storage = SanitizerVisibleMutex(Storage())

  var middleware: AnyMiddleware<State, Action> {
    AnyMiddleware(name: "TestStore") { [self] action, context, next in
      next(action)
      record(Step(action: action, state: context.state), isUser: context.metadata.cause.kind == .user)
    }
  }

  private func record(_ step: Step, isUser: Bool) {
    let waiters = storage.withLock { storage -> [CheckedContinuation<Void, Never>] in
      if isUser && storage.sending && storage.sent == nil {
        storage.sent = step
        return []
      }
      storage.received.append(step)
      defer { storage.waiters = [:] }
      return Array(storage.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Starts recording the action the test is about to send.
  func beginSend() {
    storage.withLock { storage in
      storage.sending = true
      storage.sent = nil
    }
  }

  /// The step of the action the test sent, if it reached the reducer.
  func endSend() -> Step? {
    storage.withLock { storage in
      storage.sending = false
      defer { storage.sent = nil }
      return storage.sent
    }
  }

  func pendingReceived() -> [Step] { storage.withLock { $0.received } }
  func dropPendingReceived() { storage.withLock { $0.received = [] } }

  func popReceived() -> Step? {
    storage.withLock { $0.received.isEmpty ? nil : $0.received.removeFirst() }
  }

  /// Suspends until an action is received (or the task is cancelled).
  func waitForReceived() async {
    let id = storage.withLock { storage -> UInt64 in
      defer { storage.nextWaiter += 1 }
      return storage.nextWaiter
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let now = storage.withLock { storage -> Bool in
          if !storage.received.isEmpty || Task.isCancelled { return true }
          storage.waiters[id] = continuation
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      storage.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
    }
  }
}
