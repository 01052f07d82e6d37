import ChronicleInspection
import ChronicleStore
import ChronicleTracer

/// How an export writes states and actions.
public struct ExportOptions: Sendable {
  /// Which states a Journal JSON export writes besides the base state.
  public enum States: Sendable, Hashable {
    /// The journal's checkpoints only: the file stays small and replays with the reducer.
    case checkpoints
    /// The state after every entry as well (as `"state"`), recomputed while writing: for
    /// viewers, and for replays that verify every state.
    case everyEntry
  }

  /// What to hide: every state and action written passes through this policy, including its key
  /// rules (applied to JSON keys as to property names, and to an enum case's key as to the case:
  /// `case token(String)` is written `{"token":{"_0":"<redacted>"}}`) and
  /// ``/ChronicleInspection/SensitiveValue``s.
  /// Values wrapped in ``/ChronicleInspection/Redacted`` are hidden whatever the policy.
  public var redaction: Redaction
  /// Which states a Journal JSON export writes.
  public var states: States

  /// Creates options.
  public init(redaction: Redaction = .default, states: States = .checkpoints) {
    self.redaction = redaction
    self.states = states
  }
}
