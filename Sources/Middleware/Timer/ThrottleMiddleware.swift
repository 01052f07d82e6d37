import ChronicleLocks
import ChronicleStore

/// Lets at most one action per id through per interval: the first passes at once and opens a
/// window; the others that arrive while it is open are dropped, or with `latest: true` the
/// latest of them is sent when the window closes (and opens the next window).
///
/// ```swift
/// middleware: [
///   .throttle(for: .seconds(1), clock: clock, latest: true) { action in
///     action == .refresh ? "refresh" : nil
///   }
/// ]
/// ```
///
/// A window is a timer the store tracks: the action sent when it closes passes the whole chain
/// with a ``ChronicleStore/Cause/Kind/timer`` cause labelled `throttle ID`, and is let through
/// by this middleware. Windows are cancelled with the store and with
/// ``ChronicleStore/Store/cancelAllTimers()``; a cancelled window drops the action it held, and
/// the next action opens a new one. The action sent when a window closes is processed with the
/// task-locals it was sent with, as far as the store propagates them
/// (``/ChronicleStore/PropagatedTaskLocal``).
///
/// The middleware keeps the open windows: give each store its own (call the factory once per
/// store) rather than sharing one value between stores.
public struct ThrottleMiddleware<State: Sendable, Action: Sendable, C: Clock, ID: Hashable & Sendable>:
  Middleware
where C.Duration == Duration {
  /// The clock windows are measured on.
  public let clock: C
  /// How long a window stays open.
  public let interval: Duration
  /// Whether the latest action dropped during a window is sent when it closes.
  public let latest: Bool
  let id: @Sendable (Action) -> ID?
  let windows = Windows()

  /// Creates the middleware.
  ///
  /// - Parameters:
  ///   - interval: How long a window stays open.
  ///   - clock: The clock windows are measured on: `ContinuousClock()` in an app, a `TestClock`
  ///     in tests.
  ///   - latest: Send the latest action that arrived during a window when it closes; otherwise
  ///     they are dropped.
  ///   - id: The group an action is throttled in, or `nil` to let it through at once.
  public init(
    for interval: Duration, clock: C, latest: Bool = false, id: @escaping @Sendable (_ action: Action) -> ID?
  ) {
    self.clock = clock
    self.interval = interval
    self.latest = latest
    self.id = id
  }

  /// Lets through actions without an id, the ones this middleware sends when a window closes,
  /// and the first of each window; drops or holds the others.
  public func handle(
    _ action: Action, context: MiddlewareContext<State, Action>, next: MiddlewareNext<State, Action>
  ) {
    guard let id = id(action) else { return next(action) }
    let label = "throttle \(id)"
    let cause = context.metadata.cause
    if cause.kind == .timer && cause.label == label { return next(action) }
    let key = ThrottleID(owner: ObjectIdentifier(windows), id: id)
    let latest = self.latest
    let opened = windows.state.withLock { open -> Bool in
      if open[key] != nil {
        // Sent later from the window's task, started for another action: it takes along the
        // task-locals it was sent with.
        if latest { open[key] = Held(action: action, taskLocals: context.taskLocals) }
        return false
      }
      open[key] = .some(nil)
      return true
    }
    guard opened else { return }
    let start = clock.now
    next(action)
    let (clock, interval, windows) = (self.clock, self.interval, self.windows)
    let window = Effect<Action>.run { send in
      var deadline = start.advanced(by: interval)
      while true {
        try await clock.sleep(until: deadline, tolerance: nil)
        guard let held = windows.closeOrTakeHeld(key) else { return }
        if let taskLocals = held.taskLocals {
          await taskLocals.run { await send(held.action) }
        } else {
          await send(held.action)
        }
        deadline = deadline.advanced(by: interval)
      }
    }
    context.run(window.timer(id: EffectID(key), cancelInFlight: false), as: .timer, label: label)
  }

  /// Forgets a window that was cancelled or failed, so the next action opens a new one.
  public func handle(_ event: EffectEvent, context: MiddlewareContext<State, Action>) {
    switch event.phase {
    case .cancelled, .failed:
      guard event.cause.kind == .timer else { return }
      for id in event.ids {
        if let key = id.base as? ThrottleID<ID>, key.owner == ObjectIdentifier(windows) {
          _ = windows.state.withLock { $0.removeValue(forKey: key) }
        }
      }
    case .started, .finished:
      return
    }
  }

  /// An action a window holds, with the store's propagated task-locals where it was sent.
  struct Held: Sendable {
    let action: Action
    let taskLocals: TaskLocalSnapshot?
  }

  /// The open windows, each with the action it holds for when it closes.
  final class Windows: Sendable {
    // The lock guards the dictionary: the middleware (under the store's lock) and the windows'
    // tasks (outside it) both change it. `SanitizerVisibleMutex` so that ThreadSanitizer sees
    // the ordering, which it cannot see for `Mutex` on Linux.
    let state = SanitizerVisibleMutex<[ThrottleID<ID>: Held?]>([:])

    /// At the end of a window: takes the action it held, keeping the window open for another
    /// interval, or closes it when it holds none.
    func closeOrTakeHeld(_ key: ThrottleID<ID>) -> Held? {
      state.withLock { open in
        guard let held = open[key] else { return nil }
        guard let taken = held else {
          open[key] = nil
          return nil
        }
        open[key] = .some(nil)
        return taken
      }
    }
  }
}

/// The cancellation id of a throttle window: the middleware that opened it and the group's id.
/// It shows as the id the user gave, in logs and journals.
struct ThrottleID<ID: Hashable & Sendable>: Hashable, Sendable, CustomStringConvertible {
  let owner: ObjectIdentifier
  let id: ID

  var description: String { String(describing: id) }
}

extension AnyMiddleware {
  /// A middleware that lets at most one action per id through per `interval` (see
  /// ``ThrottleMiddleware``).
  ///
  /// - Parameters:
  ///   - interval: How long a window stays open.
  ///   - clock: The clock windows are measured on: `ContinuousClock()` in an app, a `TestClock`
  ///     in tests.
  ///   - latest: Send the latest action that arrived during a window when it closes; otherwise
  ///     they are dropped.
  ///   - id: The group an action is throttled in, or `nil` to let it through at once.
  public static func throttle<C: Clock, ID: Hashable & Sendable>(
    for interval: Duration, clock: C, latest: Bool = false, id: @escaping @Sendable (_ action: Action) -> ID?
  ) -> AnyMiddleware where C.Duration == Duration {
    let middleware = ThrottleMiddleware<State, Action, C, ID>(
      for: interval, clock: clock, latest: latest, id: id)
    return AnyMiddleware(name: "throttle") { action, context, next in
      middleware.handle(action, context: context, next: next)
    } event: { event, context in
      middleware.handle(event, context: context)
    }
  }
}
