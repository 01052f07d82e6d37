/// One JSON value read into a flat list of tokens that point into the input bytes: the importers'
/// fast path, which reads each entry without building a ``JSONValue`` tree.
///
/// A tree costs an allocation per object, array and string, and another to free each; a tape is
/// one array, reused from entry to entry, and strings are made only for the fields read.
/// An object's token is followed by its members' keys and values, an array's by its elements;
/// each token knows where the value after it (and after everything inside it) starts.
///
/// The tape reader validates exactly what ``JSONParser/parseValue()`` validates (UTF-8, escapes,
/// numbers, duplicate keys compared by their bytes, depth and length limits) and fails as it
/// fails: the same problem at the same byte offset, with the same path. The one shape it does
/// not represent is a value cut for its depth (``JSONParser/Limits/cutsTooDeep``), which it
/// refuses as too deep. `Corpus/` in the JSON tests holds the cases both must get right.
package final class JSONTape {
  package enum Kind: UInt8 {
    case null
    case `false`
    case `true`
    case number
    /// A string without escapes: its bytes are its text.
    case string
    /// A string with escapes: its bytes are the quoted JSON text, decoded when read.
    case escapedString
    case array
    case object
  }

  package struct Token {
    package var kind: Kind
    /// The members of an object or the elements of an array.
    package var count: Int
    /// The index of the token after this value and everything inside it.
    package var next: Int
    /// The value's bytes in ``JSONTape/bytes``: for a string without escapes, its text without
    /// the quotes; for anything else, the whole JSON text of the value.
    package var start: Int
    package var end: Int
  }

  /// Token storage that the tape owns, read through a pointer: the readers of a tape index
  /// its tokens a few dozen times per entry, and each read of a class's array property would
  /// pay a dynamic exclusivity check.
  package struct Tokens {
    fileprivate var base: UnsafeMutablePointer<Token>
    fileprivate var capacity: Int
    package var count = 0

    // Inlined: the tape reader appends a token per value. The storage is kept from one read to
    // the next, so it rarely grows, and growing is a call of its own.
    @inline(__always)
    package mutating func append(_ token: Token) {
      if count == capacity { grow() }
      (base + count).initialize(to: token)
      count += 1
    }

    private mutating func grow() {
      let grown = UnsafeMutablePointer<Token>.allocate(capacity: capacity * 2)
      grown.moveInitialize(from: base, count: count)
      base.deallocate()
      base = grown
      capacity *= 2
    }

    package subscript(index: Int) -> Token {
      @inline(__always) get { base[index] }
      nonmutating set { base[index] = newValue }
    }
  }

  private var tokens = Tokens(base: .allocate(capacity: 64), capacity: 64)
  private var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)

  package init() {}

  deinit { tokens.base.deallocate() }

  /// Reads the value at `parser`'s position onto the tape, replacing what it held, and moves the
  /// parser past it. After a failure, the parser's position and depth are where they were.
  package func read(_ parser: inout JSONParser) throws(JSONParser.Failure) {
    let position = parser.position
    let depth = parser.depth
    var tokens = self.tokens
    tokens.count = 0
    defer { self.tokens = tokens }
    bytes = parser.bytes
    do throws(JSONParser.Failure) {
      try parser.tapeValue(into: &tokens)
      tokens.append(Token(kind: .null, count: 0, next: tokens.count + 1, start: 0, end: 0))
    } catch {
      parser.position = position
      parser.depth = depth
      throw error
    }
  }

  /// The tokens read last, valid until the next ``read(_:)`` and while the input is.
  package var view: JSONTapeView {
    JSONTapeView(tokens: UnsafeBufferPointer(start: tokens.base, count: tokens.count), bytes: bytes)
  }
}

/// The tokens of a ``JSONTape`` and the bytes they point into, for reading.
@usableFromInline
package struct JSONTapeView {
  package let tokens: UnsafeBufferPointer<JSONTape.Token>
  package let bytes: UnsafeBufferPointer<UInt8>

  package subscript(index: Int) -> JSONTape.Token { tokens[index] }

  /// A `null` after the value, not in it: what a decoder reads for a member that is absent.
  package var absent: Int { tokens.count - 1 }

  /// The text of the string token at `index`.
  package func string(_ index: Int) -> String {
    let token = tokens[index]
    if token.kind == .string {
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]), as: UTF8.self)
    }
    // Validated when read, so decoding it again cannot fail; the limits were checked then.
    var parser = JSONParser(
      bytes: bytes, limits: JSONParser.Limits(maxDepth: 1, maxStringBytes: .max, maxNumberLength: .max))
    parser.position = token.start
    return (try? parser.parseString()) ?? ""
  }

  /// The bytes of the token at `index` (see ``JSONTape/Token/start``).
  @usableFromInline
  package func slice(_ index: Int) -> UnsafeBufferPointer<UInt8> {
    let token = tokens[index]
    return UnsafeBufferPointer(rebasing: bytes[token.start..<token.end])
  }

  /// The text of the number token at `index`.
  package func numberText(_ index: Int) -> String { String(decoding: slice(index), as: UTF8.self) }

  /// Whether the string token at `index` is `text`, by its bytes (an escaped string never is:
  /// the callers look up keys and names, which have no escapes).
  // Inlined, as are the two below: `text` is a literal at every call, whose length and bytes are
  // then constants.
  @inline(__always)
  package func string(_ index: Int, is text: StaticString) -> Bool {
    let token = tokens[index]
    let length = text.utf8CodeUnitCount
    guard token.kind == .string, token.end - token.start == length else { return false }
    return equal(token.start, UnsafeBufferPointer(start: text.utf8Start, count: length))
  }

  /// Whether the bytes at `offset` are `other`; a loop, for keys are short.
  @inline(__always)
  package func equal(_ offset: Int, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
    for index in 0..<other.count where bytes[offset + index] != other[index] { return false }
    return true
  }

  /// The value of the member of the object at `object` whose key is `key`, by a scan.
  @inline(__always)
  package func member(_ object: Int, _ key: StaticString) -> Int? {
    var index = object + 1
    for _ in 0..<tokens[object].count {
      if string(index, is: key) { return index + 1 }
      index = tokens[index + 1].next
    }
    return nil
  }
}

