import ChronicleInspection
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
package struct JSONValueEncoder {
  package var redaction: Redaction {
    didSet { types = EncodedTypes() }
  }
  /// What was learned about the types met so far, kept across calls.
  private var types = EncodedTypes()

  package init(redaction: Redaction) {
    self.redaction = redaction
  }

  /// The JSON for `value`.
  ///
  /// - Throws: `EncodingError.invalidValue` for a non-finite floating-point number, or whatever
  ///   the value's own `encode(to:)` throws.
  package func encode(_ value: some Encodable) throws -> JSONValue {
    let context = EncodingContext(redaction: redaction, types: types)
    return try context.box(value, key: nil, parent: nil)
  }

  /// The JSON for `value`, and the values written as `"<redacted>"` with their places in it.
  ///
  /// Exports compare the parts of consecutive states to say that a redacted value changed
  /// without writing it (see ``RedactedPart``).
  package func encodeRecordingRedactions(
    _ value: some Encodable
  ) throws -> (json: JSONValue, redacted: [RedactedPart]) {
    let context = EncodingContext(redaction: redaction, types: types)
    context.recordsRedactions = true
    let json = try context.box(value, key: nil, parent: nil)
    return (json, context.redactedParts)
  }
}

/// A value the encoder wrote as `"<redacted>"`, with where it sits in the JSON.
package struct RedactedPart {
  /// Object keys and array positions from the root of the JSON.
  package var path: [FieldPath.Component]
  /// The value itself.
  package var value: Any
}

