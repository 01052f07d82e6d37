import ChronicleStore

/// Starts, restarts and cancels timers by id in response to actions, on the clock you give it.
///
/// ```swift
/// let store = Store(
///   initialState: Stopwatch.State(), reducer: Stopwatch(),
///   middleware: [
///     .timers(clock: ContinuousClock()) { action in
///       switch action {
///       case .start: .repeating(id: "tick", every: .milliseconds(100), send: .tick)
///       case .stop: .cancel(id: "tick")
///       default: nil
///       }
///     }
///   ])
/// ```
///
/// Each timer is an effect the store tracks: its ticks pass the whole chain with a
/// ``ChronicleStore/Cause/Kind/timer`` cause labelled with the timer's id and whose parent is
/// the action that started it; it is cancelled with the store; after it is cancelled no tick
/// reaches the reducer. In tests, give it a `TestClock` and advance it by hand.
///
/// Its ticks are processed with the task-locals of the action that started it (for an action
/// that waited in the store's queue, those the store propagates: ``/ChronicleStore/PropagatedTaskLocal``).
public struct TimerMiddleware<State: Sendable, Action: Sendable, C: Clock>: Middleware
where C.Duration == Duration {
  /// The clock timers sleep on.
  public let clock: C
  let commands: @Sendable (Action) -> TimerCommand<Action>?

  /// Creates the middleware.
  ///
  /// - Parameters:
  ///   - clock: The clock timers sleep on: `ContinuousClock()` in an app, a `TestClock` in tests.
  ///   - commands: What to do for an action, or `nil` for nothing. It runs after the action
  ///     has reached the reducer.
  public init(clock: C, commands: @escaping @Sendable (_ action: Action) -> TimerCommand<Action>?) {
    self.clock = clock
    self.commands = commands
  }

  /// Passes `action` on, then carries out the command ``init(clock:commands:)``'s function
  /// returns for it.
  public func handle(
    _ action: Action, context: MiddlewareContext<State, Action>, next: MiddlewareNext<State, Action>
  ) {
    next(action)
    guard let command = commands(action) else { return }
    execute(command, context: context)
  }

  private func execute(_ command: TimerCommand<Action>, context: MiddlewareContext<State, Action>) {
    switch command.operation {
    case .start(let id, let interval, let action, let repeats, let site):
      let effect = Self.ticks(
        of: action, every: interval, from: clock.now, repeats: repeats, on: clock, site: site)
      context.run(effect.timer(id: id, cancelInFlight: true), as: .timer, label: id.description)
    case .cancel(let id):
      context.cancel(id: id)
    case .cancelAll:
      context.cancel(id: TimerGroup())
    case .merge(let commands):
      for command in commands { execute(command, context: context) }
    }
  }

  /// Sends `action` at `start` + n × `interval` (n = 1, 2, …; only n = 1 unless `repeats`).
  /// Deadlines, not relative sleeps: a late wake-up does not push later ticks back.
  static func ticks(
    of action: Action, every interval: Duration, from start: C.Instant, repeats: Bool, on clock: C,
    site: CallSite
  ) -> Effect<Action> {
    .run(site: site) { send in
      var deadline = start.advanced(by: interval)
      repeat {
        try await clock.sleep(until: deadline, tolerance: nil)
        await send(action, site: site)
        deadline = deadline.advanced(by: interval)
      } while repeats
    }
  }
}

extension AnyMiddleware {
  /// A middleware that starts, restarts and cancels timers in response to actions (see
  /// ``TimerMiddleware``).
  ///
  /// ```swift
  /// middleware: [
  ///   .timers(clock: clock) { action in
  ///     action == .start ? .repeating(id: "tick", every: .milliseconds(100), send: .tick) : nil
  ///   }
  /// ]
  /// ```
  ///
  /// - Parameters:
  ///   - clock: The clock timers sleep on: `ContinuousClock()` in an app, a `TestClock` in tests.
  ///   - commands: What to do for an action, or `nil` for nothing.
  public static func timers<C: Clock>(
    clock: C, commands: @escaping @Sendable (_ action: Action) -> TimerCommand<Action>?
  ) -> AnyMiddleware where C.Duration == Duration {
    let middleware = TimerMiddleware<State, Action, C>(clock: clock, commands: commands)
    return AnyMiddleware(name: "timers") { action, context, next in
      middleware.handle(action, context: context, next: next)
    }
  }
}
