/// A JSON document in memory, as the exporters build it and the importers read it.
///
/// Numbers keep their text, so that integers beyond `Double`'s precision (sequence numbers,
/// nanosecond times) survive a round trip exactly. Objects keep their members in order, and the
/// parser refuses duplicate keys, so an object never holds two members with one key.
enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  /// A number, as its validated JSON text: `42`, `-0.5`, `1e-7`.
  case number(String)
  case string(String)
  case array([JSONValue])
  case object([JSONMember])

  /// An integer number.
  static func integer(_ value: some BinaryInteger) -> JSONValue { .number(String(value)) }

  /// The member named `key` of an object, or `nil`.
  subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// The JSON type name, as errors report it: `object`, `array`, `string`, `number`, `bool`, `null`.
  var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "bool"
    case .number: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }
}

/// A member of a JSON object.
struct JSONMember: Equatable, Sendable {
  var key: String
  var value: JSONValue

  init(_ key: String, _ value: JSONValue) {
    self.key = key
    self.value = value
  }
}
