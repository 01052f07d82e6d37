import ChronicleLocks

/// A one-shot signal an effect or callback can fire and a test can await, without sleeping.
public final class Signal: Sendable {
  private let state = SanitizerVisibleMutex<(fired: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, []))

  public init() {}

  public func fire() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.fired = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  public var isFired: Bool { state.withLock { $0.fired } }

  public func wait() async {
    await withCheckedContinuation { continuation in
      let fired = state.withLock { state in
        if !state.fired { state.waiters.append(continuation) }
        return state.fired
      }
      if fired { continuation.resume() }
    }
  }
}
