import ChronicleStore
import Foundation

/// Encodes `Encodable` values to ``JSONValue`` trees, redacting as it goes.
///
/// Every value met while encoding, at any depth, is offered to the ``Redaction`` policy with its
/// path (a keyed container's key is a `.property`, an unkeyed container's position an `.index`),
/// so the key rules apply to the JSON produced as well as to printed values, and any
/// ``SensitiveValue`` is written `"<redacted>"` even when its own `encode(to:)` would reveal it.
///
/// A nested container opened for a key (how synthesized `Codable` writes an enum case's payload,
/// `{"token":{"_0":…}}`) is checked against the key rules too: in one whose key a rule names,
/// every value is written `"<redacted>"`, at any depth, as the printed value hides the payload of
/// `case token(String)`: `{"token":{"_0":"<redacted>"}}`. The JSON keeps its shape, so a payload
/// that a `String` holds decodes again, as a property's redacted value does.
///
/// The output matches `JSONEncoder`'s default strategies (`Date` as seconds since the reference
/// date, `Data` as Base64, `URL` as its absolute string), so `JSONDecoder` reads it back.
///
/// Exports encode a value or two per entry, so the encoder keeps per-value work small: a coding
/// path is a chain of the encoders and containers above a value, turned into an array only when
/// asked for (a rule that reads whole paths, an error); what a type is (a scalar, a sensitive
/// type) is worked out once per type and kept for the encoder's lifetime; scalars written
/// through a container's concrete `encode` overloads skip the generic path altogether. An
/// encoder is used by one thread at a time.
struct JSONValueEncoder {
  var redaction: Redaction {
    didSet { types = EncodedTypes() }
  }
  /// What was learned about the types met so far, kept across calls.
  private var types = EncodedTypes()

  init(redaction: Redaction) {
    self.redaction = redaction
  }

  /// The JSON for `value`.
  ///
  /// - Throws: `EncodingError.invalidValue` for a non-finite floating-point number, or whatever
  ///   the value's own `encode(to:)` throws.
  func encode(_ value: some Encodable) throws -> JSONValue {
    let context = EncodingContext(redaction: redaction, types: types)
    return try context.box(value, key: nil, parent: nil).resolved()
  }

