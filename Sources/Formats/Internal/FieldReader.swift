import ChronicleJSON

/// One JSON object of an imported file held as a tree (see ``ObjectReader``): the headers, the
/// effect events, the live protocol's commands, and every object of a ``JournalFile``, which
/// keeps its entries as trees.
struct FieldReader: ObjectReader {
  /// The path of the object, or of its parent when `key` is set.
  private let basePath: FieldPath
  /// The object's key in its parent, for a reader made by ``reader(of:key:)``.
  private let key: String?
  private let members: [JSONMember]
  /// The members' positions by key, for large objects only: most are small enough to scan.
  private let positions: [String: Int]?

  var path: FieldPath { key.map { basePath.appending($0) } ?? basePath }

  init(_ value: JSONValue, path: FieldPath) throws(JournalImportError) {
    try self.init(value, basePath: path, key: nil)
  }

  private init(_ value: JSONValue, basePath: FieldPath, key: String?) throws(JournalImportError) {
    guard case .object(let members) = value else {
      throw Self.mismatch(value, path: key.map { basePath.appending($0) } ?? basePath, expected: "object")
    }
    self.basePath = basePath
    self.key = key
    self.members = members
    if members.count > 16 {
      var positions: [String: Int] = [:]
      for (position, member) in members.enumerated() { positions[member.key] = position }
      self.positions = positions
    } else {
      positions = nil
    }
  }

  var memberCount: Int { members.count }
  var firstMember: Int { 0 }
  func member(after member: Int) -> Int { member + 1 }
  func keyLength(of member: Int) -> Int { members[member].key.utf8.count }
  func key(of member: Int, is key: StaticString) -> Bool {
    key.withUTF8Buffer { members[member].key.utf8.elementsEqual($0) }
  }
  func value(of member: Int) -> JSONValue { members[member].value }

  func optional(_ key: StaticString) -> JSONValue? {
    if let positions { return positions["\(key)"].map { members[$0].value } }
    let length = key.utf8CodeUnitCount
    for member in members.indices where keyLength(of: member) == length && self.key(of: member, is: key) {
      return members[member].value
    }
    return nil
  }

  /// The value of `key`, a key the file chose (an id), `nil` when absent.
  func optional(named key: String) -> JSONValue? {
    if let positions { return positions[key].map { members[$0].value } }
    return members.value(of: key)
  }

  func reader(of value: JSONValue, key: StaticString) throws(JournalImportError) -> FieldReader {
    self.key == nil
      ? try FieldReader(value, basePath: basePath, key: "\(key)")
      : try FieldReader(value, path: path.appending("\(key)"))
  }

  static func typeName(of value: JSONValue) -> String { value.typeName }

  static func text(of value: JSONValue) -> String? {
    guard case .string(let text) = value else { return nil }
    return text
  }

  static func flag(of value: JSONValue) -> Bool? {
    guard case .bool(let flag) = value else { return nil }
    return flag
  }

  static func wholeNumber<Integer: FixedWidthInteger>(of value: JSONValue) -> WholeNumber<Integer>? {
    guard case .number(let text) = value else { return nil }
    return WholeNumber(text)
  }

  static func numberText(of value: JSONValue) -> String {
    guard case .number(let text) = value else { return "" }
    return text
  }

  static func elements(of value: JSONValue) -> [JSONValue]? {
    guard case .array(let elements) = value else { return nil }
    return elements
  }
}
