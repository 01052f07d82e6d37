import Foundation

/// Decodes `Decodable` values straight from a parsed ``JSONValue``, as `JSONDecoder` with its
/// default strategies would decode the same JSON text.
///
/// The importers used to write each action and state back to text and hand it to `JSONDecoder`,
/// which parsed it again: this reads the tree the strict parser already built and validated.
/// It reads what ``JSONValueEncoder`` writes: `Date` through its own `Decodable` conformance
/// (seconds since the reference date), `Data` as Base64, `URL` as its absolute string, `Decimal`
/// from the number's text; non-finite numbers are never written, so none is read.
///
/// Errors are the `DecodingError`s `JSONDecoder` throws, with the coding path of the value:
/// `typeMismatch` (a value of another JSON type), `valueNotFound` (`null`, or the end of an
/// array), `keyNotFound` and `dataCorrupted` (a number that the type does not hold, invalid Base64
/// or URL). Array positions in the path are keys whose `stringValue` is `Index n`.
///
/// Depth needs no limit of its own: the decoder recurses once per level of a tree that the parser
/// built within its depth limit.
package struct JSONValueDecoder {
  package init() {}

  /// The value of type `type` that `value` holds.
  package func decode<Value: Decodable>(_ type: Value.Type, from value: JSONValue) throws -> Value {
    try TreeDecoder(value, key: nil, parent: nil).decodeValue(Value.self)
  }
}

/// An array position in a coding path, spelled as `JSONDecoder` spells it.
private struct JSONIndexKey: CodingKey {
  var stringValue: String { "Index \(index)" }
  var intValue: Int? { index }
  let index: Int

  init(index: Int) { self.index = index }
  init?(stringValue: String) { nil }
  init(intValue: Int) { index = intValue }
}

/// The decoder of one value. It is also the node of the coding path: the path is built by
/// walking up the parents only when something asks for it (an error, mostly), so decoding a
/// nested value costs one object and no array.
private final class TreeDecoder: Decoder, SingleValueDecodingContainer {
  let value: JSONValue
  let key: (any CodingKey)?
  let parent: TreeDecoder?

  init(_ value: JSONValue, key: (any CodingKey)?, parent: TreeDecoder?) {
    self.value = value
    self.key = key
    self.parent = parent
  }

  var codingPath: [any CodingKey] {
    var path: [any CodingKey] = []
    var node: TreeDecoder? = self
    while let current = node {
      if let key = current.key { path.append(key) }
      node = current.parent
    }
    path.reverse()
    return path
  }

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    switch value {
    case .object(let members): return KeyedDecodingContainer(KeyedTreeContainer<Key>(members, decoder: self))
    case .null:
      throw DecodingError.valueNotFound(
        [String: Any].self,
        DecodingError.Context(
          codingPath: codingPath,
          debugDescription: "Cannot get keyed decoding container -- found null value instead"
        ))
    default: throw typeMismatch([String: Any].self, value, path: codingPath)
    }
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    switch value {
    case .array(let elements): return UnkeyedTreeContainer(elements, decoder: self)
    case .null:
      throw DecodingError.valueNotFound(
        [Any].self,
        DecodingError.Context(
          codingPath: codingPath,
          debugDescription: "Cannot get unkeyed decoding container -- found null value instead"
        ))
    default: throw typeMismatch([Any].self, value, path: codingPath)
    }
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  // MARK: Single value

  func decodeNil() -> Bool { value == .null }
  func decode(_ type: Bool.Type) throws -> Bool { try Scalar.bool(value, path: self) }
  func decode(_ type: String.Type) throws -> String { try Scalar.string(value, path: self) }
  func decode(_ type: Double.Type) throws -> Double { try Scalar.floating(value, path: self) }
  func decode(_ type: Float.Type) throws -> Float { try Scalar.floating(value, path: self) }
  func decode(_ type: Int.Type) throws -> Int { try Scalar.integer(value, path: self) }
  func decode(_ type: Int8.Type) throws -> Int8 { try Scalar.integer(value, path: self) }
  func decode(_ type: Int16.Type) throws -> Int16 { try Scalar.integer(value, path: self) }
  func decode(_ type: Int32.Type) throws -> Int32 { try Scalar.integer(value, path: self) }
  func decode(_ type: Int64.Type) throws -> Int64 { try Scalar.integer(value, path: self) }
  func decode(_ type: UInt.Type) throws -> UInt { try Scalar.integer(value, path: self) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try Scalar.integer(value, path: self) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try Scalar.integer(value, path: self) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try Scalar.integer(value, path: self) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try Scalar.integer(value, path: self) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(T.self) }

