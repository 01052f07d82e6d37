import Foundation

/// Decodes `Decodable` values straight from a ``JSONTape``: the library's one decoder, which
/// decodes as `JSONDecoder` with its default strategies does (`Date` as seconds since the
/// reference date, `Data` as Base64, `URL` as its absolute string, `Decimal` from the number's
/// text), with `DecodingError`s that name the coding path (array positions as `Index n`).
/// JSONTapeTests hold its values and errors at the edges of every type.
///
/// Keyed containers find their keys by scanning the object's key tokens, comparing bytes: no
/// dictionary, no string per key except for `allKeys`, whose answers are kept (see
/// ``keys(_:of:in:)``).
///
/// One decoder serves one thread: an importer decodes its values one after another with it.
@usableFromInline
package final class JSONTapeDecoder {
  /// The decoder of the last top-level value, used again for the next one when nothing else
  /// holds it: an import decodes a million actions, each of which would otherwise allocate one.
  private var root: TapeDecoder?
  /// The `allKeys` answers given so far (see ``keys(_:of:in:)``).
  private var keyLists: [KeyList] = []

  /// One `allKeys` answer: the key type, the object's keys (each its length byte, then its
  /// bytes) and the keys, an array of that type held as the object it is.
  private struct KeyList {
    let type: ObjectIdentifier
    let count: Int
    let text: [UInt8]
    let keys: AnyObject
  }

  /// The objects whose keys are kept: an enum's value has one key, a small struct a few.
  private static let maxKeptKeys = 4
  private static let maxKeptLists = 64

  @usableFromInline
  package init() {}

  /// The value of type `type` that the value at token `index` of `tape` holds.
  @usableFromInline
  package func decode<Value: Decodable>(
    _ type: Value.Type, from tape: JSONTapeView, at index: Int = 0
  ) throws -> Value {
    var decoder = root.take() ?? TapeDecoder(tape, index, key: nil, parent: nil, owner: self)
    if isKnownUniquelyReferenced(&decoder) {
      decoder.tape = tape
      decoder.index = index
    } else {
      decoder = TapeDecoder(tape, index, key: nil, parent: nil, owner: self)
    }
    root = decoder
    return try decoder.decodeValue(Value.self)
  }

  /// The keys of type `Key` of the object at token `object`, built by `make` the first time an
  /// object with the same key texts asks: a synthesized `init(from:)` of an enum asks for every
  /// value, and building the array costs its allocation and a type metadata look-up (the
  /// standard library then copies it twice more, which no decoder can avoid).
  fileprivate func keys<Key: CodingKey>(
    _ type: Key.Type, of object: Int, in tape: JSONTapeView, make: () -> [Key]
  ) -> [Key] {
    let count = tape[object].count
    guard count <= Self.maxKeptKeys else { return make() }
    let id = ObjectIdentifier(Key.self)
    for list in keyLists where list.type == id && list.count == count && matches(list, object, tape) {
      // An array is one reference to its storage whatever its element: the object kept is the
      // array `make` returned, of this `Key`, so this is that array again.
      return unsafeBitCast(list.keys, to: [Key].self)
    }
    let keys = make()
    guard keyLists.count < Self.maxKeptLists else { return keys }
    var text: [UInt8] = []
    var index = object + 1
    for _ in 0..<count {
      let key = tape.slice(index)
      guard key.count <= Int(UInt8.max) else { return keys }
      text.append(UInt8(key.count))
      text.append(contentsOf: key)
      index = tape[index + 1].next
    }
    keyLists.append(
      KeyList(type: id, count: count, text: text, keys: unsafeBitCast(keys, to: AnyObject.self)))
    return keys
  }

  /// Whether the object at token `object` has the keys of `list`, in its order.
  private func matches(_ list: KeyList, _ object: Int, _ tape: JSONTapeView) -> Bool {
    list.text.withUnsafeBufferPointer { text in
      var offset = 0
      var index = object + 1
      for _ in 0..<list.count {
        let key = tape.slice(index)
        let length = Int(text[offset])
        guard key.count == length,
          key.elementsEqual(UnsafeBufferPointer(rebasing: text[(offset + 1)..<(offset + 1 + length)]))
        else { return false }
        offset += 1 + length
        index = tape[index + 1].next
      }
      return true
    }
  }
}

/// An array position in a coding path, spelled as `JSONDecoder` spells it.
private struct TapeIndexKey: CodingKey {
  var stringValue: String { "Index \(index)" }
  var intValue: Int? { index }
  let index: Int