extension JSONParser {
  /// Reads one value onto `tokens` (see ``JSONTape``).
  // Inlined into the readers of objects and arrays, which call it once per member or element.
  @inline(__always)
  package mutating func tapeValue(into tokens: inout JSONTape.Tokens) throws(Failure) {
    guard position < bytes.count else { throw failure(.unexpectedEnd) }
    let start = position
    switch bytes[position] {
    case UInt8(ascii: "{"):
      // A value cut for its depth has no token: the tree parser reads it.
      if limits.cutsTooDeep && depth >= maxDepth { throw failure(.tooDeep(limit: maxDepth)) }
      try tapeObject(into: &tokens)
    case UInt8(ascii: "["):
      if limits.cutsTooDeep && depth >= maxDepth { throw failure(.tooDeep(limit: maxDepth)) }
      try tapeArray(into: &tokens)
    case UInt8(ascii: "\""):
      if try scanShortString() != .escaped {
        tokens.append(scalar(.string, start + 1, position - 1, tokens.count))
      } else {
        _ = try parseEscapedString(from: start)
        tokens.append(scalar(.escapedString, start, position, tokens.count))
      }
    case UInt8(ascii: "t"):
      try literal("true")
      tokens.append(scalar(.true, start, position, tokens.count))
    case UInt8(ascii: "f"):
      try literal("false")
      tokens.append(scalar(.false, start, position, tokens.count))
    case UInt8(ascii: "n"):
      try literal("null")
      tokens.append(scalar(.null, start, position, tokens.count))
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      try scanShortNumber()
      tokens.append(scalar(.number, start, position, tokens.count))
    default: throw failure(.unexpectedByte(bytes[position]))
    }
  }

  private func scalar(_ kind: JSONTape.Kind, _ start: Int, _ end: Int, _ index: Int) -> JSONTape.Token {
    JSONTape.Token(kind: kind, count: 0, next: index + 1, start: start, end: end)
  }

  /// Opens the object or array at `position` with its token; `nil` when it is empty, already
  /// closed, so the caller has nothing to read.
  private mutating func openContainer(
    _ kind: JSONTape.Kind, closing: UInt8, into tokens: inout JSONTape.Tokens
  ) throws(Failure) -> Int? {
    try enter()
    let container = tokens.count
    tokens.append(JSONTape.Token(kind: kind, count: 0, next: 0, start: position, end: position))
    position += 1
    skipWhitespace()
    guard position < bytes.count, bytes[position] == closing else { return container }
    position += 1
    depth -= 1
    close(container, count: 0, in: &tokens)
    return nil
  }

  /// Ends the container token at `container`, which holds `count` members or elements, here.
  private func close(_ container: Int, count: Int, in tokens: inout JSONTape.Tokens) {
    tokens[container].count = count
    tokens[container].next = tokens.count
    tokens[container].end = position
  }

