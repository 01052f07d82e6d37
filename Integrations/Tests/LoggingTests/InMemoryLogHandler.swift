import Logging
import Synchronization

/// One message as a `LogHandler` received it.
struct LoggedMessage: Equatable, Sendable {
  var level: Logger.Level
  var message: String
  var metadata: Logger.Metadata
}

/// Keeps every message it is handed, for tests to read.
final class LogHandlerRecorder: Sendable {
  private let messages = Mutex<[LoggedMessage]>([])

  var values: [LoggedMessage] { messages.withLock { $0 } }

  func append(_ message: LoggedMessage) { messages.withLock { $0.append(message) } }

  /// A logger that hands every message, at every level, to this recorder.
  func logger() -> Logger {
    Logger(label: "test") { _ in InMemoryLogHandler(recorder: self) }
  }
}

/// A `LogHandler` that records what it is given instead of printing it.
struct InMemoryLogHandler: LogHandler {
  let recorder: LogHandlerRecorder
  var metadata: Logger.Metadata = [:]
  var logLevel: Logger.Level = .trace

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    recorder.append(
      LoggedMessage(
        level: event.level, message: event.message.description,
        metadata: metadata.merging(event.metadata ?? [:]) { $1 }))
  }
}