/// Whether each type met is a ``SensitiveValue``, by type: a dynamic cast per value costs more
/// than encoding most values. A class so that copies of one encoder share what they learn.
package final class EncodedTypes {
  package var sensitive: [ObjectIdentifier: Bool] = [:]
  /// The last type asked about and its answer: most values met are of the type before.
  private var last: (id: ObjectIdentifier, sensitive: Bool)?

  package func isSensitive<T>(_ type: T.Type) -> Bool {
    let id = ObjectIdentifier(type)
    if let last, last.id == id { return last.sensitive }
    let answer = lookUp(type, id: id)
    last = (id, answer)
    return answer
  }

  private func lookUp<T>(_ type: T.Type, id: ObjectIdentifier) -> Bool {
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
  func box<T: Encodable>(
    _ value: T, key: (any CodingKey)?, parent: PathLink?, hidden: Bool
  ) throws
    -> JSONValue
  {
    guard hidden else { return try box(value, key: key, parent: parent) }
    record(value, key: key, parent: parent)
    return .string(Redaction.placeholder)
  }

  func record(_ value: Any, key: (any CodingKey)?, parent: PathLink?) {
    guard recordsRedactions else { return }
    let components = PathLink.codingPath(parent: parent, key: key).map { key -> FieldPath.Component in
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

  func box<T: Encodable>(_ value: T, key: (any CodingKey)?, parent: PathLink?) throws -> JSONValue {
    if hasRules, redactsByRule(value, key: key, parent: parent) {
      record(value, key: key, parent: parent)
      return .string(Redaction.placeholder)
    }
    if let primitive = try primitive(value, key: key, parent: parent) { return primitive }
    if types.isSensitive(T.self) {
      record(value, key: key, parent: parent)
      return .string(Redaction.placeholder)
    }
    let encoder = Node(context: self, parent: parent, key: key)
    // A nested container's node links back to its parent (its coding path): the parent's list
    // of them is emptied once the value is written, or its encoding failed, so neither leaks.
    defer { encoder.detachChildren() }
    try value.encode(to: encoder)
    // Its `encode(to:)` has returned: whatever containers it opened are filled.
    return encoder.resolved()
  }

  /// Values written directly rather than through their `encode(to:)`: scalars, and the types
  /// `JSONEncoder` special-cases by default. Told apart by their type, compared as a pointer,
  /// rather than by a dynamic cast per type: most values met are not scalars.
  func primitive<T>(_ value: T, key: (any CodingKey)?, parent: PathLink?) throws -> JSONValue? {
    func `is`<U>(_ type: U.Type) -> Bool { T.self == U.self }
    func `as`<U>(_ type: U.Type) -> U { unsafeBitCast(value, to: U.self) }
    if `is`(String.self) { return .string(`as`(String.self)) }
    if `is`(Int.self) { return .integer(`as`(Int.self)) }
    if `is`(Bool.self) { return .bool(`as`(Bool.self)) }
    if `is`(Double.self) { return try floating(`as`(Double.self), key: key, parent: parent) }
    if `is`(Int64.self) { return .integer(`as`(Int64.self)) }
    if `is`(UInt64.self) { return .integer(`as`(UInt64.self)) }
    if `is`(Int32.self) { return .integer(`as`(Int32.self)) }
    if `is`(UInt32.self) { return .integer(`as`(UInt32.self)) }
    if `is`(UInt.self) { return .integer(`as`(UInt.self)) }
    if `is`(Int16.self) { return .integer(`as`(Int16.self)) }
    if `is`(UInt16.self) { return .integer(`as`(UInt16.self)) }
    if `is`(Int8.self) { return .integer(`as`(Int8.self)) }
    if `is`(UInt8.self) { return .integer(`as`(UInt8.self)) }
    if `is`(Float.self) { return try floating(`as`(Float.self), key: key, parent: parent) }
    if `is`(Data.self) { return .string(`as`(Data.self).base64EncodedString()) }
    if `is`(URL.self) { return .string(`as`(URL.self).absoluteString) }
    if `is`(Decimal.self) {
      let decimal = `as`(Decimal.self)
      guard decimal.isFinite else { throw invalid(decimal, key: key, parent: parent) }
      return .number(decimal.description)
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

/// A value under construction, which is also the encoder (or nested container) that writes it
/// and the link of their coding path. Nested containers and super encoders are nodes of their
/// own, handed out before they are filled (as the `Encoder` protocol allows): their places are
/// kept and filled when this node is resolved.
private final class Node: PathLink, Encoder, SingleValueEncodingContainer {
  private enum Kind {
    case empty
    case value(JSONValue)
    case object
    case array
  }

  let context: EncodingContext
  /// Whether this node sits in a container whose key a rule names: every value it writes is
  /// redacted.
  let hidden: Bool
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  // A node is written by one thread, from the value's `encode(to:)` down, never re-entered while
  // one of its properties is being modified: the run-time exclusivity checks (measured: a fifth
  // of the time the viewer spent writing a page) are left out.
  @exclusivity(unchecked) private var kind = Kind.empty
  @exclusivity(unchecked) private(set) var members: [JSONMember] = []
  @exclusivity(unchecked) private(set) var elements: [JSONValue] = []
  /// Nodes handed out for a member or element (by position), resolved with this one.
  @exclusivity(unchecked) private var children: [(position: Int, node: Node)] = []
  /// Positions of the keys, built once an object grows past a linear search's worth: an object
  /// written by synthesized `Codable` never repeats a key, but a hand-written one may.
  @exclusivity(unchecked) private var positions: [String: Int]?
  private static let linearLimit = 16

  init(context: EncodingContext, parent: PathLink?, key: (any CodingKey)?, hidden: Bool = false) {
    self.context = context
    self.hidden = hidden
    super.init(parent: parent, key: key)
  }

  /// The JSON written: an encoder that wrote nothing is an empty object, as `JSONEncoder` writes.
  func resolved() -> JSONValue {
    switch kind {
    case .empty: return .object([])
    case .value(let value): return value
    case .object:
      var members = members
      for child in children { members[child.position].value = child.node.resolved() }
      return .object(members)
    case .array:
      var elements = elements
      for child in children { elements[child.position] = child.node.resolved() }
      return .array(elements)
    }
  }

  /// Drops the nodes handed out for members or elements, theirs first: each links back to its
  /// parent, so a parent that kept them would form a cycle.
  func detachChildren() {
    for child in children { child.node.detachChildren() }
    children = []
  }

  // MARK: Storage

  private func become(_ newKind: Kind) {
    members = []
    elements = []
    children = []
    positions = nil
    kind = newKind
  }

  /// Sets the member `key` (replacing an earlier one of that key in place).
  func set(_ value: JSONValue, for key: String) {
    if let position = position(of: key) {
      members[position].value = value
      children.removeAll { $0.position == position }
    } else {
      append(JSONMember(key, value))
    }
  }

  private func append(_ member: JSONMember) {
    if members.isEmpty { members.reserveCapacity(4) }
    positions?[member.key] = members.count
    members.append(member)
    if positions == nil, members.count > Self.linearLimit {
      positions = Dictionary(members.indices.map { (members[$0].key, $0) }, uniquingKeysWith: { $1 })
    }
  }

  private func position(of key: String) -> Int? {
    if let positions { return positions[key] }
    return members.firstIndex { $0.key == key }
  }

  func append(_ element: JSONValue) {
    elements.append(element)
  }

  /// The node of the member `key`: the one already handed out for it if it is of `kind`,
  /// otherwise a new one.
  func child(for key: some CodingKey, object: Bool, hidden: Bool) -> Node {
    if let position = position(of: key.stringValue),
      let existing = children.last(where: { $0.position == position })?.node, existing.isObject == object
    {
      return existing
    }
    let node = Node(context: context, parent: self, key: key, hidden: hidden)
    node.kind = object ? .object : .array
    set(.null, for: key.stringValue)
    children.append((position(of: key.stringValue) ?? members.count - 1, node))
    return node
  }

  /// A node for the next element.
  func childElement(object: Bool?) -> Node {
    let node = Node(context: context, parent: self, key: IndexKey(intValue: elements.count), hidden: hidden)
    if let object { node.kind = object ? .object : .array }
    children.append((elements.count, node))
    elements.append(.null)
    return node
  }

  /// A super encoder written at `key`.
  func superNode(for key: AnyKey, hidden: Bool) -> Node {
    let node = Node(context: context, parent: self, key: key, hidden: hidden)
    set(.null, for: key.stringValue)
    children.append((position(of: key.stringValue) ?? members.count - 1, node))
    return node
  }

  private var isObject: Bool {
    if case .object = kind { return true }
    return false
  }

  // MARK: Encoder

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if !isObject { become(.object) }
    return KeyedEncodingContainer(KeyedContainer<Key>(node: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array = kind {} else { become(.array) }
    return UnkeyedContainer(node: self)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  // MARK: SingleValueEncodingContainer

  private func setValue(_ value: JSONValue) {
    become(.value(value))
  }

  func encodeNil() throws { setValue(hidden ? .string(Redaction.placeholder) : .null) }

  func encode<T: Encodable>(_ value: T) throws {
    setValue(try context.box(value, key: key, parent: parent, hidden: hidden))
  }

  private func scalar<T>(_ value: T, _ json: JSONValue) {
    if hidden {
      context.record(value, key: key, parent: parent)
      setValue(.string(Redaction.placeholder))
    } else if context.redactsScalar(value, key: key, parent: parent) {
      setValue(.string(Redaction.placeholder))
    } else {
      setValue(json)
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
  func encode(_ value: Double) throws {
    setValue(try context.box(value, key: key, parent: parent, hidden: hidden))
  }
  func encode(_ value: Float) throws {
    setValue(try context.box(value, key: key, parent: parent, hidden: hidden))
  }
}

/// The key of an element of an unkeyed container.
package struct IndexKey: CodingKey {
  package var intValue: Int?
  package var stringValue: String { "\(intValue ?? 0)" }
  package init(intValue: Int) { self.intValue = intValue }
  package init?(stringValue: String) { nil }
}

private struct AnyKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(_ string: String) { stringValue = string }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// Writes a keyed container's scalars without the generic path (no type look-up, no boxing).
private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  /// The node written, which is also the link of this container's coding path.
  let node: Node

  var codingPath: [any CodingKey] { node.codingPath }

  /// Whether the values under `key` are all redacted: here, or because a rule names `key`.
  private func hides(_ key: some CodingKey) -> Bool {
    node.hidden || node.context.redactsContainer(key: key)
  }

  @inline(__always)
  private func scalar<T>(_ value: T, _ json: JSONValue, forKey key: Key) {
    if node.hidden {
      node.context.record(value, key: key, parent: node)
      node.set(.string(Redaction.placeholder), for: key.stringValue)
    } else if node.context.redactsScalar(value, key: key, parent: node) {
      node.set(.string(Redaction.placeholder), for: key.stringValue)
    } else {
      node.set(json, for: key.stringValue)
    }
  }

  mutating func encodeNil(forKey key: Key) throws {
    if node.hidden || node.context.redacts(Optional<Int>.none, key: key, parent: node) {
      node.set(.string(Redaction.placeholder), for: key.stringValue)
    } else {
      node.set(.null, for: key.stringValue)
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
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    scalar(value, .integer(value), forKey: key)
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    scalar(value, .integer(value), forKey: key)
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    scalar(value, .integer(value), forKey: key)
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    node.set(try node.context.box(value, key: key, parent: node, hidden: node.hidden), for: key.stringValue)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(
      KeyedContainer<NestedKey>(node: node.child(for: key, object: true, hidden: hides(key))))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    UnkeyedContainer(node: node.child(for: key, object: false, hidden: hides(key)))
  }

  mutating func superEncoder() -> any Encoder {
    let key = AnyKey("super")
    return node.superNode(for: key, hidden: hides(key))
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    node.superNode(for: AnyKey(key.stringValue), hidden: hides(key))
  }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
  /// The node written, which is also the link of this container's coding path.
  let node: Node

  var codingPath: [any CodingKey] { node.codingPath }
  var count: Int { node.elements.count }

  mutating func encodeNil() throws {
    node.append(node.hidden ? .string(Redaction.placeholder) : .null)
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let key = IndexKey(intValue: node.elements.count)
    node.append(try node.context.box(value, key: key, parent: node, hidden: node.hidden))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(KeyedContainer<NestedKey>(node: node.childElement(object: true)))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    UnkeyedContainer(node: node.childElement(object: false))
  }

  mutating func superEncoder() -> any Encoder {
    node.childElement(object: nil)
  }
}
