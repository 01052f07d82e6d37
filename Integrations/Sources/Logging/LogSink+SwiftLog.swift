import ChronicleMiddleware
import Logging

extension LogSink {
  /// Writes the logger's records to a swift-log `Logger`: one log message per action, and one per
  /// change in the life of an effect, thunk or timer, with everything else as structured metadata.
  ///
  /// ```swift
  /// let logger = Logger(label: "app.store")
  /// let store = Store(
  ///   initialState: Counter.State(), reducer: Counter(),
  ///   middleware: [.logger(sink: .swiftLog(logger))])
  /// ```
  ///
  /// The message is the action (`Counter.Action.increment`), or for an effect what happened to it
  /// (`thunk "load" failed`). The metadata keys, each present only when the record has the part:
  ///
  /// | Key                         | Value                                                      |
  /// |-----------------------------|------------------------------------------------------------|
  /// | `chronicle.sequence`        | the action's sequence number                               |
  /// | `chronicle.context`         | the action's context label                                 |
  /// | `chronicle.cause.kind`      | `user`, `effect`, `thunk`, `timer`, …                      |
  /// | `chronicle.cause.parent`    | the sequence number of the action that started the sender  |
  /// | `chronicle.cause.effect`    | the serial number of the effect that sent the action       |
  /// | `chronicle.cause.label`     | the effect's id, the thunk's name or the timer's id        |
  /// | `chronicle.duration_ns`     | how long the chain and the reducer took, in nanoseconds    |
  /// | `chronicle.changed_paths`   | the paths of the state that changed (`todos[2].done`)      |
  /// | `chronicle.changes`         | the diff, one element per change (`todos[2].done: false → true`) |
  /// | `chronicle.state.before`, `chronicle.state.after` | the whole states, when the diff is off |
  /// | `chronicle.effect`          | the effect's serial number                                 |
  /// | `chronicle.effect.phase`    | `started`, `finished`, `cancelled` or `failed`              |
  /// | `chronicle.effect.error`    | why the effect failed                                      |
  ///
  /// Numbers are written as strings. Every text has already been redacted by the logger, so values
  /// marked as sensitive reach the `LogHandler` as `<redacted>`. Timestamps are left to the
  /// `LogHandler`, which stamps each message itself.
  ///
  /// - Parameter logger: The logger to write to; its level filters the records as usual.
  /// - Returns: A record sink for ``AnyMiddleware/logger(predicate:collapsed:diff:duration:timestamp:actionTransformer:stateTransformer:level:effects:redaction:sink:)``.
  public static func swiftLog(_ logger: Logger) -> LogSink {
    .records { record in
      logger.log(
        level: Logger.Level(record.level), "\(SwiftLogRecord.message(of: record))",
        metadata: SwiftLogRecord.metadata(of: record))
    }
  }
}

extension Logger.Level {
  /// The swift-log level of the same name.
  init(_ level: LogLevel) {
    switch level {
    case .trace: self = .trace
    case .debug: self = .debug
    case .info: self = .info
    case .notice: self = .notice
    case .warning: self = .warning
    case .error: self = .error
    case .critical: self = .critical
    }
  }
}
