/// The text of a value for a message (an effect's error, a test failure, a replay report) that
/// never shows a value marked as sensitive or selected by a ``Redaction`` policy.
///
/// A value with nothing to hide keeps the text it prints as, `String(describing:)`, which is
/// what its author chose (an error's message). A value with a part to hide is written as its
/// redacted dump instead: its own description may interpolate the secret, and only the dump
/// knows where the secret is.
package enum SafeDescription {
  /// `String(describing: value)`, or its inline dump with `<redacted>` parts when it holds a part
  /// to hide.
  ///
  /// - Parameters:
  ///   - value: Any value: an error, an action, a state.
  ///   - redaction: Which values to hide, besides those marked as sensitive.
  package static func of(_ value: Any, redaction: Redaction = .default) -> String {
    redactedDump(of: value, redaction: redaction) ?? String(describing: value)
  }

  /// ``of(_:redaction:)`` for a value written after a dot, as an action is in `.send(.add(5))`:
  /// the redacted form of an enum case is `login(<redacted>)`, without its type or dot.
  ///
  /// - Parameters:
  ///   - value: Typically an action.
  ///   - redaction: Which values to hide, besides those marked as sensitive.
  package static func member(_ value: Any, redaction: Redaction = .default) -> String {
    let dump = ValueRenderer.inlineText(of: value, at: .root, redaction: redaction)
    guard dump.contains(Redaction.placeholder) else { return String(describing: value) }
    return dump.hasPrefix(".") ? String(dump.dropFirst()) : dump
  }

  /// The inline dump of `value` when it shows a redacted part, `nil` otherwise.
  private static func redactedDump(of value: Any, redaction: Redaction) -> String? {
    let dump = ValueDump.renderInline(value, redaction: redaction)
    return dump.contains(Redaction.placeholder) ? dump : nil
  }
}
