import ChronicleInspection
import ChronicleStore
import Foundation

/// Logs every action the store processes — its sequence number, timestamp, context, cause and
/// duration, and the parts of the state it changed — like redux-logger.
///
/// ```swift
/// let store = Store(initialState: Todos.State(), reducer: Todos(), middleware: [.logger()])
/// store.send(.toggle(2), context: "TodoList")
/// // #1 Todos.Action.toggle(2) @ 09:30:00.000 (in 4.2 µs) [TodoList]
/// //   todos[2].done: false → true
/// ```
///
/// Put it last in the chain to log the actions that reach the reducer, with the state the
/// reducer made. Values marked as sensitive, and those the ``LoggerOptions/redaction`` policy
/// selects, are written `<redacted>` in every sink. See ``LoggerOptions`` for the options and
/// ``LogSink`` for where the output goes.
public struct LoggerMiddleware<State: Sendable, Action: Sendable>: Middleware {
  @usableFromInline let predicate: (@Sendable (Action) -> Bool)?
  @usableFromInline let options: LoggerOptions<State, Action>
  let sink: LogSink

  /// Creates the middleware.
  ///
  /// Finds, here, what printing and comparing values of `State` and `Action` needs to know about
  /// their types, so that the first action logged costs what the others do: otherwise that
  /// one-time work fell in the duration a tracer before the logger measures for the first action.
  /// With a transformer, the transformed types are found from the first value instead.
  ///
  /// - Parameters:
  ///   - options: What to log and how.
  ///   - sink: Where to write: standard output by default.
  public init(options: LoggerOptions<State, Action> = LoggerOptions(), sink: LogSink = .standardOutput) {
    self.predicate = options.predicate
    self.options = options
    self.sink = sink
    if options.stateTransformer == nil { ValueDump.prepare(for: State.self) }
    if options.actionTransformer == nil { ValueDump.prepare(for: Action.self) }
  }

  /// Passes `action` on and logs it, unless the predicate rejects it.
  // Inlinable so that, specialized in the client, a rejected action costs the predicate call
  // and nothing else: no metadata, clock or text is touched before the predicate has answered.
  @inlinable
  public func handle(
    _ action: Action, context: MiddlewareContext<State, Action>, next: MiddlewareNext<State, Action>
  ) {
    if let predicate, !predicate(action) {
      next(action)
      return
    }
    log(action, context: context, next: next)
  }

  /// Logs a failed effect, thunk or timer (unless ``LoggerOptions/errors`` is off), and with
  /// ``LoggerOptions/effects`` every other change in their lives.
  public func handle(_ event: EffectEvent, context: MiddlewareContext<State, Action>) {
    let isFailure: Bool
    if case .failed = event.phase { isFailure = true } else { isFailure = false }
    guard isFailure ? options.errors : options.effects else { return }
    var event = event
    if let text = event.failureDescription(redaction: options.redaction) {
      // The error is written under this logger's policy; the record keeps the text, never the
      // error, whose stored parts a record sink could print.
      event.phase = .failed(text)
      event.error = nil
    }
    let entry = LogEntry(
      level: isFailure ? .error : options.level, sequence: nil, action: nil, effect: event,
      timestamp: options.timestamp ? (options.now?() ?? Date()) : nil, timeZone: options.timeZone,
      duration: nil, context: nil, cause: event.cause, changes: nil, stateBefore: nil, stateAfter: nil)
    write(entry)
  }

  /// Passes on an action that the predicate accepted, and logs it.
  // Inlinable to be specialized in the client: unspecialized, reading the state and calling the
  // rest of the chain look up generic metadata at every step. Never inlined, so that `handle`
  // stays as small as a rejected action needs.
  @inlinable @inline(never)
  func log(
    _ action: Action, context: MiddlewareContext<State, Action>, next: MiddlewareNext<State, Action>
  ) {
    let before = context.state
    let start = options.duration ? options.monotonic() : nil
    next(action)
    let elapsed = start.map { options.monotonic() - $0 }
    log(action, before: before, after: context.state, elapsed: elapsed, metadata: context.metadata)
  }