  /// This decoder's value as a `T`: the types `JSONDecoder` special-cases by default are read
  /// here, everything else by its own `init(from:)`.
  func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
    if let special = try Scalar.special(T.self, value, path: self) { return special }
    return try T(from: self)
  }

  /// The decoder of a value inside this one.
  func child(_ value: JSONValue, key: any CodingKey) -> TreeDecoder {
    TreeDecoder(value, key: key, parent: self)
  }
}

/// The conversions from JSON scalars, shared by the single-value, keyed and unkeyed containers.
/// `path` is asked for the coding path only when an error needs it: building one costs an array.
private enum Scalar {
  static func bool(_ value: JSONValue, path: some CodingPathSource) throws -> Bool {
    guard case .bool(let flag) = value else { throw mismatch(Bool.self, value, path) }
    return flag
  }

  static func string(_ value: JSONValue, path: some CodingPathSource) throws -> String {
    guard case .string(let text) = value else { throw mismatch(String.self, value, path) }
    return text
  }

  /// An integer as `JSONDecoder` reads one: digits within the type's range, or a number with a
  /// fraction or exponent whose value is a whole number within it (`5.0`, `1e3`).
  static func integer<Integer: FixedWidthInteger>(
    _ value: JSONValue, path: some CodingPathSource
  ) throws -> Integer {
    guard case .number(let text) = value else { throw mismatch(Integer.self, value, path) }
    switch WholeNumber<Integer>(text) {
    case .value(let integer): return integer
    case .outOfRange: break
    case .notWhole:
      if let double = Double(text), double.isFinite, let integer = Integer(exactly: double) { return integer }
    }
    throw DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: path.codingPath,
        debugDescription: "Parsed JSON number <\(text)> does not fit in \(Integer.self)."))
  }

  /// A floating-point number: out of the type's finite range is an error, as in `JSONDecoder`
  /// (precision beyond the type's is rounded).
  static func floating<Floating: BinaryFloatingPoint>(
    _ value: JSONValue, path: some CodingPathSource
  ) throws -> Floating {
    guard case .number(let text) = value else { throw mismatch(Floating.self, value, path) }
    guard let double = Double(text), double.isFinite, Floating(double).isFinite else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: path.codingPath,
          debugDescription: "Parsed JSON number <\(text)> does not fit in \(Floating.self)."))
    }
    return Floating(double)
  }

  /// The scalars and the types `JSONDecoder` special-cases by default, read without a decoder
  /// of their own; `nil` for any other type. Told apart by comparing types, not by casts.
  static func special<T>(
    _ type: T.Type, _ value: JSONValue, path: some CodingPathSource
  ) throws -> T? {
    func `is`<U>(_ other: U.Type) -> Bool { T.self == U.self }
    func cast<U>(_ result: U) -> T { unsafeBitCast(result, to: T.self) }
    if `is`(String.self) { return cast(try string(value, path: path)) }
    if `is`(Int.self) { return cast(try integer(value, path: path) as Int) }
    if `is`(Bool.self) { return cast(try bool(value, path: path)) }
    if `is`(Double.self) { return cast(try floating(value, path: path) as Double) }
    if `is`(Int64.self) { return cast(try integer(value, path: path) as Int64) }
    if `is`(UInt64.self) { return cast(try integer(value, path: path) as UInt64) }
    if `is`(Data.self) {
      let text = try string(value, path: path)
      guard let data = Data(base64Encoded: text) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: path.codingPath, debugDescription: "Encountered Data is not valid Base64."))
      }
      return cast(data)
    }
    if `is`(URL.self) {
      let text = try string(value, path: path)
      guard let url = URL(string: text) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(codingPath: path.codingPath, debugDescription: "Invalid URL string."))
      }
      return cast(url)
    }
    if `is`(Decimal.self) {
      guard case .number(let text) = value else { throw mismatch(Decimal.self, value, path) }
      guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: path.codingPath,
            debugDescription: "Parsed JSON number <\(text)> does not fit in Decimal."))
      }
      return cast(decimal)
    }
    return nil
  }

  static func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: some CodingPathSource) -> DecodingError {
    if value == .null {
      return DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: path.codingPath,
          debugDescription: "Cannot get value of type \(type) -- found null value instead"))
    }
    return typeMismatch(type, value, path: path.codingPath)
  }
}