  init(index: Int) { self.index = index }
  init?(stringValue: String) { nil }
  init(intValue: Int) { index = intValue }
}

/// The decoder of one value, and the node of the coding path (built only when asked for).
private final class TapeDecoder: Decoder, SingleValueDecodingContainer {
  /// Where the value is: set again when ``JSONTapeDecoder`` uses a top-level decoder again.
  var tape: JSONTapeView
  var index: Int
  let key: (any CodingKey)?
  let parent: TapeDecoder?
  /// The decoder that keeps what decoding one value leaves for the next; it holds the top-level
  /// decoder, which must not hold it.
  unowned let owner: JSONTapeDecoder

  init(
    _ tape: JSONTapeView, _ index: Int, key: (any CodingKey)?, parent: TapeDecoder?, owner: JSONTapeDecoder
  ) {
    self.tape = tape
    self.index = index
    self.key = key
    self.parent = parent
    self.owner = owner
  }

  var codingPath: [any CodingKey] {
    var path: [any CodingKey] = []
    var node: TapeDecoder? = self
    while let current = node {
      if let key = current.key { path.append(key) }
      node = current.parent
    }
    path.reverse()
    return path
  }

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    switch tape[index].kind {
    case .object: return KeyedDecodingContainer(KeyedTapeContainer<Key>(decoder: self))
    case .null:
      throw DecodingError.valueNotFound(
        [String: Any].self,
        DecodingError.Context(
          codingPath: codingPath,
          debugDescription: "Cannot get keyed decoding container -- found null value instead"
        ))
    default: throw TapeScalar.typeMismatch([String: Any].self, tape, index, path: codingPath)
    }
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    switch tape[index].kind {
    case .array: return UnkeyedTapeContainer(decoder: self)
    case .null:
      throw DecodingError.valueNotFound(
        [Any].self,
        DecodingError.Context(
          codingPath: codingPath,
          debugDescription: "Cannot get unkeyed decoding container -- found null value instead"
        ))
    default: throw TapeScalar.typeMismatch([Any].self, tape, index, path: codingPath)
    }
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  // MARK: Single value

  func decodeNil() -> Bool { tape[index].kind == .null }
  func decode(_ type: Bool.Type) throws -> Bool { try TapeScalar.bool(tape, index, path: self) }
  func decode(_ type: String.Type) throws -> String { try TapeScalar.string(tape, index, path: self) }
  func decode(_ type: Double.Type) throws -> Double { try TapeScalar.floating(tape, index, path: self) }
  func decode(_ type: Float.Type) throws -> Float { try TapeScalar.floating(tape, index, path: self) }
  func decode(_ type: Int.Type) throws -> Int { try TapeScalar.integer(tape, index, path: self) }
  func decode(_ type: Int8.Type) throws -> Int8 { try TapeScalar.integer(tape, index, path: self) }
  func decode(_ type: Int16.Type) throws -> Int16 { try TapeScalar.integer(tape, index, path: self) }
  func decode(_ type: Int32.Type) throws -> Int32 { try TapeScalar.integer(tape, index, path: self) }
  func decode(_ type: Int64.Type) throws -> Int64 { try TapeScalar.integer(tape, index, path: self) }
  func decode(_ type: UInt.Type) throws -> UInt { try TapeScalar.integer(tape, index, path: self) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try TapeScalar.integer(tape, index, path: self) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try TapeScalar.integer(tape, index, path: self) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try TapeScalar.integer(tape, index, path: self) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try TapeScalar.integer(tape, index, path: self) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(T.self) }

  /// This decoder's value as a `T`: the types `JSONDecoder` special-cases by default are read
  /// here, everything else by its own `init(from:)`.
  func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
    if TapeScalar.isSpecial(T.self) {
      return try TapeScalar.decodeSpecial(T.self, tape, index, path: self) { self }
    }
    return try T(from: self)
  }

  func child(_ index: Int, key: any CodingKey) -> TapeDecoder {
    TapeDecoder(tape, index, key: key, parent: self, owner: owner)
  }
}

/// The conversions from JSON scalars, shared by the single-value, keyed and unkeyed containers.
private enum TapeScalar {
  static func bool(_ tape: JSONTapeView, _ index: Int, path: some TapeCodingPathSource) throws -> Bool {
    switch tape[index].kind {
    case .true: return true
    case .false: return false
    default: throw mismatch(Bool.self, tape, index, path)
    }
  }

  static func string(_ tape: JSONTapeView, _ index: Int, path: some TapeCodingPathSource) throws -> String {
    switch tape[index].kind {
    case .string, .escapedString: return tape.string(index)
    default: throw mismatch(String.self, tape, index, path)
    }
  }

