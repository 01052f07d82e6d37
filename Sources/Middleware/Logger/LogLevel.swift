/// How important a log record is. The names and raw values are swift-log's, so an adapter maps
/// them with `Logger.Level(rawValue: record.level.rawValue)`.
public enum LogLevel: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
  /// Finest detail.
  case trace
  /// Detail for debugging.
  case debug
  /// Normal operation: the logger's default for actions.
  case info
  /// Worth noticing.
  case notice
  /// Something may be wrong.
  case warning
  /// Something failed: the logger's level for failed effects, thunks and timers.
  case error
  /// The program cannot go on.
  case critical

  private var rank: Int {
    switch self {
    case .trace: 0
    case .debug: 1
    case .info: 2
    case .notice: 3
    case .warning: 4
    case .error: 5
    case .critical: 6
    }
  }

  /// Whether `lhs` is less important than `rhs`.
  public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rank < rhs.rank }
}
