#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Where the logger writes: standard output, any function taking text, or structured
/// ``LogRecord``s for another logging system.
///
/// ```swift
/// .logger()                                           // standard output
/// .logger(sink: .text { line in lines.append(line) })  // any (String) -> Void
/// .logger(sink: .records { record in … })              // structured records
/// ```
///
/// A record sink makes an adapter for swift-log or `os.Logger` a few lines, without Chronicle
/// depending on either:
///
/// ```swift
/// import Logging
///
/// extension LogSink {
///   static func swiftLog(_ logger: Logger) -> LogSink {
///     .records { record in
///       var metadata: Logger.Metadata = ["cause": "\(record.cause)"]
///       if let sequence = record.sequence { metadata["sequence"] = "\(sequence)" }
///       if let context = record.context { metadata["context"] = "\(context)" }
///       logger.log(
///         level: Logger.Level(rawValue: record.level.rawValue) ?? .info,
///         "\(record.text)", metadata: metadata)
///     }
///   }
/// }
/// ```
///
/// ```swift
/// import os
///
/// extension LogSink {
///   static func osLog(_ logger: os.Logger) -> LogSink {
///     .records { record in
///       let type: OSLogType = record.level >= .error ? .error : record.level <= .debug ? .debug : .default
///       logger.log(level: type, "\(record.text, privacy: .public)")  // already redacted
///     }
///   }
/// }
/// ```
///
/// Every sink receives text and records that have already been redacted.
public struct LogSink: Sendable {
  enum Target: Sendable {
    case text(colored: Bool, write: @Sendable (String) -> Void)
    case records(@Sendable (LogRecord) -> Void)
  }

  let target: Target

  /// Writes each record's text to standard output, one `print` per record. It is coloured only
  /// when standard output is a terminal and the `NO_COLOR` environment variable is not set.
  public static var standardOutput: LogSink {
    LogSink(target: .text(colored: standardOutputIsColorTerminal, write: { print($0) }))
  }

  /// Hands each record's text to `write`: one call per record, lines separated by `"\n"`,
  /// without a trailing newline.
  ///
  /// - Parameters:
  ///   - colored: Add ANSI colour codes.
  ///   - write: The function that writes the text.
  public static func text(
    colored: Bool = false, _ write: @escaping @Sendable (_ text: String) -> Void
  ) -> LogSink {
    LogSink(target: .text(colored: colored, write: write))
  }

  /// Hands each structured ``LogRecord`` to `write`, e.g. to adapt swift-log or `os.Logger`.
  public static func records(_ write: @escaping @Sendable (_ record: LogRecord) -> Void) -> LogSink {
    LogSink(target: .records(write))
  }

  private static var standardOutputIsColorTerminal: Bool {
    if getenv("NO_COLOR") != nil { return false }
    if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
    return isatty(STDOUT_FILENO) != 0
  }
}
