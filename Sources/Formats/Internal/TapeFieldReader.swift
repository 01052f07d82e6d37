import ChronicleJSON

/// One JSON object of an imported file read from the tokens of a tape (see ``ObjectReader``):
/// how the importers read each entry, without building a tree.
@usableFromInline
struct TapeFieldReader: ObjectReader {
  /// A value: a token of the tape.
  @usableFromInline
  struct Value {
    let tape: JSONTapeView
    let token: Int
  }

  private let tape: JSONTapeView
  /// The object's token.
  private let object: Int
  /// Where the object is, put together only for an error: `base`, or `list[position]`, then up
  /// to two keys (the members of an entry that are objects, such as `cause`, are one key deep).
  private let base: FieldPath?
  private let list: String
  private let position: Int
  private let keys: (StaticString?, StaticString?)

  /// A reader of the object at token `object` of `tape`, element `position` of the document's
  /// `list` (`entries[3]`).
  @usableFromInline
  init(_ tape: JSONTapeView, at object: Int, list: String, position: Int) throws(JournalImportError) {
    try self.init(tape, at: object, base: nil, list: list, position: position, keys: (nil, nil))
  }

  private init(
    _ tape: JSONTapeView, at object: Int, base: FieldPath?, list: String, position: Int,
    keys: (StaticString?, StaticString?)
  ) throws(JournalImportError) {
    self.tape = tape
    self.object = object
    self.base = base
    self.list = list
    self.position = position
    self.keys = keys
    guard tape[object].kind == .object else {
      throw Self.mismatch(Value(tape: tape, token: object), path: path, expected: "object")
    }
  }

  @usableFromInline
  var path: FieldPath {
    var path = base ?? FieldPath([.key(list), .index(position)])
    if let first = keys.0 { path = path.appending("\(first)") }
    if let second = keys.1 { path = path.appending("\(second)") }
    return path
  }

  var memberCount: Int { tape[object].count }
  var firstMember: Int { object + 1 }
  func member(after member: Int) -> Int { tape[member + 1].next }

  @inline(__always)
  func keyLength(of member: Int) -> Int {
    let token = tape[member]
    // A key with escapes is rare: it is compared by its decoded text.
    return token.kind == .string ? token.end - token.start : tape.string(member).utf8.count
  }

  @inline(__always)
  func key(of member: Int, is key: StaticString) -> Bool {
    tape[member].kind == .string ? tape.string(member, is: key) : tape.string(member) == "\(key)"
  }

  func value(of member: Int) -> Value { Value(tape: tape, token: member + 1) }

  func reader(of value: Value, key: StaticString) throws(JournalImportError) -> TapeFieldReader {
    switch keys {
    case (nil, _):
      try TapeFieldReader(tape, at: value.token, base: base, list: list, position: position, keys: (key, nil))
    case (let first, nil):
      try TapeFieldReader(
        tape, at: value.token, base: base, list: list, position: position, keys: (first, key))
    default:
      try TapeFieldReader(
        tape, at: value.token, base: path.appending("\(key)"), list: list, position: position,
        keys: (nil, nil))
    }
  }

  static func typeName(of value: Value) -> String {
    switch value.tape[value.token].kind {
    case .null: "null"
    case .false, .true: "bool"
    case .number: "number"
    case .string, .escapedString: "string"
    case .array: "array"
    case .object: "object"
    }
  }

  static func text(of value: Value) -> String? {
    switch value.tape[value.token].kind {
    case .string, .escapedString: value.tape.string(value.token)
    default: nil
    }
  }

  static func flag(of value: Value) -> Bool? {
    switch value.tape[value.token].kind {
    case .true: true
    case .false: false
    default: nil
    }
  }

  @inline(__always)
  static func wholeNumber<Integer: FixedWidthInteger>(of value: Value) -> WholeNumber<Integer>? {
    guard value.tape[value.token].kind == .number else { return nil }
    return WholeNumber(value.tape.slice(value.token))
  }

  static func numberText(of value: Value) -> String { value.tape.numberText(value.token) }

  static func elements(of value: Value) -> [Value]? {
    guard value.tape[value.token].kind == .array else { return nil }
    var elements: [Value] = []
    var token = value.token + 1
    for _ in 0..<value.tape[value.token].count {
      elements.append(Value(tape: value.tape, token: token))
      token = value.tape[token].next
    }
    return elements
  }
}
