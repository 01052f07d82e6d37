import ChronicleJSON

/// One JSON object of an imported file as the schema readers see it (``EntryFields``,
/// ``EventFields``, ``MetaFields``, the headers): held as a tree (``FieldReader``) or as tokens
/// of a tape (``TapeFieldReader``).
///
/// The schema is written once, against this protocol, and so are its errors: the typed accessors
/// below turn every problem into the ``JournalImportError`` that names the field, whichever form
/// the object is held in. A conforming type supplies only the look-ups: its members, in order,
/// and what each value is.
///
/// Paths are built only for errors: an entry reads a dozen fields, and a path appended to for
/// each would cost an array each.
protocol ObjectReader {
  /// A value in the object (a member's value, an element of an array member).
  associatedtype Value
  /// A place among the object's members, from ``firstMember``.
  associatedtype Member

  /// Where the object is.
  var path: FieldPath { get }

  /// How many members the object has.
  var memberCount: Int { get }
  /// The first member (meaningless when ``memberCount`` is 0).
  var firstMember: Member { get }
  /// The member after `member`.
  func member(after member: Member) -> Member
  /// The length of `member`'s key in UTF-8 bytes, for telling keys apart before comparing them.
  func keyLength(of member: Member) -> Int
  /// Whether `member`'s key is `key`.
  func key(of member: Member, is key: StaticString) -> Bool
  /// `member`'s value.
  func value(of member: Member) -> Value

  /// The value of `key`, `nil` when absent (a `null` counts as present). Scans the members
  /// unless the reader has a faster way.
  func optional(_ key: StaticString) -> Value?

  /// A reader of `value`, the value of the member `key`; ``JournalImportError/wrongType(entry:field:expected:found:)``
  /// when it is not an object.
  func reader(of value: Value, key: StaticString) throws(JournalImportError) -> Self

  /// What `value` is, as errors name it: `object`, `array`, `string`, `number`, `bool`, `null`.
  static func typeName(of value: Value) -> String
  /// The text of a string, `nil` for anything else.
  static func text(of value: Value) -> String?
  /// A `true` or `false`, `nil` for anything else.
  static func flag(of value: Value) -> Bool?
  /// A number read as an `Integer`, `nil` for anything but a number.
  static func wholeNumber<Integer: FixedWidthInteger>(of value: Value) -> WholeNumber<Integer>?
  /// A number's text as written (the value is a number).
  static func numberText(of value: Value) -> String
  /// The elements of an array, `nil` for anything else.
  static func elements(of value: Value) -> [Value]?
}

extension ObjectReader {
  func optional(_ key: StaticString) -> Value? {
    let length = key.utf8CodeUnitCount
    var member = firstMember
    for _ in 0..<memberCount {
      if keyLength(of: member) == length && self.key(of: member, is: key) { return value(of: member) }
      member = self.member(after: member)
    }
    return nil
  }

  func contains(_ key: StaticString) -> Bool { optional(key) != nil }

  func required(_ key: StaticString) throws(JournalImportError) -> Value {
    try required(optional(key), key)
  }

  /// `value`, the value of `key` when one was found: ``JournalImportError/missingField(entry:field:)``
  /// when it was not.
  func required(_ value: Value?, _ key: StaticString) throws(JournalImportError) -> Value {
    guard let value else {
      let field = path.appending("\(key)")
      throw .missingField(entry: field.entryIndex, field: field.description)
    }
    return value
  }

  func object(_ key: StaticString) throws(JournalImportError) -> Self {
    try reader(of: required(key), key: key)
  }

  func string(_ key: StaticString) throws(JournalImportError) -> String {
    try Self.string(required(key), path: path.appending("\(key)"))
  }

  func optionalString(_ key: StaticString) throws(JournalImportError) -> String? {
    guard let value = optional(key) else { return nil }
    return try Self.string(value, path: path.appending("\(key)"))
  }

