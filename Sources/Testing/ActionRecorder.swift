import ChronicleLocks
import ChronicleStore
import Synchronization

/// The innermost middleware of a ``TestStore``: records every action that reaches the reducer
/// with the state right after it, splitting the ones the test sent from the ones effects sent.
final class ActionRecorder<State: Sendable, Action: Sendable>: Sendable {
  struct Step: Sendable {
    var action: Action
    var state: State
    /// Where the action was sent, and where the effect that sent it was created.
    var site: ChronicleStore.CallSite? = nil
    var effectSite: ChronicleStore.CallSite? = nil
  }

  /// An effect, thunk or timer that threw an error no `catch` handler took.
  struct Failure: Sendable {
    var event: EffectEvent
    /// The action whose processing started the work, and whether the test sent it.
    var origin: (action: Action, isUser: Bool)?
  }

  private struct Storage {
    var sending = false
    var sent: Step?
    var received: [Step] = []
    /// Failures not reported yet.
    var failures: [Failure] = []
    /// Every action recorded, by sequence number: what a failure names as its origin.
    var actions: [UInt64: (action: Action, isUser: Bool)] = [:]
    var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    var nextWaiter: UInt64 = 0
  }

  private let storage = SanitizerVisibleMutex(Storage())

  var middleware: AnyMiddleware<State, Action> {
    AnyMiddleware(name: "TestStore") { [self] action, context, next in
      next(action)
      record(
        Step(action: action, state: context.state, site: context.site, effectSite: context.effectSite),
        sequence: context.sequence,
        isUser: context.metadata.cause.kind == .user)
    } event: { [self] event, _ in
      guard case .failed = event.phase else { return }
      storage.withLock { storage in
        let origin = event.cause.parent.flatMap { storage.actions[$0] }
        storage.failures.append(Failure(event: event, origin: origin))
      }
    }
  }

  private func record(_ step: Step, sequence: UInt64, isUser: Bool) {
    let waiters = storage.withLock { storage -> [CheckedContinuation<Void, Never>] in
      storage.actions[sequence] = (step.action, isUser)
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

  /// The failures not taken yet, which are then forgotten.
  func takeFailures() -> [Failure] {
    storage.withLock { storage in
      defer { storage.failures = [] }
      return storage.failures
    }
  }
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
