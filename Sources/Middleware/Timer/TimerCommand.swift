import ChronicleStore

/// What the timer middleware does in response to an action: start, restart or cancel timers.
///
/// ```swift
/// .timers(clock: ContinuousClock()) { action in
///   switch action {
///   case .start: .repeating(id: "tick", every: .milliseconds(100), send: .tick)
///   case .stop: .cancel(id: "tick")
///   case .reset: .cancelAll
///   default: nil
///   }
/// }
/// ```
///
/// A timer's id is an ordinary cancellation id: ``/ChronicleStore/Store/cancel(id:)`` and a
/// reducer's `.cancel(id:)` cancel it too. Timers with different ids never interfere.
public struct TimerCommand<Action: Sendable>: Sendable {
  enum Operation: Sendable {
    case start(id: EffectID, interval: Duration, action: Action, repeats: Bool, site: CallSite)
    case cancel(EffectID)
    case cancelAll
    case merge([TimerCommand])
  }

  let operation: Operation

  /// Starts a timer that sends `action` every `interval`, the first time one `interval` from
  /// now, until it is cancelled. A timer already running with this `id` is cancelled first
  /// (a restart).
  ///
  /// Ticks are due at now + n × `interval`: a tick delivered late does not delay the next ones.
  ///
  /// The ticks' ``/ChronicleStore/ActionMetadata/effectSite`` is where this is called
  /// (`fileID`, `line`, `function`: leave the defaults).
  ///
  /// - Precondition: `interval` is greater than zero.
  public static func repeating(
    id: some Hashable & Sendable, every interval: Duration, send action: Action,
    fileID: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
  )
    -> TimerCommand
  {
    precondition(interval > .zero, "a repeating timer needs an interval greater than zero")
    return TimerCommand(
      operation: .start(
        id: EffectID(id), interval: interval, action: action, repeats: true,
        site: CallSite(fileID: fileID, line: line, function: function)))
  }

  /// Starts a timer that sends `action` once, `delay` from now. A timer already running with
  /// this `id` is cancelled first (a restart). Its ``/ChronicleStore/ActionMetadata/effectSite`` is
  /// where this is called.
  public static func once(
    id: some Hashable & Sendable, after delay: Duration, send action: Action,
    fileID: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
  )
    -> TimerCommand
  {
    TimerCommand(
      operation: .start(
        id: EffectID(id), interval: delay, action: action, repeats: false,
        site: CallSite(fileID: fileID, line: line, function: function)))
  }

  /// Cancels the timer with `id`: once the action that asked for it has been handled, no tick of
  /// it reaches the reducer, not even one already due.
  public static func cancel(id: some Hashable & Sendable) -> TimerCommand {
    TimerCommand(operation: .cancel(EffectID(id)))
  }

  /// Cancels every timer of the store, with the actions held by debounce and the windows of
  /// throttle (see ``ChronicleStore/Store/cancelAllTimers()``).
  public static var cancelAll: TimerCommand { TimerCommand(operation: .cancelAll) }

  /// Does all of `commands`, in order.
  public static func merge(_ commands: TimerCommand...) -> TimerCommand {
    TimerCommand(operation: .merge(commands))
  }
}