  static func integer<Integer: FixedWidthInteger>(
    _ tape: JSONTapeView, _ index: Int, path: some TapeCodingPathSource
  ) throws -> Integer {
    guard tape[index].kind == .number else { throw mismatch(Integer.self, tape, index, path) }
    switch WholeNumber<Integer>(tape.slice(index)) {
    case .value(let integer): return integer
    case .outOfRange: break
    case .notWhole:
      if let double = Double(tape.numberText(index)), double.isFinite, let integer = Integer(exactly: double)
      {
        return integer
      }
    }
    throw DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: path.codingPath,
        debugDescription: "Parsed JSON number <\(tape.numberText(index))> does not fit in \(Integer.self)."))
  }

  static func floating<Floating: BinaryFloatingPoint>(
    _ tape: JSONTapeView, _ index: Int, path: some TapeCodingPathSource
  ) throws -> Floating {
    guard tape[index].kind == .number else { throw mismatch(Floating.self, tape, index, path) }
    let text = tape.numberText(index)
    guard let double = Double(text), double.isFinite, Floating(double).isFinite else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: path.codingPath,
          debugDescription: "Parsed JSON number <\(text)> does not fit in \(Floating.self)."))
    }
    return Floating(double)
  }

  /// Whether ``special(_:_:_:path:)`` reads `T`: asked first, so that decoding any other type
  /// does not make an optional of it, whose type metadata a generic caller looks up each time.
  static func isSpecial<T>(_ type: T.Type) -> Bool {
    T.self == String.self || T.self == Int.self || T.self == Bool.self || T.self == Double.self
      || T.self == Int64.self || T.self == UInt64.self || T.self == Data.self || T.self == URL.self
      || T.self == Decimal.self
  }

  /// A value of one of the types ``special(_:_:_:path:)`` reads, apart: the optional it returns
  /// costs a type metadata look-up where it is made, which other types need not pay.
  @inline(never)
  static func decodeSpecial<T: Decodable>(
    _ type: T.Type, _ tape: JSONTapeView, _ index: Int, path: some TapeCodingPathSource,
    decoder: () -> TapeDecoder
  ) throws -> T {
    try special(T.self, tape, index, path: path) ?? T(from: decoder())
  }

  /// The scalars and the types `JSONDecoder` special-cases by default; `nil` for any other type.
  static func special<T>(
    _ type: T.Type, _ tape: JSONTapeView, _ index: Int, path: some TapeCodingPathSource
  ) throws -> T? {
    func `is`<U>(_ other: U.Type) -> Bool { T.self == U.self }
    func cast<U>(_ result: U) -> T { unsafeBitCast(result, to: T.self) }
    if `is`(String.self) { return cast(try string(tape, index, path: path)) }
    if `is`(Int.self) { return cast(try integer(tape, index, path: path) as Int) }
    if `is`(Bool.self) { return cast(try bool(tape, index, path: path)) }
    if `is`(Double.self) { return cast(try floating(tape, index, path: path) as Double) }
    if `is`(Int64.self) { return cast(try integer(tape, index, path: path) as Int64) }
    if `is`(UInt64.self) { return cast(try integer(tape, index, path: path) as UInt64) }
    if `is`(Data.self) {
      let text = try string(tape, index, path: path)
      guard let data = Data(base64Encoded: text) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: path.codingPath, debugDescription: "Encountered Data is not valid Base64."))
      }
      return cast(data)
    }
    if `is`(URL.self) {
      let text = try string(tape, index, path: path)
      guard let url = URL(string: text) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(codingPath: path.codingPath, debugDescription: "Invalid URL string."))
      }
      return cast(url)
    }
    if `is`(Decimal.self) {
      guard tape[index].kind == .number else { throw mismatch(Decimal.self, tape, index, path) }
      let text = tape.numberText(index)
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

  static func mismatch(
    _ type: Any.Type, _ tape: JSONTapeView, _ index: Int, _ path: some TapeCodingPathSource
  ) -> DecodingError {
    if tape[index].kind == .null {
      return DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: path.codingPath,
          debugDescription: "Cannot get value of type \(type) -- found null value instead"))
    }
    return typeMismatch(type, tape, index, path: path.codingPath)
  }

  static func typeMismatch(
    _ type: Any.Type, _ tape: JSONTapeView, _ index: Int, path: [any CodingKey]
  ) -> DecodingError {
    let found =
      switch tape[index].kind {
      case .null: "null"
      case .true, .false: "bool"
      case .number: "number \(tape.numberText(index))"
      case .string, .escapedString: "a string"
      case .array: "an array"
      case .object: "a dictionary"
      }
    return DecodingError.typeMismatch(
      type,
      DecodingError.Context(
        codingPath: path, debugDescription: "Expected to decode \(type) but found \(found) instead."))
  }
}

