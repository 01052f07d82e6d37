import ChronicleInspection
import Testing

@testable import ChronicleJSON

// The byte scanning under both JSON readers (the tree parser and the tape), read directly: strings
// and digits are scanned eight bytes at a time and whitespace only when there is any, so every
// length, every position of a byte that stops a scan, and every distance from the input's end
// is read here and compared with the exact tokens, value or failure.

private let wide = JSONParser.Limits(maxDepth: 64, maxStringBytes: 1 << 20, maxNumberLength: 1 << 20)

/// A tape token, comparable.
private struct Token: Equatable, CustomStringConvertible {
  var kind: JSONTape.Kind
  var count = 0
  var next: Int
  var start: Int
  var end: Int

  init(_ kind: JSONTape.Kind, count: Int = 0, next: Int, _ start: Int, _ end: Int) {
    self.kind = kind
    self.count = count
    self.next = next
    self.start = start
    self.end = end
  }

  init(_ token: JSONTape.Token) {
    self.init(token.kind, count: token.count, next: token.next, token.start, token.end)
  }

  var description: String { "\(kind)(count: \(count), next: \(next), \(start)..<\(end))" }
}

/// What a reader made of a document: the tape's tokens, the tree parser's value, or the failure.
private enum Read: Equatable {
  case tokens([Token])
  case value(JSONValue)
  case failed(JSONParser.Problem, at: Int)
}

/// Runs `body` on `document` as the whole input, with `after` repeated in memory past its end:
/// a scanner that read past its input would take those bytes for more of the value.
private func withInput<Result>(
  _ document: [UInt8], after: UInt8, _ body: (UnsafeBufferPointer<UInt8>) -> Result
) -> Result {
  let memory = document + [UInt8](repeating: after, count: 32)
  return memory.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[..<document.count])) }
}

/// The tokens the tape reads of `document` (the whole input), or its failure.
private func tape(
  _ document: [UInt8], limits: JSONParser.Limits = wide, after: UInt8 = UInt8(ascii: "\"")
)
  -> Read
{
  withInput(document, after: after) { buffer in
    var parser = JSONParser(bytes: buffer, limits: limits)
    let tape = JSONTape()
    do throws(JSONParser.Failure) {
      parser.skipWhitespace()
      try tape.read(&parser)
      try parser.finish()
      // The last token is the `null` read for absent members, not part of the value.
      return .tokens(tape.view.tokens.dropLast().map(Token.init))
    } catch {
      return .failed(error.problem, at: error.offset)
    }
  }
}

