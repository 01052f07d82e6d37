import ChronicleStore

/// Turns states and actions into JSON for exports: through `Encodable` when the value conforms
/// (redacted as it is encoded), and as a redacted description otherwise.
struct ExportEncoder {
  let redaction: Redaction
  private let encoder: JSONValueEncoder

  init(redaction: Redaction) {
    self.redaction = redaction
    encoder = JSONValueEncoder(redaction: redaction)
  }

  /// The value's JSON and whether it is its encoding (replayable) rather than its description.
  func encode(_ value: Any) -> (json: JSONValue, encoded: Bool) {
    if let encodable = value as? any Encodable, let json = try? encoder.encode(encodable) {
      return (json, true)
    }
    return (.string(description(of: value)), false)
  }

  /// ``encode(_:)``, and the parts written as `"<redacted>"` (none for a description).
  func encodeRecordingRedactions(_ value: Any) -> (json: JSONValue, redacted: [RedactedPart]) {
    if let encodable = value as? any Encodable,
      let (json, parts) = try? encoder.encodeRecordingRedactions(encodable)
    {
      return (json, parts)
    }
    return (.string(description(of: value)), [])
  }

  /// The value's redacted one-line description.
  func description(of value: Any) -> String {
    ValueDump.renderInline(value, redaction: redaction)
  }
}
