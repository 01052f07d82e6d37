import ChronicleStore

/// Holds actions until they stop coming: each one is sent on only once no other action with the
/// same id has arrived for a quiet period (search-as-you-type).
///
/// ```swift
/// middleware: [
///   .debounce(for: .milliseconds(300), clock: clock) { action in
///     if case .queryChanged = action { "query" } else { nil }
///   }
/// ]
/// ```
///
/// A held action stops here; a one-shot timer re-sends the latest one after the quiet period,
/// through the whole chain, with a ``ChronicleStore/Cause/Kind/timer`` cause labelled
/// `debounce ID` whose parent is the action it re-sends. This middleware recognises it by that
/// cause and lets it through. Middlewares before this one see each action twice (held, then
/// re-sent); put the debounce first to see only what reaches the reducer. The re-sent action is
/// processed with the task-locals the held one was processed with.
///
/// The held action is cancelled like a timer: with the store, and with
/// ``ChronicleStore/Store/cancelAllTimers()``.
public struct DebounceMiddleware<State: Sendable, Action: Sendable, C: Clock, ID: Hashable & Sendable>:
  Middleware
where C.Duration == Duration {
  /// The clock the quiet period is measured on.
  public let clock: C
  /// How long no action with the same id must arrive before the latest one is sent on.
  public let interval: Duration
  let id: @Sendable (Action) -> ID?

  /// Creates the middleware.
  ///
  /// - Parameters:
  ///   - interval: The quiet period.
  ///   - clock: The clock it is measured on: `ContinuousClock()` in an app, a `TestClock` in tests.
  ///   - id: The group an action is debounced in, or `nil` to let it through at once.
  public init(for interval: Duration, clock: C, id: @escaping @Sendable (_ action: Action) -> ID?) {
    self.clock = clock
    self.interval = interval
    self.id = id
  }

  /// Lets through actions without an id and the ones this middleware re-sends; holds the others.
  public func handle(
    _ action: Action, context: MiddlewareContext<State, Action>, next: MiddlewareNext<State, Action>
  ) {
    guard let id = id(action) else { return next(action) }
    let label = "debounce \(id)"
    let cause = context.metadata.cause
    if cause.kind == .timer && cause.label == label { return next(action) }
    let deadline = clock.now.advanced(by: interval)
    let clock = self.clock
    // The held action is sent again from where it was first sent.
    let site = context.site ?? CallSite()
    let resend = Effect<Action>.run(site: site) { send in
      try await clock.sleep(until: deadline, tolerance: nil)
      await send(action, site: site)
    }
    context.run(
      resend.timer(id: EffectID(DebounceID(id: id)), cancelInFlight: true), as: .timer, label: label)
  }
}

/// The cancellation id of the action a debounce middleware holds for `id`. It shows as the id
/// the user gave, in logs and journals.
struct DebounceID<ID: Hashable & Sendable>: Hashable, Sendable, CustomStringConvertible {
  let id: ID

  var description: String { String(describing: id) }
}

extension AnyMiddleware {
  /// A middleware that sends an action on only once no other action with the same id has
  /// arrived for `interval` (see ``DebounceMiddleware``).
  ///
  /// - Parameters:
  ///   - interval: The quiet period.
  ///   - clock: The clock it is measured on: `ContinuousClock()` in an app, a `TestClock` in tests.
  ///   - id: The group an action is debounced in, or `nil` to let it through at once.
  public static func debounce<C: Clock, ID: Hashable & Sendable>(
    for interval: Duration, clock: C, id: @escaping @Sendable (_ action: Action) -> ID?
  ) -> AnyMiddleware where C.Duration == Duration {
    let middleware = DebounceMiddleware<State, Action, C, ID>(for: interval, clock: clock, id: id)
    return AnyMiddleware(name: "debounce") { action, context, next in
      middleware.handle(action, context: context, next: next)
    }
  }
}
