import ChronicleInspection
import ChronicleStore

/// The first place where a replay computed another state than the one recorded.
///
/// ```text
/// entry 7 (#8) .add(5), cause user: the state differs
///   count: 12 → 13
/// ```
public struct ReplayDivergence<State: Sendable, Action: Sendable>: Error, Sendable, CustomStringConvertible {
  /// The position of the entry after which the states differ.
  public let index: Int
  /// The store's sequence number for that entry's action.
  public let sequence: UInt64
  /// The entry's action.
  public let action: Action
  /// Who sent the action.
  public let cause: Cause
  /// The context label the action was sent with.
  public let context: String?
  /// The first entry that may have caused the difference. Equal to ``index`` when the state
  /// after every entry was recorded; otherwise the entry after the last state that matched (a
  /// journal records full states only at its checkpoints).
  public let firstSuspect: Int
  /// The state recorded.
  public let expected: State
  /// The state the reducer computed.
  public let actual: State
  /// What differs, from expected to actual: ``/ChronicleInspection/StateDiff/render(from:to:redaction:)``.
  public let diff: String
  /// Where the diverging action was sent, when the journal recorded it.
  public let site: RecordedCallSite?
  /// Where the effect that sent it was created, when the journal recorded it.
  public let effectSite: RecordedCallSite?

  /// Creates a divergence report.
  public init(
    index: Int, sequence: UInt64, action: Action, cause: Cause, context: String?, firstSuspect: Int,
    expected: State, actual: State, diff: String, site: RecordedCallSite? = nil,
    effectSite: RecordedCallSite? = nil
  ) {
    self.site = site
    self.effectSite = effectSite
    self.index = index
    self.sequence = sequence
    self.action = action
    self.cause = cause
    self.context = context
    self.firstSuspect = firstSuspect
    self.expected = expected
    self.actual = actual
    self.diff = diff
  }

  /// The report as text: the entry, its action, cause and call site, then the diff (expected → actual),
  /// one change per indented line. An action holding a value marked as sensitive is written as
  /// its dump, with `<redacted>` in the value's place.
  public var description: String {
    text(action: SafeDescription.member(action), diff: diff)
  }

  /// The report as text (see ``description``), with the values `redaction` selects written
  /// `<redacted>` in the action and in the diff too.
  ///
  /// - Parameter redaction: The policy of the app's logger and exports, such as
  ///   `Redaction(keys: ["token"])`.
  /// - Returns: The entry, its action and cause, then the diff, one change per indented line.
  public func description(redaction: Redaction) -> String {
    text(
      action: SafeDescription.member(action, redaction: redaction),
      diff: StateDiff.render(from: expected, to: actual, redaction: redaction))
  }

  private func text(action: String, diff: String) -> String {
    var text = "entry \(index) (#\(sequence)) \(action), cause \(cause)"
    if let context { text += ", context \(context)" }
    if let site { text += ", sent from \(site)" }
    if let effectSite { text += " by the effect created at \(effectSite)" }
    text += ": the replayed state differs from the recorded one (expected → actual)"
    if firstSuspect != index { text += "; the difference arose in entries \(firstSuspect)...\(index)" }
    let lines = diff.split(separator: "\n", omittingEmptySubsequences: false)
    return text + "\n" + lines.map { "  \($0)" }.joined(separator: "\n")
  }
}