/// Something that can say where a value is, when asked.
private protocol CodingPathSource {
  var codingPath: [any CodingKey] { get }
}

extension TreeDecoder: CodingPathSource {}

/// The coding path of a value inside a container: the container's path and one key.
private struct ChildPath: CodingPathSource {
  let parent: TreeDecoder
  let key: any CodingKey
  var codingPath: [any CodingKey] { parent.codingPath + [key] }
}

private func typeMismatch(_ type: Any.Type, _ value: JSONValue, path: [any CodingKey]) -> DecodingError {
  let found =
    switch value {
    case .null: "null"
    case .bool: "bool"
    case .number(let text): "number \(text)"
    case .string: "a string"
    case .array: "an array"
    case .object: "a dictionary"
    }
  return DecodingError.typeMismatch(
    type,
    DecodingError.Context(
      codingPath: path, debugDescription: "Expected to decode \(type) but found \(found) instead."))
}

// MARK: - Containers

private struct KeyedTreeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let members: [JSONMember]
  let decoder: TreeDecoder
  /// The members' positions by key, for large objects only: most are small enough to scan.
  private let positions: [String: Int]?

  init(_ members: [JSONMember], decoder: TreeDecoder) {
    self.members = members
    self.decoder = decoder
    if members.count > 16 {
      var positions: [String: Int] = [:]
      for (position, member) in members.enumerated() { positions[member.key] = position }
      self.positions = positions
    } else {
      positions = nil
    }
  }

  var codingPath: [any CodingKey] { decoder.codingPath }

  var allKeys: [Key] {
    // Synthesized enum decoding asks for every case's payload: reserved, not grown.
    var keys: [Key] = []
    keys.reserveCapacity(members.count)
    for member in members {
      if let key = Key(stringValue: member.key) { keys.append(key) }
    }
    return keys
  }

  private func find(_ key: Key) -> JSONValue? {
    let name = key.stringValue
    if let positions { return positions[name].map { members[$0].value } }
    return members.value(of: name)
  }

  private func value(for key: Key) throws -> JSONValue {
    guard let value = find(key) else {
      throw DecodingError.keyNotFound(
        key,
        DecodingError.Context(
          codingPath: codingPath,
          debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }
    return value
  }

  private func path(_ key: Key) -> ChildPath { ChildPath(parent: decoder, key: key) }

  func contains(_ key: Key) -> Bool { find(key) != nil }

  func decodeNil(forKey key: Key) throws -> Bool { try value(for: key) == .null }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try Scalar.bool(value(for: key), path: path(key))
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try Scalar.string(value(for: key), path: path(key))
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try Scalar.floating(value(for: key), path: path(key))
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try Scalar.floating(value(for: key), path: path(key))
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try Scalar.integer(value(for: key), path: path(key))
  }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try Scalar.integer(value(for: key), path: path(key))
  }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try Scalar.integer(value(for: key), path: path(key))
  }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try Scalar.integer(value(for: key), path: path(key))
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try Scalar.integer(value(for: key), path: path(key))
  }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try Scalar.integer(value(for: key), path: path(key))
  }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try Scalar.integer(value(for: key), path: path(key))
  }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try Scalar.integer(value(for: key), path: path(key))
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try Scalar.integer(value(for: key), path: path(key))
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try Scalar.integer(value(for: key), path: path(key))
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    let value = try value(for: key)
    if let special = try Scalar.special(T.self, value, path: path(key)) { return special }
    return try T(from: decoder.child(value, key: key))
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try decoder.child(value(for: key), key: key).container(keyedBy: NestedKey.self)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try decoder.child(value(for: key), key: key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    decoder.child(find(key: "super") ?? .null, key: SuperKey())
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    decoder.child(find(key) ?? .null, key: key)
  }

  private func find(key name: String) -> JSONValue? {
    members.first { $0.key == name }?.value
  }
}