  private mutating func tapeObject(into tokens: inout JSONTape.Tokens) throws(Failure) {
    guard let object = try openContainer(.object, closing: UInt8(ascii: "}"), into: &tokens) else { return }
    var count = 0
    // The keys read, once hashed: for a large object, or one with an escaped key.
    var keys = Set<JSONKey>()
    var hashed = false
    // A bit for each key read, chosen by its ``keyMark(_:_:)``: a key whose bit is clear is not
    // among them, and only the others are compared with the keys before.
    var marks: UInt64 = 0
    while true {
      skipWhitespace()
      guard position < bytes.count else { throw failure(.unexpectedEnd) }
      guard bytes[position] == UInt8(ascii: "\"") else { throw failure(.unexpectedByte(bytes[position])) }
      let keyOffset = position
      // Keys are compared by their bytes, as ``JSONKey`` compares them: an escaped key by the
      // bytes it decodes to, through the hashed keys.
      let key: JSONTape.Token
      if try scanShortString() != .escaped {
        key = scalar(.string, keyOffset + 1, position - 1, tokens.count)
        let mark = keyMark(key.start, key.end)
        if marks & mark != 0 || hashed,
          isDuplicate(key, in: tokens, object: object, count: count, keys: &keys, hashed: &hashed)
        {
          throw Failure(problem: .duplicateKey(keyText(key)), offset: keyOffset, path: path)
        }
        marks |= mark
      } else {
        _ = try parseEscapedString(from: keyOffset)
        key = scalar(.escapedString, keyOffset, position, tokens.count)
        if !hashed { hashKeys(in: tokens, object: object, count: count, into: &keys, hashed: &hashed) }
        let text = keyText(key)
        if !keys.insert(JSONKey(text)).inserted {
          throw Failure(problem: .duplicateKey(text), offset: keyOffset, path: path)
        }
      }
      tokens.append(key)
      skipWhitespace()
      guard position < bytes.count else { throw failure(.unexpectedEnd) }
      guard bytes[position] == UInt8(ascii: ":") else { throw failure(.unexpectedByte(bytes[position])) }
      position += 1
      skipWhitespace()
      do throws(Failure) {
        try tapeValue(into: &tokens)
      } catch {
        throw placed(error, under: .key(keyText(key)))
      }
      count += 1
      if try endOfMember(closing: UInt8(ascii: "}")) {
        close(object, count: count, in: &tokens)
        return
      }
    }
  }

  /// A failure inside the value of `component` of a container being read, with its path as
  /// ``parseValue()`` gives it: the tape reader pushes no path while it reads, so each level
  /// adds its own on the way out.
  private func placed(_ failure: Failure, under component: FieldPath.Component) -> Failure {
    var failure = failure
    failure.path.components.insert(component, at: path.components.count)
    return failure
  }

  /// The text of the key token `key`.
  private func keyText(_ key: JSONTape.Token) -> String {
    guard key.kind == .escapedString else {
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[key.start..<key.end]), as: UTF8.self)
    }
    // Validated when read: decoding it again cannot fail.
    var parser = JSONParser(bytes: bytes, limits: limits)
    parser.position = key.start
    return (try? parser.parseString()) ?? ""
  }

  /// One bit of 64, chosen by the length and three of the bytes of the key at `start..<end`.
  @inline(__always)
  private func keyMark(_ start: Int, _ end: Int) -> UInt64 {
    let length = end - start
    guard length > 0 else { return 1 }
    let summary =
      UInt64(length) | UInt64(bytes[start]) << 16 | UInt64(bytes[start + length / 2]) << 24
      | UInt64(bytes[end - 1]) << 32
    return 1 << ((summary &* 0x9E37_79B9_7F4A_7C15) >> 58)
  }

  /// Whether the unescaped key `key` is one of the `count` keys before it in the object; as in
  /// ``parseValue()``, small objects are scanned and larger ones hashed (`hashed`: every key so
  /// far is in `keys`).
  private func isDuplicate(
    _ key: JSONTape.Token, in tokens: JSONTape.Tokens, object: Int, count: Int, keys: inout Set<JSONKey>,
    hashed: inout Bool
  ) -> Bool {
    let length = key.end - key.start
    if count < 16 && !hashed {
      var index = object + 1
      for _ in 0..<count {
        let other = tokens[index]
        if other.end - other.start == length, equal(other.start, key.start, length) { return true }
        index = tokens[index + 1].next
      }
      return false
    }
    if !hashed { hashKeys(in: tokens, object: object, count: count, into: &keys, hashed: &hashed) }
    return !keys.insert(JSONKey(keyText(key))).inserted
  }

  /// Puts the `count` keys read so far of the object at `object` into `keys`.
  private func hashKeys(
    in tokens: JSONTape.Tokens, object: Int, count: Int, into keys: inout Set<JSONKey>, hashed: inout Bool
  ) {
    var index = object + 1
    for _ in 0..<count {
      keys.insert(JSONKey(keyText(tokens[index])))
      index = tokens[index + 1].next
    }
    hashed = true
  }

  /// Whether the `length` bytes at `first` and at `second` are the same.
  private func equal(_ first: Int, _ second: Int, _ length: Int) -> Bool {
    for offset in 0..<length where bytes[first + offset] != bytes[second + offset] { return false }
    return true
  }

  private mutating func tapeArray(into tokens: inout JSONTape.Tokens) throws(Failure) {
    guard let array = try openContainer(.array, closing: UInt8(ascii: "]"), into: &tokens) else { return }
    var count = 0
    while true {
      skipWhitespace()
      do throws(Failure) {
        try tapeValue(into: &tokens)
      } catch {
        throw placed(error, under: .index(count))
      }
      count += 1
      if try endOfMember(closing: UInt8(ascii: "]")) {
        close(array, count: count, in: &tokens)
        return
      }
    }
  }
}