  func bool(_ key: StaticString) throws(JournalImportError) -> Bool {
    try Self.bool(required(key), path: path.appending("\(key)"))
  }

  func array(_ key: StaticString) throws(JournalImportError) -> [Value] {
    let value = try required(key)
    guard let elements = Self.elements(of: value) else {
      let field = path.appending("\(key)")
      throw .wrongType(
        entry: field.entryIndex, field: field.description, expected: "array", found: Self.typeName(of: value))
    }
    return elements
  }

  func integer<Integer: FixedWidthInteger>(
    _ key: StaticString, as type: Integer.Type = Integer.self
  ) throws(JournalImportError) -> Integer {
    try Self.integer(required(key), path: path.appending("\(key)"))
  }

  func optionalInteger<Integer: FixedWidthInteger>(
    _ key: StaticString, as type: Integer.Type = Integer.self
  ) throws(JournalImportError) -> Integer? {
    guard let value = optional(key) else { return nil }
    return try Self.integer(value, path: path.appending("\(key)"))
  }

  /// An integer within `range`.
  func integer<Integer: FixedWidthInteger>(
    _ key: StaticString, in range: ClosedRange<Integer>
  ) throws(JournalImportError) -> Integer {
    try Self.integer(required(key), path: path.appending("\(key)"), in: range)
  }

  /// An integer within `range`, `nil` when absent.
  func optionalInteger<Integer: FixedWidthInteger>(
    _ key: StaticString, in range: ClosedRange<Integer>
  ) throws(JournalImportError) -> Integer? {
    guard let value = optional(key) else { return nil }
    return try Self.integer(value, path: path.appending("\(key)"), in: range)
  }

  static func string(_ value: Value, path: @autoclosure () -> FieldPath) throws(JournalImportError) -> String
  {
    guard let text = text(of: value) else { throw mismatch(value, path: path(), expected: "string") }
    return text
  }

  static func bool(_ value: Value, path: @autoclosure () -> FieldPath) throws(JournalImportError) -> Bool {
    guard let flag = flag(of: value) else { throw mismatch(value, path: path(), expected: "bool") }
    return flag
  }

  /// An integer written without fraction or exponent, within `Integer`'s range.
  // Inlined, as the three below, into the schema readers, where `Integer` is known: generic, they
  // read each digit through `Integer`'s witnesses (`import/*`).
  @inline(__always)
  static func integer<Integer: FixedWidthInteger>(
    _ value: Value, path: @autoclosure () -> FieldPath
  ) throws(JournalImportError) -> Integer {
    guard let number: WholeNumber<Integer> = wholeNumber(of: value) else {
      throw mismatch(value, path: path(), expected: "integer")
    }
    switch number {
    case .value(let integer): return integer
    case .outOfRange:
      let path = path()
      throw .numberOutOfRange(entry: path.entryIndex, field: path.description, value: numberText(of: value))
    case .notWhole:
      let path = path()
      throw .wrongType(
        entry: path.entryIndex, field: path.description, expected: "integer",
        found: "number \(numberText(of: value))")
    }
  }

  /// An integer within `range`: out of it (or out of `Integer`'s own range) is
  /// ``JournalImportError/numberOutOfRange(entry:field:value:)``.
  @inline(__always)
  static func integer<Integer: FixedWidthInteger>(
    _ value: Value, path: @autoclosure () -> FieldPath, in range: ClosedRange<Integer>
  ) throws(JournalImportError) -> Integer {
    let integer: Integer = try integer(value, path: path())
    guard range.contains(integer) else {
      let path = path()
      throw .numberOutOfRange(
        entry: path.entryIndex, field: path.description,
        value: "\(integer) (valid: \(range.lowerBound)…\(range.upperBound))")
    }
    return integer
  }

  /// The error for `value` at `path`, which is not what was `expected`.
  static func mismatch(_ value: Value, path: FieldPath, expected: String) -> JournalImportError {
    .wrongType(
      entry: path.entryIndex, field: path.description, expected: expected, found: typeName(of: value))
  }
}
