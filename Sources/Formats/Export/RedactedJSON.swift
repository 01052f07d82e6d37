import ChronicleInspection
import ChronicleJSON
import ChronicleStore
import ChronicleTracer

/// JSON text for values written outside a journal (the states of a generated test), with the
/// redaction every export applies: a value marked as sensitive, or selected by the policy, is
/// written `"<redacted>"` even when its own `encode(to:)` would reveal it.
package enum RedactedJSON {
  /// `value` as compact JSON text, object members sorted by key.
  ///
  /// - Parameters:
  ///   - value: The value to encode.
  ///   - redaction: Which values to write as `"<redacted>"`, besides those marked as sensitive.
  /// - Returns: The text and whether any part was written as `"<redacted>"`.
  /// - Throws: What the value's `encode(to:)` throws, or `EncodingError.invalidValue` for a
  ///   number JSON cannot hold.
  package static func text(
    of value: some Encodable, redaction: Redaction
  ) throws -> (text: String, redacted: Bool) {
    let json = try JSONValueEncoder(redaction: redaction).encode(value)
    let hidden = contains(Redaction.placeholder, in: json)
    return (String(decoding: JSONWriter.serialize(sorted(json)), as: UTF8.self), hidden)
  }

  private static func sorted(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let members):
      .object(members.sorted { $0.key < $1.key }.map { JSONMember($0.key, sorted($0.value)) })
    case .array(let elements): .array(elements.map(sorted))
    default: value
    }
  }

  private static func contains(_ text: String, in value: JSONValue) -> Bool {
    switch value {
    case .string(let string): string == text
    case .object(let members): members.contains { contains(text, in: $0.value) }
    case .array(let elements): elements.contains { contains(text, in: $0) }
    default: false
    }
  }
}