/// Something that can say where a value is, when asked.
private protocol TapeCodingPathSource {
  var codingPath: [any CodingKey] { get }
}

extension TapeDecoder: TapeCodingPathSource {}

/// The coding path of a value inside a container: the container's path and one key.
private struct TapeChildPath: TapeCodingPathSource {
  let parent: TapeDecoder
  let key: any CodingKey
  var codingPath: [any CodingKey] { parent.codingPath + [key] }
}

// MARK: - Containers

private struct KeyedTapeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let decoder: TapeDecoder

  init(decoder: TapeDecoder) { self.decoder = decoder }

  var codingPath: [any CodingKey] { decoder.codingPath }

  var allKeys: [Key] {
    let tape = decoder.tape
    let object = decoder.index
    return decoder.owner.keys(Key.self, of: object, in: tape) {
      let count = tape[object].count
      var keys: [Key] = []
      keys.reserveCapacity(count)
      var index = object + 1
      for _ in 0..<count {
        if let key = Key(stringValue: tape.string(index)) { keys.append(key) }
        index = tape[index + 1].next
      }
      return keys
    }
  }

  /// The token of the value of `key`, by a scan comparing bytes (an escaped key's once decoded),
  /// as JSON compares keys.
  private func find(_ key: String) -> Int? {
    let tape = decoder.tape
    let count = tape[decoder.index].count
    var name = key
    return name.withUTF8 { name -> Int? in
      var index = decoder.index + 1
      for _ in 0..<count {
        let token = tape[index]
        if token.kind == .string {
          if token.end - token.start == name.count, tape.equal(token.start, name) { return index + 1 }
        } else if JSONKey(tape.string(index)) == JSONKey(key) {
          return index + 1
        }
        index = tape[index + 1].next
      }
      guard count > 16, name.contains(where: { $0 >= 0x80 }) else { return nil }
      // A large object's keys are compared as strings, as a dictionary of them would (the
      // decoder before this one built one): a key canonically equivalent to one written
      // (`\u{212A}`, the Kelvin sign, is `K`) finds it.
      index = decoder.index + 1
      for _ in 0..<count {
        if tape.string(index) == key { return index + 1 }
        index = tape[index + 1].next
      }
      return nil
    }
  }

  private func value(for key: Key) throws -> Int {
    guard let index = find(key.stringValue) else {
      throw DecodingError.keyNotFound(
        key,
        DecodingError.Context(
          codingPath: codingPath,
          debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }
    return index
  }

  private func path(_ key: Key) -> TapeChildPath { TapeChildPath(parent: decoder, key: key) }

  func contains(_ key: Key) -> Bool { find(key.stringValue) != nil }

  func decodeNil(forKey key: Key) throws -> Bool { try decoder.tape[value(for: key)].kind == .null }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try TapeScalar.bool(decoder.tape, value(for: key), path: path(key))
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try TapeScalar.string(decoder.tape, value(for: key), path: path(key))
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try TapeScalar.floating(decoder.tape, value(for: key), path: path(key))
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try TapeScalar.floating(decoder.tape, value(for: key), path: path(key))
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try TapeScalar.integer(decoder.tape, value(for: key), path: path(key))
  }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try TapeScalar.integer(decoder.tape, value(for: key), path: path(key))
  }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try TapeScalar.integer(decoder.tape, value(for: key), path: path(key))
  }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try TapeScalar.integer(decoder.tape, value(for: key), path: path(key))
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try TapeScalar.integer(decoder.tape, value(for: key), path: path(key))
  }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try TapeScalar.integer(decoder.tape, value(for: key), path: path(key))
  }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try TapeScalar.integer(decoder.tape, value(for: key), path: path(key))
  }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try TapeScalar.integer(decoder.tape, value(for: key), path: path(key))
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try TapeScalar.integer(decoder.tape, value(for: key), path: path(key))
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try TapeScalar.integer(decoder.tape, value(for: key), path: path(key))
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    let index = try value(for: key)
    if TapeScalar.isSpecial(T.self) {
      return try TapeScalar.decodeSpecial(T.self, decoder.tape, index, path: path(key)) {
        decoder.child(index, key: key)
      }
    }
    return try T(from: decoder.child(index, key: key))
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
    decoder.child(find("super") ?? decoder.tape.absent, key: TapeSuperKey())
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    decoder.child(find(key.stringValue) ?? decoder.tape.absent, key: key)
  }
}

