import ChronicleStore
import Foundation

/// Encodes `Encodable` values to ``JSONValue`` trees, redacting as it goes.
///
/// Every value met while encoding, at any depth, is offered to the ``/ChronicleInspection/Redaction`` policy with its
/// path (a keyed container's key is a `.property`, an unkeyed container's position an `.index`),
/// so the key rules apply to the JSON produced as well as to printed values, and any
/// ``/ChronicleInspection/SensitiveValue`` is written `"<redacted>"` even when its own `encode(to:)` would reveal it.
///
/// A nested container opened for a key (how synthesized `Codable` writes an enum case's payload,
/// `{"token":{"_0":…}}`) is checked against the key rules too: in one whose key a rule names,
/// every value is written `"<redacted>"`, at any depth, as the printed value hides the payload of
/// `case token(String)`: `{"token":{"_0":"<redacted>"}}`. The JSON keeps its shape, so a payload
/// that a `String` holds decodes again, as a property's redacted value does.
///
/// The output matches `JSONEncoder`'s default strategies (`Date` as seconds since the reference
/// date, `Data` as Base64, `URL` as its absolute string), so `JSONDecoder` reads it back.
struct JSONValueEncoder {
  var redaction: Redaction

  init(redaction: Redaction) {
    self.redaction = redaction
  }

  /// The JSON for `value`.
  ///
  /// - Throws: `EncodingError.invalidValue` for a non-finite floating-point number, or whatever
  ///   the value's own `encode(to:)` throws.
  func encode(_ value: some Encodable) throws -> JSONValue {
    let context = EncodingContext(redaction: redaction)
    return try context.box(value, path: []).resolved()
  }

  /// The JSON for `value`, and the values written as `"<redacted>"` with their places in it.
  ///
  /// Exports compare the parts of consecutive states to say that a redacted value changed
  /// without writing it (see ``RedactedPart``).
  func encodeRecordingRedactions(
    _ value: some Encodable
  ) throws -> (json: JSONValue, redacted: [RedactedPart]) {
    let context = EncodingContext(redaction: redaction)
    context.recordsRedactions = true
    let json = try context.box(value, path: []).resolved()
    return (json, context.redactedParts)
  }
}

/// A value the encoder wrote as `"<redacted>"`, with where it sits in the JSON.
struct RedactedPart {
  /// Object keys and array positions from the root of the JSON.
  var path: [StatePatch.PathComponent]
  /// The value itself.
  var value: Any
}

/// The policy and helpers shared by the encoders and containers of one `encode` call.
private final class EncodingContext {
  let redaction: Redaction
  var recordsRedactions = false
  var redactedParts: [RedactedPart] = []

  init(redaction: Redaction) {
    self.redaction = redaction
  }

  func redacts(_ value: Any, path: [any CodingKey]) -> Bool {
    // Without rules only the last key matters: the rest of the path is not built.
    let shown = redaction.readsWholePaths ? valuePath(path) : valuePath(path.suffix(1))
    if value is any SensitiveValue || redaction.redacts(value, at: shown) {
      record(value, path: path)
      return true
    }
    return false
  }

  /// Whether the key rules name the last key of `path`: every value in the container opened
  /// there is redacted.
  func redactsContainer(path: [any CodingKey]) -> Bool {
    // A key rule reads the last component only: the rest of the path is not built.
    redaction.redactsKey(at: valuePath(path.suffix(1)))
  }

  /// The node of `value`, or the placeholder in a container whose values are all redacted.
  func box(_ value: some Encodable, path: [any CodingKey], hidden: Bool) throws -> EncodedNode {
    guard hidden else { return try box(value, path: path) }
    record(value, path: path)
    return .value(.string(Redaction.placeholder))
  }

  private func record(_ value: Any, path: [any CodingKey]) {
    guard recordsRedactions else { return }
    let components = path.map { key -> StatePatch.PathComponent in
      if let index = key.intValue, key is IndexKey { return .index(index) }
      return .key(key.stringValue)
    }
    redactedParts.append(RedactedPart(path: components, value: value))
  }

  func valuePath(_ path: some Collection<any CodingKey>) -> ValuePath {
    ValuePath(
      path.map { key in
        if let index = key.intValue, key is IndexKey { return .index(index) }
        return .property(key.stringValue)
      })
  }

  func box(_ value: some Encodable, path: [any CodingKey]) throws -> EncodedNode {
    if redacts(value, path: path) { return .value(.string(Redaction.placeholder)) }
    if let primitive = try primitive(value, path: path) { return .value(primitive) }
    let encoder = TreeEncoder(context: self, codingPath: path)
    try value.encode(to: encoder)
    return encoder.node ?? .value(.object([]))
  }

