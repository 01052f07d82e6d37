/// A value of the JSON that `--json` prints, written with its members in the order given, so
/// that the output's shape is stable.
indirect enum JSONOutput {
  case null
  case integer(Int64)
  case string(String)
  /// JSON text the journal's own writer produced (an action, a state), embedded as it is.
  case raw(String)
  case array([JSONOutput])
  case object([(String, JSONOutput)])

  static func optional(_ text: String?) -> JSONOutput { text.map { .string($0) } ?? .null }

  /// The value on one line.
  var text: String {
    switch self {
    case .null: "null"
    case .integer(let value): String(value)
    case .string(let value): Self.quoted(value)
    case .raw(let json): json
    case .array(let elements): "[" + elements.map(\.text).joined(separator: ",") + "]"
    case .object(let members):
      "{" + members.map { Self.quoted($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
    }
  }

  private static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
