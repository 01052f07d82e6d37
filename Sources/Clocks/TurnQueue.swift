import ChronicleLocks
import Synchronization

/// An async lock that grants turns one at a time, in the order they were asked for.
///
/// Waiting for a turn suspends the task (no thread is blocked), so the holder may itself await
/// for as long as it needs. ``TestClock`` uses it to serialize advances.
final class TurnQueue: Sendable {
  private struct State {
    var isHeld = false
    var nextTicket: UInt64 = 0
    var waiting: [(ticket: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
  }

  private let state = SanitizerVisibleMutex(State())

  init() {}

  /// The number of tasks waiting for a turn, not counting the holder.
  var waitingCount: Int {
    state.withLock { $0.waiting.count }
  }

  /// Suspends until it is the caller's turn; `false` if the caller was cancelled first.
  ///
  /// After `true`, the caller holds the turn and must call ``endTurn()``. After `false` it holds
  /// nothing. A turn handed over just as the caller is cancelled still counts as granted.
  func beginTurn() async -> Bool {
    let ticket = state.withLock { state in
      defer { state.nextTicket += 1 }
      return state.nextTicket
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let granted: Bool? = state.withLock { state in
          if Task.isCancelled { return false }
          guard state.isHeld else {
            state.isHeld = true
            return true
          }
          state.waiting.append((ticket, continuation))
          return nil
        }
        if let granted { continuation.resume(returning: granted) }
      }
    } onCancel: {
      let continuation = state.withLock { state in
        state.waiting.firstIndex { $0.ticket == ticket }.map { state.waiting.remove(at: $0).continuation }
      }
      continuation?.resume(returning: false)
    }
  }

  /// Hands the turn to the longest-waiting task, or frees it if none is waiting.
  func endTurn() {
    let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      precondition(state.isHeld, "TurnQueue.endTurn() without a turn")
      guard !state.waiting.isEmpty else {
        state.isHeld = false
        return nil
      }
      return state.waiting.removeFirst().continuation
    }
    next?.resume(returning: true)
  }
}