/// The key `superDecoder()` reads, as `JSONDecoder` names it.
private struct TapeSuperKey: CodingKey {
  var stringValue: String { "super" }
  var intValue: Int? { nil }
  init() {}
  init?(stringValue: String) { nil }
  init?(intValue: Int) { nil }
}

private struct UnkeyedTapeContainer: UnkeyedDecodingContainer {
  let decoder: TapeDecoder
  let count: Int?
  private(set) var currentIndex = 0
  /// The token of the element at `currentIndex`.
  private var token: Int

  init(decoder: TapeDecoder) {
    self.decoder = decoder
    count = decoder.tape[decoder.index].count
    token = decoder.index + 1
  }

  var codingPath: [any CodingKey] { decoder.codingPath }
  var isAtEnd: Bool { currentIndex >= count ?? 0 }

  private var path: TapeChildPath { TapeChildPath(parent: decoder, key: TapeIndexKey(index: currentIndex)) }

  /// The next element, without moving past it.
  private func next(_ type: Any.Type) throws -> Int {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(codingPath: path.codingPath, debugDescription: "Unkeyed container is at end."))
    }
    return token
  }

  private mutating func advance() {
    token = decoder.tape[token].next
    currentIndex += 1
  }

  mutating func decodeNil() throws -> Bool {
    let isNull = try decoder.tape[next(Any?.self)].kind == .null
    if isNull { advance() }
    return isNull
  }

  private mutating func scalar<T>(_ read: (JSONTapeView, Int, TapeChildPath) throws -> T) throws -> T {
    let result = try read(decoder.tape, next(T.self), path)
    advance()
    return result
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    try scalar { try TapeScalar.bool($0, $1, path: $2) }
  }
  mutating func decode(_ type: String.Type) throws -> String {
    try scalar { try TapeScalar.string($0, $1, path: $2) }
  }
  mutating func decode(_ type: Double.Type) throws -> Double {
    try scalar { try TapeScalar.floating($0, $1, path: $2) }
  }
  mutating func decode(_ type: Float.Type) throws -> Float {
    try scalar { try TapeScalar.floating($0, $1, path: $2) }
  }
  mutating func decode(_ type: Int.Type) throws -> Int {
    try scalar { try TapeScalar.integer($0, $1, path: $2) }
  }
  mutating func decode(_ type: Int8.Type) throws -> Int8 {
    try scalar { try TapeScalar.integer($0, $1, path: $2) }
  }
  mutating func decode(_ type: Int16.Type) throws -> Int16 {
    try scalar { try TapeScalar.integer($0, $1, path: $2) }
  }
  mutating func decode(_ type: Int32.Type) throws -> Int32 {
    try scalar { try TapeScalar.integer($0, $1, path: $2) }
  }
  mutating func decode(_ type: Int64.Type) throws -> Int64 {
    try scalar { try TapeScalar.integer($0, $1, path: $2) }
  }
  mutating func decode(_ type: UInt.Type) throws -> UInt {
    try scalar { try TapeScalar.integer($0, $1, path: $2) }
  }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
    try scalar { try TapeScalar.integer($0, $1, path: $2) }
  }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
    try scalar { try TapeScalar.integer($0, $1, path: $2) }
  }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
    try scalar { try TapeScalar.integer($0, $1, path: $2) }
  }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
    try scalar { try TapeScalar.integer($0, $1, path: $2) }
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let index = try next(T.self)
    let result: T
    if TapeScalar.isSpecial(T.self) {
      result = try TapeScalar.decodeSpecial(T.self, decoder.tape, index, path: path) {
        decoder.child(index, key: TapeIndexKey(index: currentIndex))
      }
    } else {
      result = try T(from: decoder.child(index, key: TapeIndexKey(index: currentIndex)))
    }
    advance()
    return result
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let index = try next(KeyedDecodingContainer<NestedKey>.self)
    let container = try decoder.child(index, key: TapeIndexKey(index: currentIndex)).container(
      keyedBy: NestedKey.self)
    advance()
    return container
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let index = try next((any UnkeyedDecodingContainer).self)
    let container = try decoder.child(index, key: TapeIndexKey(index: currentIndex)).unkeyedContainer()
    advance()
    return container
  }

  mutating func superDecoder() throws -> any Decoder {
    let index = try next((any Decoder).self)
    let child = decoder.child(index, key: TapeIndexKey(index: currentIndex))
    advance()
    return child
  }
}