/// The value the tree parser reads of `document` (the whole input), or its failure.
private func tree(
  _ document: [UInt8], limits: JSONParser.Limits = wide, after: UInt8 = UInt8(ascii: "\"")
)
  -> Read
{
  withInput(document, after: after) { buffer in
    do throws(JSONParser.Failure) {
      return .value(try JSONParser.parse(buffer, limits: limits))
    } catch {
      return .failed(error.problem, at: error.offset)
    }
  }
}

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// `length` bytes of plain string text: every ASCII byte a string holds as it is, in turn.
private func plainText(_ length: Int) -> [UInt8] {
  let plain = (UInt8(0x20)...0x7F).filter { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
  return (0..<length).map { plain[($0 * 7) % plain.count] }
}

private func quoted(_ content: [UInt8]) -> [UInt8] { [UInt8(ascii: "\"")] + content + [UInt8(ascii: "\"")] }

/// `{"<key>":0}`.
private func object(key: [UInt8]) -> [UInt8] { bytes("{") + quoted(key) + bytes(":0}") }

private func text(_ content: [UInt8]) -> String { String(decoding: content, as: UTF8.self) }

/// The lengths every scan is read at: up to 40, past five steps of eight bytes.
private let lengths = 0...40

/// Whitespace after a value: none, and up to past the 16 bytes a short string is read in.
private let trailing = [0, 1, 7, 8, 9, 15, 16, 17, 24]

@Suite struct JSONScanningTests {
  // MARK: Strings

  @Test func aStringOfPlainTextIsReadWhateverItsLengthAndWhatFollowsIt() {
    for length in lengths {
      for spaces in trailing {
        let content = plainText(length)
        let document = quoted(content) + [UInt8](repeating: 0x20, count: spaces)
        #expect(tape(document) == .tokens([Token(.string, next: 1, 1, length + 1)]), "\(length) \(spaces)")
        #expect(tree(document) == .value(.string(text(content))), "\(length) \(spaces)")
      }
    }
  }

  @Test func aKeyOfPlainTextIsReadWhateverItsLength() {
    for length in lengths {
      let key = plainText(length)
      #expect(
        tape(object(key: key))
          == .tokens([
            Token(.object, count: 1, next: 3, 0, length + 6), Token(.string, next: 2, 2, length + 2),
            Token(.number, next: 3, length + 4, length + 5),
          ]), "\(length)")
      #expect(tree(object(key: key)) == .value(.object([JSONMember(text(key), .number("0"))])), "\(length)")
    }
  }

  @Test func aStringEndsAtItsFirstQuote() {
    for length in 1...40 {
      for quote in 0..<length {
        var content = plainText(length)
        content[quote] = UInt8(ascii: "\"")
        let document = quoted(content)
        #expect(tape(document) == .failed(.trailingData, at: quote + 2), "\(length) \(quote)")
        #expect(tree(document) == .failed(.trailingData, at: quote + 2), "\(length) \(quote)")
      }
    }
  }

  @Test func anEscapeAnywhereInAStringIsDecodedAndKeptAsAnEscapedStringOnTheTape() {
    for length in lengths {
      for escape in 0...length {
        let content = plainText(length)
        let escaped = Array(content[..<escape]) + bytes("\\n") + content[escape...]
        let document = quoted(escaped)
        #expect(
          tape(document) == .tokens([Token(.escapedString, next: 1, 0, length + 4)]), "\(length) \(escape)")
        #expect(
          tree(document)
            == .value(.string(text(Array(content[..<escape])) + "\n" + text(Array(content[escape...])))),
          "\(length) \(escape)")
      }
    }
  }

  @Test func aKeyWithAnEscapeAnywhereIsReadAsAnEscapedKey() {
    for length in lengths {
      for escape in 0...length {
        let content = plainText(length)
        let key = Array(content[..<escape]) + bytes("\\n") + content[escape...]
        #expect(
          tape(object(key: key))
            == .tokens([
              Token(.object, count: 1, next: 3, 0, key.count + 6),
              Token(.escapedString, next: 2, 1, key.count + 3),
              Token(.number, next: 3, key.count + 4, key.count + 5),
            ]), "\(length) \(escape)")
        let decoded = text(Array(content[..<escape])) + "\n" + text(Array(content[escape...]))
        #expect(tree(object(key: key)) == .value(.object([JSONMember(decoded, .number("0"))])))
      }
    }
  }

  @Test func aControlCharacterAnywhereInAStringIsRefusedWhereItSits() {
    for length in 1...40 {
      for control in 0..<length {
        for byte: UInt8 in [0x00, 0x0A, 0x1F] {
          var content = plainText(length)
          content[control] = byte
          let failure = Read.failed(.unexpectedByte(byte), at: control + 1)
          #expect(tape(quoted(content)) == failure, "\(length) \(control) \(byte)")
          #expect(tree(quoted(content)) == failure, "\(length) \(control) \(byte)")
          #expect(
            tape(object(key: content)) == .failed(.unexpectedByte(byte), at: control + 2),
            "\(length) \(control) \(byte)")
        }
      }
    }
  }

  @Test func aCharacterBeyondASCIIAnywhereInAStringIsReadAsItIs() {
    for length in lengths {
      for place in 0...length {
        for character in ["é", "€", "😀"] {
          let content = plainText(length)
          let unicode = Array(content[..<place]) + bytes(character) + content[place...]
          #expect(
            tape(quoted(unicode)) == .tokens([Token(.string, next: 1, 1, unicode.count + 1)]),
            "\(length) \(place) \(character)")
          #expect(tree(quoted(unicode)) == .value(.string(text(unicode))), "\(length) \(place) \(character)")
        }
      }
    }
  }

  @Test func aKeyWithACharacterBeyondASCIIIsReadAsItIs() {
    for length in lengths {
      for place in 0...length {
        let content = plainText(length)
        let key = Array(content[..<place]) + bytes("é") + content[place...]
        #expect(
          tape(object(key: key))
            == .tokens([
              Token(.object, count: 1, next: 3, 0, key.count + 6), Token(.string, next: 2, 2, key.count + 2),
              Token(.number, next: 3, key.count + 4, key.count + 5),
            ]), "\(length) \(place)")
        #expect(tree(object(key: key)) == .value(.object([JSONMember(text(key), .number("0"))])))
      }
    }
  }

  @Test func invalidUTF8AnywhereInAStringIsRefusedAtItsFirstByte() {
    for length in 1...40 {
      for place in 0..<length {
        for invalid: [UInt8] in [[0xFF], [0x80], [0xC3, 0x41], [0xED, 0xA0, 0x80]] {
          var content = plainText(length)
          content.replaceSubrange(place..<place + 1, with: invalid)
          let failure = Read.failed(.invalidUTF8, at: place + 1)
          #expect(tape(quoted(content)) == failure, "\(length) \(place) \(invalid)")
          #expect(tree(quoted(content)) == failure, "\(length) \(place) \(invalid)")
        }
      }
    }
  }

  @Test func aStringCutByTheInputsEndEndsUnexpectedlyThere() {
    for length in lengths {
      for ending: [UInt8] in [[], [UInt8(ascii: "\\")], [0xC3], [0xF0, 0x9F, 0x98]] {
        let document = [UInt8(ascii: "\"")] + plainText(length) + ending
        let failure = Read.failed(.unexpectedEnd, at: document.count)
        #expect(tape(document) == failure, "\(length) \(ending)")
        #expect(tree(document) == failure, "\(length) \(ending)")
      }
    }
  }

  @Test func aStringAtTheLengthLimitIsReadAndOneByteLongerIsRefused() {
    for limit in 0...20 {
      let limits = JSONParser.Limits(maxDepth: 8, maxStringBytes: limit, maxNumberLength: 8)
      for spaces in [0, 16] {
        let padding = [UInt8](repeating: 0x20, count: spaces)
        let fits = plainText(limit)
        let over = plainText(limit + 1)
        #expect(
          tape(quoted(fits) + padding, limits: limits) == .tokens([Token(.string, next: 1, 1, limit + 1)]))
        #expect(tree(quoted(fits) + padding, limits: limits) == .value(.string(text(fits))))
        let tooLong = Read.failed(.stringTooLong(limit: limit), at: 0)
        #expect(tape(quoted(over) + padding, limits: limits) == tooLong, "\(limit) \(spaces)")
        #expect(tree(quoted(over) + padding, limits: limits) == tooLong, "\(limit) \(spaces)")
        #expect(
          tape(object(key: over) + padding, limits: limits) == .failed(.stringTooLong(limit: limit), at: 1))
      }
    }
  }

  @Test func anUnendedStringIsTooLongOnceItHoldsMoreThanSixBytesPerByteOfTheLimit() {
    // Six bytes of text (`\u0041`) decode to one: an unended string past six times the limit is
    // too long whatever follows.
    for limit in 0...12 {
      let limits = JSONParser.Limits(maxDepth: 8, maxStringBytes: limit, maxNumberLength: 8)
      let within = [UInt8(ascii: "\"")] + plainText(6 * limit)
      let beyond = [UInt8(ascii: "\"")] + plainText(6 * limit + 1)
      #expect(tape(within, limits: limits) == .failed(.unexpectedEnd, at: within.count), "\(limit)")
      #expect(tree(within, limits: limits) == .failed(.unexpectedEnd, at: within.count), "\(limit)")
      #expect(tape(beyond, limits: limits) == .failed(.stringTooLong(limit: limit), at: 0), "\(limit)")
      #expect(tree(beyond, limits: limits) == .failed(.stringTooLong(limit: limit), at: 0), "\(limit)")
    }
  }

  // MARK: Numbers

  /// `count` digits of an integer: a leading `1` to `9`, then every digit in turn.
  private func digits(_ count: Int) -> [UInt8] {
    (0..<count).map { $0 == 0 ? UInt8(ascii: "1") + UInt8(count % 9) : UInt8(ascii: "0") + UInt8($0 % 10) }
  }

  @Test func aNumberIsReadToItsLastDigitWhateverItsLengthAndTheInputsEnd() {
    for count in 1...40 {
      for spaces in [0, 1, 8, 16] {
        for number in [
          digits(count), bytes("-") + digits(count), bytes("0.") + digits(count),
          bytes("-7e") + digits(count),
          bytes("2.5E+") + digits(count), digits(count) + bytes(".5e-") + digits(count),
        ] {
          let document = number + [UInt8](repeating: 0x20, count: spaces)
          let expected = Read.tokens([Token(.number, next: 1, 0, number.count)])
          // Digits in memory past the end, which a scan beyond it would count.
          #expect(tape(document, after: UInt8(ascii: "7")) == expected, "\(text(number)) \(spaces)")
          #expect(
            tree(document, after: UInt8(ascii: "7")) == .value(.number(text(number))),
            "\(text(number)) \(spaces)")
        }
      }
    }
  }

  @Test func aNumberEndsAtTheFirstByteThatIsNotADigit() {
    // The bytes either side of the digits, and those whose sum with 6 carries into the next byte.
    for count in 1...40 {
      for stop: UInt8 in [0x2F, 0x3A, 0x40, 0x00, 0xFA, 0xFF, UInt8(ascii: "]"), UInt8(ascii: ",")] {
        let document = digits(count) + [stop] + digits(9)
        #expect(tape(document) == .failed(.trailingData, at: count), "\(count) \(stop)")
        #expect(tree(document) == .failed(.trailingData, at: count), "\(count) \(stop)")
        let element = bytes("[") + digits(count) + [stop] + bytes("]")
        let expected: Read =
          stop == UInt8(ascii: "]")
          ? .failed(.trailingData, at: count + 2)
          : stop == UInt8(ascii: ",")
            ? .failed(.unexpectedByte(UInt8(ascii: "]")), at: count + 2)
            : .failed(.unexpectedByte(stop), at: count + 1)
        #expect(tape(element) == expected, "\(count) \(stop)")
        #expect(tree(element) == expected, "\(count) \(stop)")
      }
    }
  }

  @Test func aNumberThatStartsWithZeroEndsAfterIt() {
    for count in 1...12 {
      for spaces in [0, 8] {
        let document = bytes("0") + digits(count) + [UInt8](repeating: 0x20, count: spaces)
        #expect(tape(document) == .failed(.trailingData, at: 1), "\(count) \(spaces)")
        #expect(tree(document) == .failed(.trailingData, at: 1), "\(count) \(spaces)")
        let element = bytes("[0") + digits(count) + bytes("]") + [UInt8](repeating: 0x20, count: spaces)
        #expect(tape(element) == .failed(.unexpectedByte(digits(count)[0]), at: 2), "\(count) \(spaces)")
        #expect(tree(element) == .failed(.unexpectedByte(digits(count)[0]), at: 2), "\(count) \(spaces)")
      }
    }
  }

  @Test(arguments: ["-", "1.", "1e", "1E+", "-2.5e-", "-0.", "12.0e"])
  func aNumberCutByTheInputsEndEndsUnexpectedlyThere(_ number: String) {
    let failure = Read.failed(.unexpectedEnd, at: number.utf8.count)
    #expect(tape(bytes(number), after: UInt8(ascii: "7")) == failure)
    #expect(tree(bytes(number), after: UInt8(ascii: "7")) == failure)
  }

  @Test(arguments: [
    ("-x", 1), ("1.x", 2), ("1.e5", 2), ("12345678.x", 9), ("1ex", 2), ("1e+x", 3), ("-.5", 1),
  ])
  func aMalformedNumberIsRefusedAtTheByteThatBreaksIt(_ number: String, _ offset: Int) {
    #expect(tape(bytes(number)) == .failed(.invalidNumber, at: offset))
    #expect(tree(bytes(number)) == .failed(.invalidNumber, at: offset))
  }

  @Test func aNumberAtTheLengthLimitIsReadAndOneByteLongerIsRefusedAtItsStart() {
    for limit in 1...24 {
      let limits = JSONParser.Limits(maxDepth: 8, maxStringBytes: 8, maxNumberLength: limit)
      let fits = digits(limit)
      let padded = fits + bytes("        ")
      #expect(tape(padded, limits: limits) == .tokens([Token(.number, next: 1, 0, limit)]), "\(limit)")
      #expect(tree(padded, limits: limits) == .value(.number(text(fits))), "\(limit)")
      let over = bytes("[") + digits(limit + 1) + bytes("]        ")
      #expect(tape(over, limits: limits) == .failed(.numberTooLong(limit: limit), at: 1), "\(limit)")
      #expect(tree(over, limits: limits) == .failed(.numberTooLong(limit: limit), at: 1), "\(limit)")
    }
  }

  // MARK: Literals

  @Test(arguments: [
    ("true", JSONTape.Kind.true, JSONValue.bool(true)), ("false", .false, .bool(false)),
    ("null", .null, .null),
  ])
  func aLiteralIsReadWhateverFollowsIt(_ literal: String, _ kind: JSONTape.Kind, _ value: JSONValue) {
    for spaces in [0, 1, 3, 4, 8, 16] {
      let document = bytes(literal) + [UInt8](repeating: 0x20, count: spaces)
      #expect(tape(document) == .tokens([Token(kind, next: 1, 0, literal.utf8.count)]), "\(spaces)")
      #expect(tree(document) == .value(value), "\(spaces)")
    }
  }

  @Test(arguments: ["true", "false", "null"])
  func aLiteralWithAWrongByteIsRefusedAtThatByte(_ literal: String) {
    for wrong in 1..<literal.utf8.count {
      for spaces in [0, 16] {
        var document = bytes(literal) + [UInt8](repeating: 0x20, count: spaces)
        document[wrong] = UInt8(ascii: "x")
        let failure = Read.failed(.unexpectedByte(UInt8(ascii: "x")), at: wrong)
        #expect(tape(document) == failure, "\(wrong) \(spaces)")
        #expect(tree(document) == failure, "\(wrong) \(spaces)")
      }
    }
  }

  @Test(arguments: ["true", "false", "null"])
  func aLiteralCutByTheInputsEndEndsUnexpectedlyThere(_ literal: String) {
    for length in 1..<literal.utf8.count {
      let document = Array(bytes(literal)[..<length])
      // The rest of the literal in memory past the end, which a read beyond it would match.
      let rest = bytes(literal)[length]
      #expect(tape(document, after: rest) == .failed(.unexpectedEnd, at: length), "\(length)")
      #expect(tree(document, after: rest) == .failed(.unexpectedEnd, at: length), "\(length)")
    }
  }

  // MARK: Whitespace

  /// `count` bytes of whitespace: space, tab, line feed and carriage return in turn.
  private func whitespace(_ count: Int) -> [UInt8] { (0..<count).map { [0x20, 0x09, 0x0A, 0x0D][$0 % 4] } }

  @Test func whitespaceRunsOfAnyLengthAreSkippedAroundEveryToken() {
    for run in 0...20 {
      let space = whitespace(run)
      var document: [UInt8] = []
      var offsets: [Int] = []
      for piece in ["{", "\"a\"", ":", "[", "1", ",", "true", "]", "}"] {
        document += space
        offsets.append(document.count)
        document += bytes(piece)
      }
      document += space
      let at = offsets
      #expect(
        tape(document)
          == .tokens([
            Token(.object, count: 1, next: 5, at[0], at[8] + 1),
            Token(.string, next: 2, at[1] + 1, at[1] + 2),
            Token(.array, count: 2, next: 5, at[3], at[7] + 1), Token(.number, next: 4, at[4], at[4] + 1),
            Token(.true, next: 5, at[6], at[6] + 4),
          ]), "\(run)")
      #expect(tree(document) == .value(.object([JSONMember("a", .array([.number("1"), .bool(true)]))])))
    }
  }

  @Test func aControlByteAfterWhitespaceIsRefusedWhereItSits() {
    for run in 0...20 {
      for byte: UInt8 in [0x00, 0x0B, 0x0C, 0x1F] {
        let before = whitespace(run) + [byte] + bytes("1")
        #expect(tape(before) == .failed(.unexpectedByte(byte), at: run), "\(run) \(byte)")
        #expect(tree(before) == .failed(.unexpectedByte(byte), at: run), "\(run) \(byte)")
        let between = bytes("[1") + whitespace(run) + [byte] + bytes("]")
        #expect(tape(between) == .failed(.unexpectedByte(byte), at: run + 2), "\(run) \(byte)")
        #expect(tree(between) == .failed(.unexpectedByte(byte), at: run + 2), "\(run) \(byte)")
      }
    }
  }

  @Test func whitespaceAloneEndsUnexpectedlyAtTheInputsEnd() {
    for run in 0...20 {
      #expect(tape(whitespace(run)) == .failed(.unexpectedEnd, at: run), "\(run)")
      #expect(tree(whitespace(run)) == .failed(.unexpectedEnd, at: run), "\(run)")
    }
  }

  // MARK: Keys

  @Test func aRepeatedKeyIsRefusedAtItsOffsetWhateverItsPlaceAndTheObjectsSize() {
    for size in 1...24 {
      let members = (0..<size).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
      for repeated in 0..<size {
        let document = bytes("{\(members),\"k\(repeated)\":0}")
        let failure = Read.failed(.duplicateKey("k\(repeated)"), at: members.utf8.count + 2)
        #expect(tape(document) == failure, "\(size) \(repeated)")
        #expect(tree(document) == failure, "\(size) \(repeated)")
      }
    }
  }

  @Test func keysAlikeInLengthAndInTheirFirstMiddleAndLastBytesAreDifferentKeys() {
    // Keys of one length with the same first, middle and last bytes, different elsewhere: any
    // shortcut that looks at fewer bytes takes them for one another.
    for size in 1...24 {
      let keys = (0..<size).map {
        "a\(Character(UnicodeScalar(97 + $0 % 24)!))c\(Character(UnicodeScalar(97 + $0 / 24)!))e"
      }
      let members = keys.map { "\"\($0)\":0" }.joined(separator: ",")
      let read = tape(bytes("{\(members)}"))
      guard case .tokens(let tokens) = read else {
        Issue.record("\(size): \(read)")
        continue
      }
      #expect(tokens.count == 1 + 2 * size)
      #expect(tree(bytes("{\(members)}")) == .value(.object(keys.map { JSONMember($0, .number("0")) })))
      let repeated = bytes("{\(members),\"\(keys[size / 2])\":1}")
      #expect(tape(repeated) == .failed(.duplicateKey(keys[size / 2]), at: members.utf8.count + 2), "\(size)")
    }
  }
}
