/// A strict RFC 8259 parser with limits, for importing files that may be truncated, corrupt or
/// hostile.
///
/// It validates UTF-8 (including escaped surrogate pairs), refuses duplicate keys, and stops at
/// the configured depth, string and number lengths instead of exhausting the stack or memory.
/// Every error carries the byte offset and the path of the value being read.
package struct JSONParser {
  package struct Limits: Sendable {
    package var maxDepth: Int
    package var maxStringBytes: Int
    package var maxNumberLength: Int
    /// Whether an object or array nested deeper than the limit is replaced by ``cutMarker``
    /// (skipped without recursion) instead of failing: for showing a value whatever its depth.
    package var cutsTooDeep = false

    package init(maxDepth: Int, maxStringBytes: Int, maxNumberLength: Int, cutsTooDeep: Bool = false) {
      self.maxDepth = maxDepth
      self.maxStringBytes = maxStringBytes
      self.maxNumberLength = maxNumberLength
      self.cutsTooDeep = cutsTooDeep
    }
  }

  /// The deepest nesting any parser accepts, whatever its limits say. The parser recurses once
  /// per level, and so does every step after it (decoding, writing, diffing, the viewer): this
  /// keeps all of them far within a thread's stack (Foundation's `JSONDecoder` stops at the same
  /// depth).
  package static let maxSupportedDepth = 512

  /// What a value cut for its depth is replaced with when ``Limits/cutsTooDeep`` is set.
  package static let cutMarker = "<cut: nested too deep>"

  package enum Problem: Equatable, Sendable {
    case unexpectedEnd
    case unexpectedByte(UInt8)
    case invalidUTF8
    case invalidEscape
    case invalidNumber
    case duplicateKey(String)
    case trailingData
    case tooDeep(limit: Int)
    case stringTooLong(limit: Int)
    case numberTooLong(limit: Int)
  }

  package struct Failure: Error, Sendable {
    package var problem: Problem
    package var offset: Int
    package var path: FieldPath
  }

  /// The input; a document read in blocks moves it (see ``rebase(onto:dropped:)``).
  package internal(set) var bytes: UnsafeBufferPointer<UInt8>
  package let limits: Limits
  /// Where reading is: the tape reader (JSONTape.swift) moves it too.
  package var position = 0
  package var depth = 0
  /// Where the value being read sits: the tape reader (JSONTape.swift) reads it for its failures.
  var path = FieldPath()
  /// The members and elements of the objects and arrays being read, innermost last: each
  /// container is copied out once, at its end, into an array of its exact size, rather than
  /// grown (and reallocated) member by member. Kept across values, so reading entry after entry
  /// allocates no scratch space.
  private var memberStack: [JSONMember] = []
  private var elementStack: [JSONValue] = []

  package init(bytes: UnsafeBufferPointer<UInt8>, limits: Limits, basePath: FieldPath = FieldPath()) {
    self.bytes = bytes
    self.limits = limits
    self.path = basePath
  }

  /// Parses one JSON document that fills `bytes` (surrounding whitespace allowed).
  package static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, limits: Limits, path: FieldPath = FieldPath()
  )
    throws(Failure) -> JSONValue
  {
    var parser = JSONParser(bytes: bytes, limits: limits, basePath: path)
    parser.skipWhitespace()
    let value = try parser.parseValue()
    parser.skipWhitespace()
    if parser.position < bytes.count { throw parser.failure(.trailingData) }
    return value
  }

  /// The scratch space of a parser, handed from one document to the next: a reader of many
  /// small documents (an NDJSON stream's lines) then allocates none of it after the first.
  package struct Scratch {
    fileprivate var members: [JSONMember] = []
    fileprivate var elements: [JSONValue] = []

    package init() {}
  }

  /// Parses one JSON document that fills `bytes`, with the scratch space of the documents before.
  package static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, limits: Limits, path: FieldPath = FieldPath(), scratch: inout Scratch
  ) throws(Failure) -> JSONValue {
    var parser = JSONParser(bytes: bytes, limits: limits, basePath: path)
    swap(&parser.memberStack, &scratch.members)
    swap(&parser.elementStack, &scratch.elements)
    defer {
      swap(&parser.memberStack, &scratch.members)
      swap(&parser.elementStack, &scratch.elements)
    }
    parser.skipWhitespace()
    let value = try parser.parseValue()
    parser.skipWhitespace()
    if parser.position < bytes.count { throw parser.failure(.trailingData) }
    return value
  }

  /// Parses `bytes` (see ``parse(_:limits:path:)-(UnsafeBufferPointer<UInt8>,_,_)``).
  package static func parse(
    _ bytes: [UInt8], limits: Limits, path: FieldPath = FieldPath()
  ) throws(Failure) -> JSONValue {
    let result: Result<JSONValue, Failure> = bytes.withUnsafeBufferPointer { buffer in
      do throws(Failure) {
        return .success(try parse(buffer, limits: limits, path: path))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  package func failure(_ problem: Problem) -> Failure {
    Failure(problem: problem, offset: position, path: path)
  }

  // Inlined: called between every two tokens, and there is rarely whitespace to skip, so one
  // test of the next byte (every whitespace byte is at most a space) usually settles it.
  @inline(__always)
  package mutating func skipWhitespace() {
    guard position < bytes.count, bytes[position] <= 0x20 else { return }
    skipWhitespaceRun()
  }

  private mutating func skipWhitespaceRun() {
    let end = bytes.count
    var index = position
    while index < end {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default:
        position = index
        return
      }
    }
    position = index
  }

  package mutating func parseValue() throws(Failure) -> JSONValue {
    guard position < bytes.count else { throw failure(.unexpectedEnd) }
    switch bytes[position] {
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      if limits.cutsTooDeep && depth >= maxDepth {
        try skipContainer()
        return .string(Self.cutMarker)
      }
      return bytes[position] == UInt8(ascii: "{") ? try parseObject() : try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): try literal("true"); return .bool(true)
    case UInt8(ascii: "f"): try literal("false"); return .bool(false)
    case UInt8(ascii: "n"): try literal("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    default: throw failure(.unexpectedByte(bytes[position]))
    }
  }

  package mutating func literal(_ text: StaticString) throws(Failure) {
    let count = text.utf8CodeUnitCount
    for offset in 0..<count {
      guard position + offset < bytes.count else {
        position += offset
        throw failure(.unexpectedEnd)
      }
      if bytes[position + offset] != text.utf8Start[offset] {
        position += offset
        throw failure(.unexpectedByte(bytes[position]))
      }
    }
    position += count
  }

  package var maxDepth: Int { min(limits.maxDepth, Self.maxSupportedDepth) }

  package mutating func enter() throws(Failure) {
    depth += 1
    if depth > maxDepth { throw failure(.tooDeep(limit: maxDepth)) }
  }

  /// Moves past the object or array at `position` without building it, counting brackets in a
  /// loop rather than recursing, whatever its depth. Its contents are not validated beyond
  /// their strings and brackets: the values cut are not shown.
  private mutating func skipContainer() throws(Failure) {
    var open = 0
    while position < bytes.count {
      switch bytes[position] {
      case UInt8(ascii: "{"), UInt8(ascii: "["): open += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        open -= 1
        if open == 0 {
          position += 1
          return
        }
      case UInt8(ascii: "\""):
        position += 1
        while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
          position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
        }
      default: break
      }
      position += 1
    }
    position = bytes.count
    throw failure(.unexpectedEnd)
  }

  private mutating func parseObject() throws(Failure) -> JSONValue {
    try enter()
    position += 1
    skipWhitespace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
      position += 1
      depth -= 1
      return .object([])
    }
    let first = memberStack.count
    defer { memberStack.removeLast(memberStack.count - first) }
    // Keys are compared by their bytes (``JSONKey``): `String`'s `==` takes canonically
    // equivalent keys, different to JSON, for one.
    var keys = Set<JSONKey>()
    while true {
      skipWhitespace()
      guard position < bytes.count else { throw failure(.unexpectedEnd) }
      guard bytes[position] == UInt8(ascii: "\"") else { throw failure(.unexpectedByte(bytes[position])) }
      let keyOffset = position
      let key = try parseString()
      // Most objects are small: a scan is cheaper than hashing every key.
      let duplicate: Bool
      let count = memberStack.count - first
      if count < 16 {
        duplicate = memberStack[first...].contains { JSONKey.same($0.key, key) }
      } else {
        if keys.isEmpty { keys = Set(memberStack[first...].map { JSONKey($0.key) }) }
        duplicate = !keys.insert(JSONKey(key)).inserted
      }
      if duplicate {
        throw Failure(problem: .duplicateKey(key), offset: keyOffset, path: path)
      }
      skipWhitespace()
      guard position < bytes.count else { throw failure(.unexpectedEnd) }
      guard bytes[position] == UInt8(ascii: ":") else { throw failure(.unexpectedByte(bytes[position])) }
      position += 1
      skipWhitespace()
      path.components.append(.key(key))
      let value = try parseValue()
      path.components.removeLast()
      memberStack.append(JSONMember(key, value))
      if try endOfMember(closing: UInt8(ascii: "}")) { return .object(Array(memberStack[first...])) }
    }
  }

  private mutating func parseArray() throws(Failure) -> JSONValue {
    try enter()
    position += 1
    skipWhitespace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
      position += 1
      depth -= 1
      return .array([])
    }
    let first = elementStack.count
    defer { elementStack.removeLast(elementStack.count - first) }
    while true {
      skipWhitespace()
      path.components.append(.index(elementStack.count - first))
      let value = try parseValue()
      path.components.removeLast()
      elementStack.append(value)
      if try endOfMember(closing: UInt8(ascii: "]")) { return .array(Array(elementStack[first...])) }
    }
  }

  /// After a member or element: consumes the `,` before the next one (returns `false`), or
  /// `closing`, which ends the container (returns `true`, leaving its level).
  // Inlined: called once per member and element.
  @inline(__always)
  package mutating func endOfMember(closing: UInt8) throws(Failure) -> Bool {
    skipWhitespace()
    guard position < bytes.count else { throw failure(.unexpectedEnd) }
    switch bytes[position] {
    case UInt8(ascii: ","):
      position += 1
      return false
    case closing:
      position += 1
      depth -= 1
      return true
    default:
      throw failure(.unexpectedByte(bytes[position]))
    }
  }

  private mutating func parseNumber() throws(Failure) -> String {
    let start = position
    try scanShortNumber()
    // The bytes are ASCII digits and signs, so this decoding cannot fail.
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
  }

  /// Validates the number at `position` and moves past it.
  package mutating func scanNumber() throws(Failure) {
    let start = position
    let end = bytes.count
    // A local index, stored back before returning or throwing.
    var index = start
    if index < end, bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < end else {
      position = index
      throw failure(.unexpectedEnd)
    }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else if isDigit(bytes[index]) {
      index = digits(from: index + 1)
    } else {
      position = index
      throw failure(.invalidNumber)
    }
    if index < end, bytes[index] == UInt8(ascii: ".") {
      index = try requiredDigits(from: index + 1)
    }
    if index < end, bytes[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
        index += 1
      }
      index = try requiredDigits(from: index)
    }
    if index - start > limits.maxNumberLength {
      position = start
      throw failure(.numberTooLong(limit: limits.maxNumberLength))
    }
    position = index
  }

  /// Past the digits a fraction or an exponent must have from `index` on; where there are none,
  /// throws with `position` there.
  private mutating func requiredDigits(from index: Int) throws(Failure) -> Int {
    guard index < bytes.count else {
      position = index
      throw failure(.unexpectedEnd)
    }
    guard isDigit(bytes[index]) else {
      position = index
      throw failure(.invalidNumber)
    }
    return digits(from: index + 1)
  }

  /// ``scanNumber()``, inlined for an integer of one to seven digits without a sign (indices,
  /// counts, durations), which it reads in one step of eight bytes.
  @inline(__always)
  package mutating func scanShortNumber() throws(Failure) {
    let start = position
    if bytes.count - start >= 8, let base = bytes.baseAddress, base[start] &- UInt8(ascii: "1") < 9 {
      let word = Self.word(base + start)
      let length = Self.nonDigits(word).trailingZeroBitCount / 8
      if length < 8 {
        // The byte after the digits, from the word: a fraction or an exponent is read on.
        let after = UInt8(truncatingIfNeeded: word &>> (8 * length))
        if after != UInt8(ascii: "."), after | 0x20 != UInt8(ascii: "e"), length <= limits.maxNumberLength {
          position = start + length
          return
        }
      }
    }
    try scanNumber()
  }

  /// The index of the first byte from `index` on that is not a digit, or the end; eight bytes
  /// at a time while there are eight (integers such as nanosecond times have up to 19 digits).
  @inline(__always)
  private func digits(from index: Int) -> Int {
    var index = index
    if let base = bytes.baseAddress {
      while bytes.count - index >= 8 {
        let others = Self.nonDigits(Self.word(base + index))
        index += others.trailingZeroBitCount / 8
        if others != 0 { return index }
      }
    }
    while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    return index
  }

  /// The high bit of each byte of `word` (eight bytes, the first the lowest) that is not an ASCII
  /// digit; a byte above the first such byte may be marked too.
  // A digit is 0x3_ both as it is and plus 6 (which carries out of its nibble from 0x3A on);
  // the sum carries into the next byte only from a byte of 0xFA on, which is marked itself.
  @inline(__always)
  private static func nonDigits(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highNibbles = ones &* 0xF0
    let threes = ones &* 0x30
    let differences = (word & highNibbles ^ threes) | ((word &+ ones &* 0x06) & highNibbles ^ threes)
    // A byte that is not zero gets its high bit, without a carry between bytes.
    let lows = ones &* 0x7F
    return ((differences & lows) &+ lows | differences) & (ones &* 0x80)
  }

  @inline(__always)
  private func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

  private var rawStringLimit: Int {
    limits.maxStringBytes > Int.max / 6 ? Int.max : limits.maxStringBytes * 6
  }

  package mutating func parseString() throws(Failure) -> String {
    let start = position
    // Fast path: no escapes. Scan and validate, then decode once, straight from the input.
    if try scanShortString() != .escaped {
      return String(
        decoding: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(position - 1)]), as: UTF8.self)
    }
    return try parseEscapedString(from: start)
  }

  /// What ``scanString()`` found.
  package enum StringScan {
    /// A string of ASCII characters only, without escapes.
    case ascii
    /// A string without escapes, with a character beyond ASCII.
    case unicode
    /// An escape, before which the string is valid.
    case escaped
  }

  /// ``scanString()``, inlined for a string of up to 15 ASCII characters without escapes (keys,
  /// names, kinds), which it reads in one or two steps of eight bytes.
  @inline(__always)
  package mutating func scanShortString() throws(Failure) -> StringScan {
    let index = position + 1
    if bytes.count - index >= 16, let base = bytes.baseAddress {
      var length = Self.specialBytes(Self.word(base + index)).trailingZeroBitCount / 8
      if length == 8 { length += Self.specialBytes(Self.word(base + index + 8)).trailingZeroBitCount / 8 }
      if length < 16, base[index + length] == UInt8(ascii: "\""), length <= limits.maxStringBytes {
        position = index + length + 1
        return .ascii
      }
    }
    return try scanString()
  }

  /// The eight bytes at `address`, the first the lowest.
  @inline(__always)
  private static func word(_ address: UnsafePointer<UInt8>) -> UInt64 {
    UInt64(littleEndian: UnsafeRawPointer(address).loadUnaligned(as: UInt64.self))
  }

  /// Validates the string that opens at `position` up to its closing quote (past it, `.ascii` or
  /// `.unicode`) or up to its first escape (at the backslash, `.escaped`).
  package mutating func scanString() throws(Failure) -> StringScan {
    let start = position
    let limit = rawStringLimit
    let end = bytes.count
    var unicode = false
    // A local index, stored back before returning or throwing: the loop runs for every string.
    var index = start + 1
    while true {
      // The bytes before `index` are valid, so the string is at least this long.
      if index - start - 1 > limit {
        position = start
        throw failure(.stringTooLong(limit: limits.maxStringBytes))
      }
      // Eight bytes at a time up to the first that needs a look: a quote, a backslash, a
      // control character or a byte beyond ASCII.
      if end - index >= 8, let base = bytes.baseAddress {
        let special = Self.specialBytes(Self.word(base + index))
        if special == 0 {
          index += 8
          continue
        }
        // The byte there needs a look: the loop goes on below with it.
        index += special.trailingZeroBitCount / 8
        if index - start - 1 > limit {
          position = start
          throw failure(.stringTooLong(limit: limits.maxStringBytes))
        }
      }
      guard index < end else {
        position = index
        throw failure(.unexpectedEnd)
      }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        if index - start - 1 > limits.maxStringBytes {
          position = start
          throw failure(.stringTooLong(limit: limits.maxStringBytes))
        }
        position = index + 1
        return unicode ? .unicode : .ascii
      }
      if byte == UInt8(ascii: "\\") {
        position = index
        return .escaped
      }
      if byte < 0x20 {
        position = index
        throw failure(.unexpectedByte(byte))
      } else if byte < 0x80 {
        index += 1
      } else {
        unicode = true
        position = index
        try skipUTF8Scalar()
        index = position
      }
    }
  }

  /// The high bit of each byte of `word` (eight bytes, the first the lowest) that is a quote, a
  /// backslash, below 0x20 or from 0x80 on; a byte above the first such byte may be marked too.
  // Each test is the classic one for a zero byte, `(x - 0x01…) & ~x & 0x80…`, whose lowest
  // mark is exact: a borrow only runs upwards from a byte that is marked itself.
  @inline(__always)
  private static func specialBytes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
    let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
    let quote = (quotes &- ones) & ~quotes
    let backslash = (backslashes &- ones) & ~backslashes
    // Below 0x20 or from 0x80 on: `(x - 0x20…) & ~x | x`, which is `(x - 0x20…) | x`.
    let outside = (word &- ones &* 0x20) | word
    return (quote | backslash | outside) & (ones &* 0x80)
  }

  /// The string that opens at `start`, read up to `position` already (valid, without escapes),
  /// then on through its escapes.
  package mutating func parseEscapedString(from start: Int) throws(Failure) -> String {
    var output: [UInt8] = []
    var runStart = start + 1
    while true {
      guard position < bytes.count else { throw failure(.unexpectedEnd) }
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
        position += 1
        break
      }
      if byte == UInt8(ascii: "\\") {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
        try parseEscape(into: &output)
        runStart = position
      } else if byte < 0x20 {
        throw failure(.unexpectedByte(byte))
      } else if byte < 0x80 {
        position += 1
      } else {
        try skipUTF8Scalar()
      }
      // The text read, escapes included, is at most six times the bytes it decodes to (`\u0041`
      // is one byte): past that the string is too long whatever it holds, so reading stops.
      if position - start - 1 > rawStringLimit {
        position = start
        throw failure(.stringTooLong(limit: limits.maxStringBytes))
      }
    }
    if output.count > limits.maxStringBytes {
      position = start
      throw failure(.stringTooLong(limit: limits.maxStringBytes))
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Validates one multi-byte UTF-8 scalar at `position` and moves past it.
  private mutating func skipUTF8Scalar() throws(Failure) {
    let lead = bytes[position]
    let length: Int
    var minimum: UInt32
    var scalar: UInt32
    switch lead {
    case 0xC2...0xDF: length = 2; scalar = UInt32(lead & 0x1F); minimum = 0x80
    case 0xE0...0xEF: length = 3; scalar = UInt32(lead & 0x0F); minimum = 0x800
    case 0xF0...0xF4: length = 4; scalar = UInt32(lead & 0x07); minimum = 0x10000
    default: throw failure(.invalidUTF8)
    }
    guard position + length <= bytes.count else {
      // A scalar cut by the end of input is a truncation, not an encoding error.
      for offset in 1..<(bytes.count - position) where bytes[position + offset] & 0xC0 != 0x80 {
        throw failure(.invalidUTF8)
      }
      position = bytes.count
      throw failure(.unexpectedEnd)
    }
    for offset in 1..<length {
      let byte = bytes[position + offset]
      guard byte & 0xC0 == 0x80 else { throw failure(.invalidUTF8) }
      scalar = scalar << 6 | UInt32(byte & 0x3F)
    }
    guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
      throw failure(.invalidUTF8)
    }
    position += length
  }

  private mutating func parseEscape(into output: inout [UInt8]) throws(Failure) {
    position += 1
    guard position < bytes.count else { throw failure(.unexpectedEnd) }
    let byte = bytes[position]
    position += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(byte)
    case UInt8(ascii: "b"): output.append(0x08)
    case UInt8(ascii: "f"): output.append(0x0C)
    case UInt8(ascii: "n"): output.append(0x0A)
    case UInt8(ascii: "r"): output.append(0x0D)
    case UInt8(ascii: "t"): output.append(0x09)
    case UInt8(ascii: "u"):
      var scalar = try parseHex4()
      if (0xD800...0xDBFF).contains(scalar) {
        // A high surrogate must be followed by `\u` and a low one; the input ending first is
        // truncated, anything else there is a lone surrogate.
        guard position < bytes.count else { throw failure(.unexpectedEnd) }
        guard bytes[position] == UInt8(ascii: "\\") else { throw failure(.invalidEscape) }
        guard position + 1 < bytes.count else {
          position = bytes.count
          throw failure(.unexpectedEnd)
        }
        guard bytes[position + 1] == UInt8(ascii: "u") else { throw failure(.invalidEscape) }
        position += 2
        let low = try parseHex4()
        guard (0xDC00...0xDFFF).contains(low) else { throw failure(.invalidEscape) }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      } else if (0xDC00...0xDFFF).contains(scalar) {
        throw failure(.invalidEscape)
      }
      // Not a surrogate and at most 0x10FFFF by now: the `else` is never taken, yet it costs
      // nothing and keeps the parser free of traps.
      guard let unicode = Unicode.Scalar(scalar), let encoded = UTF8.encode(unicode) else {
        throw failure(.invalidEscape)
      }
      output.append(contentsOf: encoded)
    default:
      position -= 1
      throw failure(.invalidEscape)
    }
  }

  private mutating func parseHex4() throws(Failure) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard position < bytes.count else { throw failure(.unexpectedEnd) }
      let byte = bytes[position]
      let digit: UInt8
      switch byte {
      case 0x30...0x39: digit = byte - 0x30
      case 0x41...0x46: digit = byte - 0x41 + 10
      case 0x61...0x66: digit = byte - 0x61 + 10
      default: throw failure(.invalidEscape)
      }
      value = value << 4 | UInt32(digit)
      position += 1
    }
    return value
  }
}
