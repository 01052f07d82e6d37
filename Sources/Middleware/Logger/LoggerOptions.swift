import ChronicleInspection
import Foundation

/// What the logger writes, and how: redux-logger's options.
///
/// ```swift
/// var options = LoggerOptions<Todos.State, Todos.Action>()
/// options.predicate = { action in action != .tick }
/// options.collapsed = true
/// options.redaction = Redaction(keys: ["password", "token"])
/// let store = Store(initialState: Todos.State(), reducer: Todos(), middleware: [.logger(options)])
/// ```
///
/// The defaults log every action with its timestamp, its duration and the changes it made to the
/// state, expanded over several lines, at ``LogLevel/info``, plus every failed effect, thunk or
/// timer at ``LogLevel/error``.
public struct LoggerOptions<State: Sendable, Action: Sendable>: Sendable {
  /// Which actions to log; `nil` logs all. It is asked first, before anything else is read or
  /// measured, so a rejected action costs one call.
  public var predicate: (@Sendable (_ action: Action) -> Bool)?
  /// One line per action (the title, then the changes separated by `; `) instead of the title and
  /// one indented line per change. Affects text sinks; records always have both parts.
  public var collapsed: Bool
  /// Log the changed parts of the state (`todos[2].done: false → true`); when `false`, log the
  /// whole state before and after instead.
  public var diff: Bool
  /// Log how long the middlewares after the logger and the reducer took for the action (see
  /// ``LogRecord/duration``).
  public var duration: Bool
  /// Log when the action was processed.
  public var timestamp: Bool
  /// Replaces the action before it is rendered, e.g. to shorten a large payload.
  public var actionTransformer: (@Sendable (_ action: Action) -> Any)?
  /// Replaces the state before it is rendered or compared, e.g. to log only part of it.
  public var stateTransformer: (@Sendable (_ state: State) -> Any)?
  /// The level of action records (and of effect records other than failures).
  public var level: LogLevel
  /// Also log when effects, thunks and timers start, finish and are cancelled.
  public var effects: Bool
  /// Log effects, thunks and timers that fail, at ``LogLevel/error``.
  public var errors: Bool
  /// Which values to write as `<redacted>`, besides those marked as sensitive (``/ChronicleInspection/Redacted``,
  /// ``/ChronicleInspection/SensitiveValue``), which are redacted under any policy: in actions,
  /// states, diffs and the errors of failed effects, thunks and timers alike.
  public var redaction: Redaction
  /// The time shown by timestamps; `nil` shows the action's metadata timestamp (when the store
  /// began processing it). Set it to make timestamps fixed in tests.
  public var now: (@Sendable () -> Date)?
  /// The time zone of timestamps.
  public var timeZone: TimeZone
  /// A monotonic reading of elapsed time; the logger subtracts two readings to time an action.
  /// The default reads `ContinuousClock`. Replace it to make durations fixed in tests.
  public var monotonic: @Sendable () -> Duration
  /// Also write where each action was sent, and where the effect that sent it was created:
  /// ` from CounterView.swift:42 in body` (``/ChronicleStore/ActionMetadata/site``). Off by
  /// default.
  public var sites: Bool

  /// Creates options; every parameter has the default described on its property.
  public init(
    predicate: (@Sendable (_ action: Action) -> Bool)? = nil,
    collapsed: Bool = false,
    diff: Bool = true,
    duration: Bool = true,
    timestamp: Bool = true,
    actionTransformer: (@Sendable (_ action: Action) -> Any)? = nil,
    stateTransformer: (@Sendable (_ state: State) -> Any)? = nil,
    level: LogLevel = .info,
    effects: Bool = false,
    errors: Bool = true,
    redaction: Redaction = .default,
    now: (@Sendable () -> Date)? = nil,
    timeZone: TimeZone = .current,
    monotonic: (@Sendable () -> Duration)? = nil,
    sites: Bool = false
  ) {
    self.sites = sites
    self.predicate = predicate
    self.collapsed = collapsed
    self.diff = diff
    self.duration = duration
    self.timestamp = timestamp
    self.actionTransformer = actionTransformer
    self.stateTransformer = stateTransformer
    self.level = level
    self.effects = effects
    self.errors = errors
    self.redaction = redaction
    self.now = now
    self.timeZone = timeZone
    if let monotonic {
      self.monotonic = monotonic
    } else {
      let origin = ContinuousClock.now
      self.monotonic = { origin.duration(to: .now) }
    }
  }
}