  /// Values written directly rather than through their `encode(to:)`: scalars, and the types
  /// `JSONEncoder` special-cases by default. Told apart by their type, compared as a pointer,
  /// rather than by a dynamic cast per type: most values met are not scalars.
  func primitive<T>(_ value: T, path: [any CodingKey]) throws -> JSONValue? {
    func `is`<U>(_ type: U.Type) -> Bool { T.self == U.self }
    func `as`<U>(_ type: U.Type) -> U { unsafeBitCast(value, to: U.self) }
    if `is`(String.self) { return .string(`as`(String.self)) }
    if `is`(Int.self) { return .integer(`as`(Int.self)) }
    if `is`(Bool.self) { return .bool(`as`(Bool.self)) }
    if `is`(Double.self) { return try floating(`as`(Double.self), path: path) }
    if `is`(Int64.self) { return .integer(`as`(Int64.self)) }
    if `is`(UInt64.self) { return .integer(`as`(UInt64.self)) }
    if `is`(Int32.self) { return .integer(`as`(Int32.self)) }
    if `is`(UInt32.self) { return .integer(`as`(UInt32.self)) }
    if `is`(UInt.self) { return .integer(`as`(UInt.self)) }
    if `is`(Int16.self) { return .integer(`as`(Int16.self)) }
    if `is`(UInt16.self) { return .integer(`as`(UInt16.self)) }
    if `is`(Int8.self) { return .integer(`as`(Int8.self)) }
    if `is`(UInt8.self) { return .integer(`as`(UInt8.self)) }
    if `is`(Float.self) { return try floating(`as`(Float.self), path: path) }
    if `is`(Data.self) { return .string(`as`(Data.self).base64EncodedString()) }
    if `is`(URL.self) { return .string(`as`(URL.self).absoluteString) }
    if `is`(Decimal.self) {
      let decimal = `as`(Decimal.self)
      guard decimal.isFinite else { throw invalid(decimal, path: path) }
      return .number(decimal.description)
    }
    return nil
  }

  func floating<F: BinaryFloatingPoint & LosslessStringConvertible>(
    _ number: F, path: [any CodingKey]
  ) throws
    -> JSONValue
  {
    guard number.isFinite else { throw invalid(number, path: path) }
    var text = number.description
    // `Float(1e20).description` is "1e+20": valid JSON. Integral values print as "5.0": valid.
    if text.hasPrefix(".") { text = "0" + text }
    return .number(text)
  }

  func invalid(_ value: Any, path: [any CodingKey]) -> EncodingError {
    EncodingError.invalidValue(
      value,
      EncodingError.Context(codingPath: path, debugDescription: "\(value) is not representable in JSON"))
  }
}

/// A node under construction: containers are references so that nested containers can be
/// filled after they were handed out, as the `Encoder` protocol allows.
private enum EncodedNode {
  case value(JSONValue)
  case object(ObjectBox)
  case array(ArrayBox)
  case encoder(TreeEncoder)

  func resolved() -> JSONValue {
    switch self {
    case .value(let value): value
    case .object(let box): .object(box.members.map { JSONMember($0.key, $0.node.resolved()) })
    case .array(let box): .array(box.elements.map { $0.resolved() })
    case .encoder(let encoder): encoder.node?.resolved() ?? .object([])
    }
  }
}

private final class ObjectBox {
  var members: [(key: String, node: EncodedNode)] = []
  var positions: [String: Int] = [:]

  func set(_ node: EncodedNode, for key: String) {
    if let position = positions[key] {
      members[position].node = node
    } else {
      positions[key] = members.count
      members.append((key, node))
    }
  }

  func existing(_ key: String) -> EncodedNode? {
    positions[key].map { members[$0].node }
  }
}

private final class ArrayBox {
  var elements: [EncodedNode] = []
}

/// The key of an element of an unkeyed container.
private struct IndexKey: CodingKey {
  var intValue: Int?
  var stringValue: String { "\(intValue ?? 0)" }
  init(intValue: Int) { self.intValue = intValue }
  init?(stringValue: String) { nil }
}

private let superKey = "super"

/// An encoder for one value. `hidden` marks one inside a container whose key a rule names: every
/// value it writes is redacted.
private final class TreeEncoder: Encoder, SingleValueEncodingContainer {
  let context: EncodingContext
  let codingPath: [any CodingKey]
  let hidden: Bool
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  var node: EncodedNode?