  /// The JSON for `value`, and the values written as `"<redacted>"` with their places in it.
  ///
  /// Exports compare the parts of consecutive states to say that a redacted value changed
  /// without writing it (see ``RedactedPart``).
  func encodeRecordingRedactions(
    _ value: some Encodable
  ) throws -> (json: JSONValue, redacted: [RedactedPart]) {
    let context = EncodingContext(redaction: redaction, types: types)
    context.recordsRedactions = true
    let json = try context.box(value, key: nil, parent: nil).resolved()
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

/// Whether each type met is a ``SensitiveValue``, by type: a dynamic cast per value costs more
/// than encoding most values. A class so that copies of one encoder share what they learn.
private final class EncodedTypes {
  var sensitive: [ObjectIdentifier: Bool] = [:]

  func isSensitive<T>(_ type: T.Type) -> Bool {
    let id = ObjectIdentifier(type)
    if let known = sensitive[id] { return known }
    // An optional's metatype is not a SensitiveValue's even when its wrapped type is one: its
    // `encode(to:)` hands the wrapped value back to the encoder, which checks that type.
    let answer = type is any SensitiveValue.Type
    sensitive[id] = answer
    return answer
  }
}

/// One link of a coding path: the key of a value or nested container, below its parent's.
private class PathLink {
  let parent: PathLink?
  let key: (any CodingKey)?

  init(parent: PathLink?, key: (any CodingKey)?) {
    self.parent = parent
    self.key = key
  }

  /// The keys from the root to here.
  var codingPath: [any CodingKey] { PathLink.codingPath(parent: parent, key: key) }

  static func codingPath(parent: PathLink?, key: (any CodingKey)?) -> [any CodingKey] {
    var keys: [any CodingKey] = []
    if let key { keys.append(key) }
    var link = parent
    while let current = link {
      if let key = current.key { keys.append(key) }
      link = current.parent
    }
    return keys.reversed()
  }
}

/// The policy and helpers shared by the encoders and containers of one `encode` call.
private final class EncodingContext {
  let redaction: Redaction
  let types: EncodedTypes
  /// Whether the policy has key names or rules: without them only sensitive types are redacted
  /// and a scalar never is.
  let hasRules: Bool
  var recordsRedactions = false
  var redactedParts: [RedactedPart] = []

  init(redaction: Redaction, types: EncodedTypes) {
    self.redaction = redaction
    self.types = types
    hasRules = redaction.hasRules
  }

  /// Whether `value`, at `key` below `parent`, is written `"<redacted>"`; records it if so.
  func redacts<T>(_ value: T, key: (any CodingKey)?, parent: PathLink?) -> Bool {
    if types.isSensitive(T.self) || (hasRules && redactsByRule(value, key: key, parent: parent)) {
      record(value, key: key, parent: parent)
      return true
    }
    return false
  }

  /// ``redacts(_:key:parent:)`` for a scalar, which no type marks as sensitive.
  @inline(__always)
  func redactsScalar<T>(_ value: T, key: (any CodingKey)?, parent: PathLink?) -> Bool {
    guard hasRules, redactsByRule(value, key: key, parent: parent) else { return false }
    record(value, key: key, parent: parent)
    return true
  }

  private func redactsByRule<T>(_ value: T, key: (any CodingKey)?, parent: PathLink?) -> Bool {
    // Without rules only the last key matters: the rest of the path is not built.
    let shown =
      redaction.readsWholePaths
      ? valuePath(PathLink.codingPath(parent: parent, key: key)) : valuePath(key.map { [$0] } ?? [])
    return redaction.redacts(value, at: shown)
  }

  /// Whether the key rules name `key`: every value in the container opened there is redacted.
  func redactsContainer(key: any CodingKey) -> Bool {
    hasRules && redaction.redactsKey(at: valuePath([key]))
  }

  /// The node of `value`, or the placeholder in a container whose values are all redacted.
  func box<T: Encodable>(_ value: T, key: (any CodingKey)?, parent: PathLink?, hidden: Bool) throws
    -> EncodedNode
  {
    guard hidden else { return try box(value, key: key, parent: parent) }
    record(value, key: key, parent: parent)
    return .value(.string(Redaction.placeholder))
  }

  func record(_ value: Any, key: (any CodingKey)?, parent: PathLink?) {
    guard recordsRedactions else { return }
    let components = PathLink.codingPath(parent: parent, key: key).map { key -> StatePatch.PathComponent in
      if let index = key.intValue, key is IndexKey { return .index(index) }
      return .key(key.stringValue)
    }
    redactedParts.append(RedactedPart(path: components, value: value))
  }

  func valuePath(_ path: [any CodingKey]) -> ValuePath {
    ValuePath(
      path.map { key in
        if let index = key.intValue, key is IndexKey { return .index(index) }
        return .property(key.stringValue)
      })
  }

  func box<T: Encodable>(_ value: T, key: (any CodingKey)?, parent: PathLink?) throws -> EncodedNode {
    if hasRules, redactsByRule(value, key: key, parent: parent) {
      record(value, key: key, parent: parent)
      return .value(.string(Redaction.placeholder))
    }
    if let primitive = try primitive(value, key: key, parent: parent) { return primitive }
    if types.isSensitive(T.self) {
      record(value, key: key, parent: parent)
      return .value(.string(Redaction.placeholder))
    }
    let encoder = TreeEncoder(context: self, parent: parent, key: key)
    try value.encode(to: encoder)
    return encoder.node ?? .value(.object([]))
  }

  /// Values written directly rather than through their `encode(to:)`: scalars, and the types
  /// `JSONEncoder` special-cases by default. Told apart by their type, compared as a pointer,
  /// rather than by a dynamic cast per type: most values met are not scalars.
  func primitive<T>(_ value: T, key: (any CodingKey)?, parent: PathLink?) throws -> EncodedNode? {
    func `is`<U>(_ type: U.Type) -> Bool { T.self == U.self }
    func `as`<U>(_ type: U.Type) -> U { unsafeBitCast(value, to: U.self) }
    if `is`(String.self) { return .value(.string(`as`(String.self))) }
    if `is`(Int.self) { return .value(.integer(`as`(Int.self))) }
    if `is`(Bool.self) { return .value(.bool(`as`(Bool.self))) }
    if `is`(Double.self) { return .value(try floating(`as`(Double.self), key: key, parent: parent)) }
    if `is`(Int64.self) { return .value(.integer(`as`(Int64.self))) }
    if `is`(UInt64.self) { return .value(.integer(`as`(UInt64.self))) }
    if `is`(Int32.self) { return .value(.integer(`as`(Int32.self))) }
    if `is`(UInt32.self) { return .value(.integer(`as`(UInt32.self))) }
    if `is`(UInt.self) { return .value(.integer(`as`(UInt.self))) }
    if `is`(Int16.self) { return .value(.integer(`as`(Int16.self))) }
    if `is`(UInt16.self) { return .value(.integer(`as`(UInt16.self))) }
    if `is`(Int8.self) { return .value(.integer(`as`(Int8.self))) }
    if `is`(UInt8.self) { return .value(.integer(`as`(UInt8.self))) }
    if `is`(Float.self) { return .value(try floating(`as`(Float.self), key: key, parent: parent)) }
    if `is`(Data.self) { return .value(.string(`as`(Data.self).base64EncodedString())) }
    if `is`(URL.self) { return .value(.string(`as`(URL.self).absoluteString)) }
    if `is`(Decimal.self) {
      let decimal = `as`(Decimal.self)
      guard decimal.isFinite else { throw invalid(decimal, key: key, parent: parent) }
      return .value(.number(decimal.description))
    }
    return nil
  }

  func floating<F: BinaryFloatingPoint & LosslessStringConvertible>(
    _ number: F, key: (any CodingKey)?, parent: PathLink?
  ) throws -> JSONValue {
    guard number.isFinite else { throw invalid(number, key: key, parent: parent) }
    var text = number.description
    // `Float(1e20).description` is "1e+20": valid JSON. Integral values print as "5.0": valid.
    if text.hasPrefix(".") { text = "0" + text }
    return .number(text)
  }

  func invalid(_ value: Any, key: (any CodingKey)?, parent: PathLink?) -> EncodingError {
    EncodingError.invalidValue(
      value,
      EncodingError.Context(
        codingPath: PathLink.codingPath(parent: parent, key: key),
        debugDescription: "\(value) is not representable in JSON"))
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
  /// Positions of the keys, built once an object grows past a linear search's worth: an object
  /// written by synthesized `Codable` never repeats a key, but a hand-written one may.
  private var positions: [String: Int]?
  private static let linearLimit = 16

  func set(_ node: EncodedNode, for key: String) {
    if let position = position(of: key) {
      members[position].node = node
      return
    }
    positions?[key] = members.count
    members.append((key, node))
    if positions == nil, members.count > Self.linearLimit {
      positions = Dictionary(members.indices.map { (members[$0].key, $0) }, uniquingKeysWith: { $1 })
    }
  }

  func existing(_ key: String) -> EncodedNode? {
    position(of: key).map { members[$0].node }
  }

  private func position(of key: String) -> Int? {
    if let positions { return positions[key] }
    return members.firstIndex { $0.key == key }
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
private final class TreeEncoder: PathLink, Encoder, SingleValueEncodingContainer {
  let context: EncodingContext
  let hidden: Bool
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  var node: EncodedNode?

  init(context: EncodingContext, parent: PathLink?, key: (any CodingKey)?, hidden: Bool = false) {
    self.context = context
    self.hidden = hidden
    super.init(parent: parent, key: key)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let box: ObjectBox
    if case .object(let existing) = node {
      box = existing
    } else {
      box = ObjectBox()
      node = .object(box)
    }
    return KeyedEncodingContainer(KeyedContainer<Key>(context: context, box: box, link: self, hidden: hidden))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let box: ArrayBox
    if case .array(let existing) = node {
      box = existing
    } else {
      box = ArrayBox()
      node = .array(box)
    }
    return UnkeyedContainer(context: context, box: box, link: self, hidden: hidden)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  // MARK: SingleValueEncodingContainer

  func encodeNil() throws { node = .value(hidden ? .string(Redaction.placeholder) : .null) }

  func encode<T: Encodable>(_ value: T) throws {
    node = try context.box(value, key: key, parent: parent, hidden: hidden)
  }

  private func scalar<T>(_ value: T, _ json: JSONValue) {
    if hidden {
      context.record(value, key: key, parent: parent)
      node = .value(.string(Redaction.placeholder))
    } else if context.redactsScalar(value, key: key, parent: parent) {
      node = .value(.string(Redaction.placeholder))
    } else {
      node = .value(json)
    }
  }

  func encode(_ value: Bool) throws { scalar(value, .bool(value)) }
  func encode(_ value: String) throws { scalar(value, .string(value)) }
  func encode(_ value: Int) throws { scalar(value, .integer(value)) }
  func encode(_ value: Int8) throws { scalar(value, .integer(value)) }
  func encode(_ value: Int16) throws { scalar(value, .integer(value)) }
  func encode(_ value: Int32) throws { scalar(value, .integer(value)) }
  func encode(_ value: Int64) throws { scalar(value, .integer(value)) }
  func encode(_ value: UInt) throws { scalar(value, .integer(value)) }
  func encode(_ value: UInt8) throws { scalar(value, .integer(value)) }
  func encode(_ value: UInt16) throws { scalar(value, .integer(value)) }
  func encode(_ value: UInt32) throws { scalar(value, .integer(value)) }
  func encode(_ value: UInt64) throws { scalar(value, .integer(value)) }
  func encode(_ value: Double) throws { node = try context.box(value, key: key, parent: parent, hidden: hidden) }
  func encode(_ value: Float) throws { node = try context.box(value, key: key, parent: parent, hidden: hidden) }
}

/// Writes a keyed container's scalars without the generic path (no type look-up, no boxing).
private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let context: EncodingContext
  let box: ObjectBox
  /// The encoder or nested container this container writes for: its coding path.
  let link: PathLink
  let hidden: Bool

  var codingPath: [any CodingKey] { link.codingPath }

  /// Whether the values under `key` are all redacted: here, or because a rule names `key`.
  private func hides(_ key: some CodingKey) -> Bool {
    hidden || context.redactsContainer(key: key)
  }

  @inline(__always)
  private func scalar<T>(_ value: T, _ json: JSONValue, forKey key: Key) {
    if hidden {
      context.record(value, key: key, parent: link)
      box.set(.value(.string(Redaction.placeholder)), for: key.stringValue)
    } else if context.redactsScalar(value, key: key, parent: link) {
      box.set(.value(.string(Redaction.placeholder)), for: key.stringValue)
    } else {
      box.set(.value(json), for: key.stringValue)
    }
  }

  mutating func encodeNil(forKey key: Key) throws {
    if hidden || context.redacts(Optional<Int>.none, key: key, parent: link) {
      box.set(.value(.string(Redaction.placeholder)), for: key.stringValue)
    } else {
      box.set(.value(.null), for: key.stringValue)
    }
  }

  mutating func encode(_ value: Bool, forKey key: Key) throws { scalar(value, .bool(value), forKey: key) }
  mutating func encode(_ value: String, forKey key: Key) throws { scalar(value, .string(value), forKey: key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { scalar(value, .integer(value), forKey: key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { scalar(value, .integer(value), forKey: key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { scalar(value, .integer(value), forKey: key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { scalar(value, .integer(value), forKey: key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { scalar(value, .integer(value), forKey: key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { scalar(value, .integer(value), forKey: key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { scalar(value, .integer(value), forKey: key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { scalar(value, .integer(value), forKey: key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { scalar(value, .integer(value), forKey: key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { scalar(value, .integer(value), forKey: key) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    box.set(try context.box(value, key: key, parent: link, hidden: hidden), for: key.stringValue)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested: ObjectBox
    if case .object(let existing) = box.existing(key.stringValue) {
      nested = existing
    } else {
      nested = ObjectBox()
      box.set(.object(nested), for: key.stringValue)
    }
    return KeyedEncodingContainer(
      KeyedContainer<NestedKey>(
        context: context, box: nested, link: PathLink(parent: link, key: key), hidden: hides(key)))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested: ArrayBox
    if case .array(let existing) = box.existing(key.stringValue) {
      nested = existing
    } else {
      nested = ArrayBox()
      box.set(.array(nested), for: key.stringValue)
    }
    return UnkeyedContainer(
      context: context, box: nested, link: PathLink(parent: link, key: key), hidden: hides(key))
  }

  mutating func superEncoder() -> any Encoder {
    superEncoder(key: AnyKey(superKey))
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    superEncoder(key: AnyKey(key.stringValue))
  }

  private func superEncoder(key: AnyKey) -> any Encoder {
    let encoder = TreeEncoder(context: context, parent: link, key: key, hidden: hides(key))
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
  let link: PathLink
  let hidden: Bool

  var codingPath: [any CodingKey] { link.codingPath }
  var count: Int { box.elements.count }

  private var nextKey: IndexKey { IndexKey(intValue: box.elements.count) }

  mutating func encodeNil() throws {
    box.elements.append(.value(hidden ? .string(Redaction.placeholder) : .null))
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    box.elements.append(try context.box(value, key: nextKey, parent: link, hidden: hidden))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = ObjectBox()
    let path = PathLink(parent: link, key: nextKey)
    box.elements.append(.object(nested))
    return KeyedEncodingContainer(
      KeyedContainer<NestedKey>(context: context, box: nested, link: path, hidden: hidden))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = ArrayBox()
    let path = PathLink(parent: link, key: nextKey)
    box.elements.append(.array(nested))
    return UnkeyedContainer(context: context, box: nested, link: path, hidden: hidden)
  }

  mutating func superEncoder() -> any Encoder {
    let encoder = TreeEncoder(context: context, parent: link, key: nextKey, hidden: hidden)
    box.elements.append(.encoder(encoder))
    return encoder
  }
}
