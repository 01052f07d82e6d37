import ChronicleInspection

/// The error an effect, thunk or timer threw, kept whole so that each output writes it under its
/// own ``/ChronicleInspection/Redaction`` policy.
///
/// An error's text is made by the output that shows it, never once for all: a logger, a test
/// store, a journal export each call ``description(redaction:)`` with their policy, as they do
/// for actions and states. ``description`` is the text under the default policy, which hides only
/// the values marked as sensitive: what ``EffectEvent/Phase/failed(_:)`` carries.
///
/// Printing or dumping an `EffectError` shows ``description``, never the error's stored parts.
public struct EffectError: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
  /// The error thrown.
  public let error: any Error
  /// The error's text under the default policy: its own description, or its dump with
  /// `<redacted>` parts when it holds a value marked as sensitive.
  public let description: String

  /// Keeps `error`, and writes it under the default policy.
  ///
  /// - Parameter error: The error an effect threw.
  public init(_ error: any Error) {
    self.error = error
    self.description = SafeDescription.of(error)
  }

  /// The error's text under `redaction`: its own description when it holds nothing the policy
  /// hides, its dump with `<redacted>` parts otherwise.
  ///
  /// - Parameter redaction: The policy of the output that shows the error, such as
  ///   `Redaction(keys: ["token"])`.
  /// - Returns: Text that never shows a value marked as sensitive or selected by `redaction`.
  public func description(redaction: Redaction) -> String {
    redaction.hasRules ? SafeDescription.of(error, redaction: redaction) : description
  }

  /// Two errors are the same when their texts under the default policy are.
  public static func == (lhs: EffectError, rhs: EffectError) -> Bool {
    lhs.description == rhs.description
  }

  /// Hashes the text under the default policy.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(description)
  }

  /// A mirror with the text only, so that a dump never shows the error's stored parts.
  public var customMirror: Mirror {
    Mirror(self, children: ["description": description], displayStyle: .struct)
  }
}