  init(context: EncodingContext, codingPath: [any CodingKey], hidden: Bool = false) {
    self.context = context
    self.codingPath = codingPath
    self.hidden = hidden
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let box: ObjectBox
    if case .object(let existing) = node {
      box = existing
    } else {
      box = ObjectBox()
      node = .object(box)
    }
    return KeyedEncodingContainer(
      KeyedContainer<Key>(context: context, box: box, codingPath: codingPath, hidden: hidden))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let box: ArrayBox
    if case .array(let existing) = node {
      box = existing
    } else {
      box = ArrayBox()
      node = .array(box)
    }
    return UnkeyedContainer(context: context, box: box, codingPath: codingPath, hidden: hidden)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  // MARK: SingleValueEncodingContainer

  func encodeNil() throws { node = .value(hidden ? .string(Redaction.placeholder) : .null) }

  func encode<T: Encodable>(_ value: T) throws {
    node = try context.box(value, path: codingPath, hidden: hidden)
  }

  func encode(_ value: Bool) throws { node = try context.box(value, path: codingPath, hidden: hidden) }
  func encode(_ value: String) throws { node = try context.box(value, path: codingPath, hidden: hidden) }
  func encode(_ value: Double) throws { node = try context.box(value, path: codingPath, hidden: hidden) }
  func encode(_ value: Float) throws { node = try context.box(value, path: codingPath, hidden: hidden) }
  func encode(_ value: Int) throws { node = try context.box(value, path: codingPath, hidden: hidden) }
  func encode(_ value: Int8) throws { node = try context.box(value, path: codingPath, hidden: hidden) }
  func encode(_ value: Int16) throws { node = try context.box(value, path: codingPath, hidden: hidden) }
  func encode(_ value: Int32) throws { node = try context.box(value, path: codingPath, hidden: hidden) }
  func encode(_ value: Int64) throws { node = try context.box(value, path: codingPath, hidden: hidden) }
  func encode(_ value: UInt) throws { node = try context.box(value, path: codingPath, hidden: hidden) }
  func encode(_ value: UInt8) throws { node = try context.box(value, path: codingPath, hidden: hidden) }
  func encode(_ value: UInt16) throws { node = try context.box(value, path: codingPath, hidden: hidden) }
  func encode(_ value: UInt32) throws { node = try context.box(value, path: codingPath, hidden: hidden) }
  func encode(_ value: UInt64) throws { node = try context.box(value, path: codingPath, hidden: hidden) }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let context: EncodingContext
  let box: ObjectBox
  let codingPath: [any CodingKey]
  let hidden: Bool

  private func path(_ key: some CodingKey) -> [any CodingKey] { codingPath + [key] }

  /// Whether the values under `key` are all redacted: here, or because a rule names `key`.
  private func hides(_ key: some CodingKey) -> Bool {
    hidden || context.redactsContainer(path: path(key))
  }

  mutating func encodeNil(forKey key: Key) throws {
    if hidden || context.redacts(Optional<Int>.none as Any, path: path(key)) {
      box.set(.value(.string(Redaction.placeholder)), for: key.stringValue)
    } else {
      box.set(.value(.null), for: key.stringValue)
    }
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    box.set(try context.box(value, path: path(key), hidden: hidden), for: key.stringValue)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  )
    -> KeyedEncodingContainer<NestedKey>
  {
    let nested: ObjectBox
    if case .object(let existing) = box.existing(key.stringValue) {
      nested = existing
    } else {
      nested = ObjectBox()
      box.set(.object(nested), for: key.stringValue)
    }
    return KeyedEncodingContainer(
      KeyedContainer<NestedKey>(context: context, box: nested, codingPath: path(key), hidden: hides(key)))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested: ArrayBox
    if case .array(let existing) = box.existing(key.stringValue) {
      nested = existing
    } else {
      nested = ArrayBox()
      box.set(.array(nested), for: key.stringValue)
    }
    return UnkeyedContainer(context: context, box: nested, codingPath: path(key), hidden: hides(key))
  }

  mutating func superEncoder() -> any Encoder {
    superEncoder(key: AnyKey(superKey))
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    superEncoder(key: AnyKey(key.stringValue))
  }

  private func superEncoder(key: AnyKey) -> any Encoder {
    let encoder = TreeEncoder(context: context, codingPath: path(key), hidden: hides(key))
    box.set(.encoder(encoder), for: key.stringValue)
    return encoder
  }
}

private struct AnyKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(_ string: String) { stringValue = string }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
  let context: EncodingContext
  let box: ArrayBox
  let codingPath: [any CodingKey]
  let hidden: Bool

  var count: Int { box.elements.count }

  private var nextPath: [any CodingKey] { codingPath + [IndexKey(intValue: box.elements.count)] }

  mutating func encodeNil() throws {
    box.elements.append(.value(hidden ? .string(Redaction.placeholder) : .null))
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    box.elements.append(try context.box(value, path: nextPath, hidden: hidden))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  )
    -> KeyedEncodingContainer<NestedKey>
  {
    let nested = ObjectBox()
    let path = nextPath
    box.elements.append(.object(nested))
    return KeyedEncodingContainer(
      KeyedContainer<NestedKey>(context: context, box: nested, codingPath: path, hidden: hidden))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = ArrayBox()
    let path = nextPath
    box.elements.append(.array(nested))
    return UnkeyedContainer(context: context, box: nested, codingPath: path, hidden: hidden)
  }

  mutating func superEncoder() -> any Encoder {
    let encoder = TreeEncoder(context: context, codingPath: nextPath, hidden: hidden)
    box.elements.append(.encoder(encoder))
    return encoder
  }
}
