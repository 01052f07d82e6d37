import ChronicleStore
import Foundation

/// One entry of the logger's output, structured: what a record sink receives (see ``LogSink``).
///
/// A record describes either an action (``action`` is set) or a change in the life of an effect,
/// thunk or timer (``effect`` is set). Every text in it has already been redacted.
public struct LogRecord: Sendable, Hashable {
  /// How important the record is.
  public var level: LogLevel
  /// The action's sequence number; `nil` for an effect record.
  public var sequence: UInt64?
  /// When the action was processed, or the effect event happened; `nil` when timestamps are off.
  public var timestamp: Date?
  /// The action's context label.
  public var context: String?
  /// Who sent the action, or who started the effect.
  public var cause: Cause
  /// The action, rendered (after the action transformer); `nil` for an effect record.
  public var action: String?
  /// The effect event; `nil` for an action record.
  public var effect: EffectEvent?
  /// How long the middlewares after the logger and the reducer took, from the logger passing the
  /// action on to the chain returning to it; `nil` when durations are off. The logger's own
  /// rendering is not part of it (a tracer before the logger counts it in its chain duration).
  public var duration: Duration?
  /// The parts of the state that changed, one description each (`todos[2].done: false → true`);
  /// `nil` when the diff is off, or for an effect record.
  public var changes: [String]?
  /// The whole state before the action, rendered; set only when the diff is off.
  public var stateBefore: String?
  /// The whole state after the action, rendered; set only when the diff is off.
  public var stateAfter: String?
  /// The record's title line, as text sinks print it first.
  public var message: String
  /// The lines after the title, as expanded text output prints them (indented).
  public var details: [String]

  /// Creates a record.
  public init(
    level: LogLevel, sequence: UInt64?, timestamp: Date?, context: String?, cause: Cause,
    action: String?, effect: EffectEvent?, duration: Duration?, changes: [String]?,
    stateBefore: String?, stateAfter: String?, message: String, details: [String]
  ) {
    self.level = level
    self.sequence = sequence
    self.timestamp = timestamp
    self.context = context
    self.cause = cause
    self.action = action
    self.effect = effect
    self.duration = duration
    self.changes = changes
    self.stateBefore = stateBefore
    self.stateAfter = stateAfter
    self.message = message
    self.details = details
  }

  /// The record as expanded text output shows it: the title, then each detail line indented by
  /// two spaces.
  public var text: String {
    var text = message
    for line in details { text += "\n  " + line }
    return text
  }
}