  /// Writes the entry of an action that the rest of the chain has processed.
  @usableFromInline
  func log(_ action: Action, before: State, after: State, elapsed: Duration?, metadata: ActionMetadata) {
    let redaction = options.redaction
    // Rendered as its own type unless transformed: held in an `Any` that holds the `Any` of a
    // transformer's result, it would take a dynamic cast to reach.
    let renderedAction =
      if let transform = options.actionTransformer {
        ValueDump.renderInline(transform(action), redaction: redaction)
      } else {
        ValueDump.renderInline(action, redaction: redaction)
      }
    var entry = LogEntry(
      level: options.level, sequence: metadata.sequence, action: renderedAction, effect: nil,
      timestamp: options.timestamp ? (options.now?() ?? metadata.timestamp) : nil,
      timeZone: options.timeZone, duration: elapsed, context: metadata.context, cause: metadata.cause,
      changes: nil, stateBefore: nil, stateAfter: nil)
    if options.sites {
      entry.site = metadata.site
      entry.effectSite = metadata.effectSite
    }
    if let transform = options.stateTransformer {
      record(from: transform(before), to: transform(after), into: &entry)
    } else {
      record(from: before, to: after, into: &entry)
    }
    write(entry)
  }

  private func record<Value>(from before: Value, to after: Value, into entry: inout LogEntry) {
    let redaction = options.redaction
    if options.diff {
      entry.changes = StateDiff.changes(from: before, to: after, redaction: redaction)
    } else {
      entry.stateBefore = ValueDump.renderInline(before, redaction: redaction)
      entry.stateAfter = ValueDump.renderInline(after, redaction: redaction)
    }
  }

  private func write(_ entry: LogEntry) {
    switch sink.target {
    case .text(let colored, let write):
      write(entry.text(collapsed: options.collapsed, colored: colored))
    case .records(let write):
      write(entry.record)
    }
  }
}

extension AnyMiddleware {
  /// A middleware that logs every action with what it changed (see ``LoggerMiddleware``), with
  /// redux-logger's options.
  ///
  /// ```swift
  /// middleware: [.logger(predicate: { $0 != .tick }, collapsed: true)]
  /// ```
  ///
  /// - Parameters:
  ///   - predicate: Which actions to log; `nil` logs all. Asked before anything else is done.
  ///   - collapsed: One line per action instead of one line per change.
  ///   - diff: Log the changed parts of the state; when `false`, the whole state before and after.
  ///   - duration: Log how long the middlewares after the logger and the reducer took (see
  ///     ``LogRecord/duration``).
  ///   - timestamp: Log when the action was processed.
  ///   - actionTransformer: Replaces the action before it is rendered.
  ///   - stateTransformer: Replaces the state before it is rendered or compared.
  ///   - level: The level of action records.
  ///   - effects: Also log when effects, thunks and timers start, finish and are cancelled.
  ///   - redaction: Which values to write as `<redacted>`, besides those marked as sensitive.
  ///   - sink: Where to write: standard output by default.
  @inlinable
  public static func logger(
    predicate: (@Sendable (_ action: Action) -> Bool)? = nil,
    collapsed: Bool = false,
    diff: Bool = true,
    duration: Bool = true,
    timestamp: Bool = true,
    actionTransformer: (@Sendable (_ action: Action) -> Any)? = nil,
    stateTransformer: (@Sendable (_ state: State) -> Any)? = nil,
    level: LogLevel = .info,
    effects: Bool = false,
    redaction: Redaction = .default,
    sink: LogSink = .standardOutput
  ) -> AnyMiddleware {
    let options = LoggerOptions(
      predicate: predicate, collapsed: collapsed, diff: diff, duration: duration, timestamp: timestamp,
      actionTransformer: actionTransformer, stateTransformer: stateTransformer, level: level,
      effects: effects, redaction: redaction)
    return logger(options, sink: sink)
  }

  /// A middleware that logs every action with what it changed, configured by `options`.
  ///
  /// - Parameters:
  ///   - options: What to log and how.
  ///   - sink: Where to write: standard output by default.
  @inlinable
  public static func logger(
    _ options: LoggerOptions<State, Action>, sink: LogSink = .standardOutput
  )
    -> AnyMiddleware
  {
    let middleware = LoggerMiddleware(options: options, sink: sink)
    // The predicate goes to the store too, which asks it before entering the chain.
    return AnyMiddleware(name: "logger", predicate: options.predicate) { action, context, next in
      middleware.log(action, context: context, next: next)
    } event: { event, context in
      middleware.handle(event, context: context)
    }
  }
}
