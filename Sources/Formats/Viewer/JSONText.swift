import ChronicleJSON
import ChronicleTracer

/// JSON text for people: indented, with keys in the order the file has them.
enum JSONText {
  /// `value` indented by two spaces per level.
  static func pretty(_ value: JSONValue, indent: String = "") -> String {
    switch value {
    case .array(let elements) where !elements.isEmpty:
      let inner = indent + "  "
      return "[\n" + elements.map { inner + pretty($0, indent: inner) }.joined(separator: ",\n")
        + "\n\(indent)]"
    case .object(let members) where !members.isEmpty:
      let inner = indent + "  "
      let lines = members.map { member in
        inner + compact(.string(member.key)) + ": " + pretty(member.value, indent: inner)
      }
      return "{\n" + lines.joined(separator: ",\n") + "\n\(indent)}"
    default:
      return compact(value)
    }
  }

  /// `value` on one line.
  static func compact(_ value: JSONValue) -> String {
    String(decoding: JSONWriter.serialize(value), as: UTF8.self)
  }
}

extension JSONValue {
  /// The text of a string value, `nil` for other values.
  var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The elements of an array value, `nil` for other values.
  var arrayValue: [JSONValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }

  /// The text of a number value, `nil` for other values.
  var numberText: String? {
    if case .number(let text) = self { return text }
    return nil
  }
}