/// The key `superDecoder()` reads, as `JSONDecoder` names it.
private struct SuperKey: CodingKey {
  var stringValue: String { "super" }
  var intValue: Int? { nil }
  init() {}
  init?(stringValue: String) { nil }
  init?(intValue: Int) { nil }
}

private struct UnkeyedTreeContainer: UnkeyedDecodingContainer {
  let elements: [JSONValue]
  let decoder: TreeDecoder
  private(set) var currentIndex = 0

  init(_ elements: [JSONValue], decoder: TreeDecoder) {
    self.elements = elements
    self.decoder = decoder
  }

  var codingPath: [any CodingKey] { decoder.codingPath }
  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  private var path: ChildPath { ChildPath(parent: decoder, key: JSONIndexKey(index: currentIndex)) }

  /// The next element, without moving past it.
  private func next(_ type: Any.Type) throws -> JSONValue {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(codingPath: path.codingPath, debugDescription: "Unkeyed container is at end."))
    }
    return elements[currentIndex]
  }

  mutating func decodeNil() throws -> Bool {
    let isNull = try next(Any?.self) == .null
    if isNull { currentIndex += 1 }
    return isNull
  }

  private mutating func scalar<T>(_ read: (JSONValue, ChildPath) throws -> T) throws -> T {
    let result = try read(next(T.self), path)
    currentIndex += 1
    return result
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool { try scalar { try Scalar.bool($0, path: $1) } }
  mutating func decode(_ type: String.Type) throws -> String {
    try scalar { try Scalar.string($0, path: $1) }
  }
  mutating func decode(_ type: Double.Type) throws -> Double {
    try scalar { try Scalar.floating($0, path: $1) }
  }
  mutating func decode(_ type: Float.Type) throws -> Float {
    try scalar { try Scalar.floating($0, path: $1) }
  }
  mutating func decode(_ type: Int.Type) throws -> Int { try scalar { try Scalar.integer($0, path: $1) } }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try scalar { try Scalar.integer($0, path: $1) } }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try scalar { try Scalar.integer($0, path: $1) } }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try scalar { try Scalar.integer($0, path: $1) } }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try scalar { try Scalar.integer($0, path: $1) } }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try scalar { try Scalar.integer($0, path: $1) } }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar { try Scalar.integer($0, path: $1) } }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
    try scalar { try Scalar.integer($0, path: $1) }
  }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
    try scalar { try Scalar.integer($0, path: $1) }
  }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
    try scalar { try Scalar.integer($0, path: $1) }
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let value = try next(T.self)
    let result: T
    if let special = try Scalar.special(T.self, value, path: path) {
      result = special
    } else {
      result = try T(from: decoder.child(value, key: JSONIndexKey(index: currentIndex)))
    }
    currentIndex += 1
    return result
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let value = try next(KeyedDecodingContainer<NestedKey>.self)
    let container = try decoder.child(value, key: JSONIndexKey(index: currentIndex)).container(
      keyedBy: NestedKey.self)
    currentIndex += 1
    return container
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let value = try next((any UnkeyedDecodingContainer).self)
    let container = try decoder.child(value, key: JSONIndexKey(index: currentIndex)).unkeyedContainer()
    currentIndex += 1
    return container
  }

  mutating func superDecoder() throws -> any Decoder {
    let value = try next((any Decoder).self)
    let child = decoder.child(value, key: JSONIndexKey(index: currentIndex))
    currentIndex += 1
    return child
  }
}
