/// A JSON document in memory, as the exporters build it and the importers read it.
///
/// Numbers keep their text, so that integers beyond `Double`'s precision (sequence numbers,
/// nanosecond times) survive a round trip exactly. Objects keep their members in order, and the
/// parser refuses duplicate keys (keys with the same bytes: see ``JSONKey``), so an object never
/// holds two members with one key.
package enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  /// A number, as its validated JSON text: `42`, `-0.5`, `1e-7`.
  case number(String)
  case string(String)
  case array([JSONValue])
  case object([JSONMember])

  /// An integer number.
  package static func integer(_ value: some BinaryInteger) -> JSONValue {
    .number(DecimalDigits.string(value))
  }

  /// The member named `key` of an object, or `nil`.
  package subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// The JSON type name, as errors report it: `object`, `array`, `string`, `number`, `bool`, `null`.
  package var typeName: String {
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
package struct JSONMember: Equatable, Sendable {
  package var key: String
  package var value: JSONValue

  package init(_ key: String, _ value: JSONValue) {
    self.key = key
    self.value = value
  }

  /// Keys are compared by their bytes, as JSON does (see ``JSONKey``).
  package static func == (left: JSONMember, right: JSONMember) -> Bool {
    JSONKey.same(left.key, right.key) && left.value == right.value
  }
}

extension JSONValue {
  /// The value with each array or object inside `limit` enclosing arrays and objects replaced by
  /// ``JSONParser/cutMarker``: what a parser with that depth limit and `cutsTooDeep` reads of it.
  package func cut(atDepth limit: Int) -> JSONValue {
    reaches(depth: limit) ? cut(level: 0, limit: limit) : self
  }

  /// Whether an array or object sits inside `depth` enclosing ones.
  private func reaches(depth: Int) -> Bool {
    switch self {
    case .array(let elements): depth <= 0 || elements.contains { $0.reaches(depth: depth - 1) }
    case .object(let members): depth <= 0 || members.contains { $0.value.reaches(depth: depth - 1) }
    default: false
    }
  }

  private func cut(level: Int, limit: Int) -> JSONValue {
    switch self {
    case .array(let elements):
      level >= limit
        ? .string(JSONParser.cutMarker) : .array(elements.map { $0.cut(level: level + 1, limit: limit) })
    case .object(let members):
      level >= limit
        ? .string(JSONParser.cutMarker)
        : .object(members.map { JSONMember($0.key, $0.value.cut(level: level + 1, limit: limit)) })
    default: self
    }
  }
}

extension [JSONMember] {
  /// The value of the member named `key`, by a scan. Keys of other lengths are passed over
  /// without comparing their text: most keys differ in length, and a failed `==` of two strings
  /// costs a call into the standard library each.
  package func value(of key: String) -> JSONValue? {
    let length = key.utf8.count
    for member in self where member.key.utf8.count == length && member.key == key { return member.value }
    return nil
  }
}
