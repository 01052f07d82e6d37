import ChronicleInspection
import Foundation
import Testing

@testable import ChronicleJSON

private let limits = JSONParser.Limits(maxDepth: 128, maxStringBytes: 1 << 20, maxNumberLength: 64)

private func parse(_ text: String, limits: JSONParser.Limits = limits) throws(JSONParser.Failure) -> JSONValue
{
  try JSONParser.parse(Array(text.utf8), limits: limits)
}

private func parse(bytes: [UInt8]) throws(JSONParser.Failure) -> JSONValue {
  try JSONParser.parse(bytes, limits: limits)
}

/// The failure `text` gives, or `nil` when it parses.
private func failure(_ text: String, limits: JSONParser.Limits = limits) -> JSONParser.Failure? {
  failure(bytes: Array(text.utf8), limits: limits)
}

private func failure(bytes: [UInt8], limits: JSONParser.Limits = limits) -> JSONParser.Failure? {
  do {
    _ = try JSONParser.parse(bytes, limits: limits)
    return nil
  } catch {
    return error
  }
}

/// The JSON reader and writer every format shares, tested directly.
@Suite struct JSONReaderWriterTests {
  @Test(arguments: [
    "0", "-0", "12", "-12", "1.5", "1.5e-7", "1E+2", "1e2", "-0.0", "123456789012345678901234567890",
  ])
  func numbersKeepTheirText(_ text: String) throws {
    #expect(try parse(text) == .number(text))
    #expect(try parse("[\(text)]") == .array([.number(text)]))
  }

  @Test(arguments: ["01", "1.", ".5", "-", "1e", "1e+", "+1", "-a", "0x10", "1.e3"])
  func malformedNumbersAreRefused(_ text: String) {
    #expect(failure(text) != nil)
  }

  @Test func aNumberLongerThanTheLimitIsRefusedWithItsLimit() throws {
    let long = String(repeating: "9", count: 65)
    #expect(failure(long)?.problem == .numberTooLong(limit: 64))
    #expect(try parse(String(repeating: "9", count: 64)) == .number(String(repeating: "9", count: 64)))
  }

  @Test func escapesAreDecoded() throws {
    #expect(try parse(#""\"\\\/\b\f\n\r\t\u00e9\u0041""#) == .string("\"\\/\u{8}\u{c}\n\r\té" + "A"))
  }

  @Test(arguments: [#""\x""#, #""\u00g0""#, #""\U0041""#, #""\'""#])
  func unknownEscapesAreRefused(_ text: String) {
    #expect(failure(text)?.problem == .invalidEscape)
  }

  @Test func surrogatePairsDecodeToOneScalar() throws {
    #expect(try parse(#""\ud83c\udf89""#) == .string("🎉"))
    #expect(try parse(#""\uD83D\uDE00x""#) == .string("😀x"))
  }

  @Test func loneSurrogatesAreRefused() {
    #expect(failure(#""\ud83c""#)?.problem == .invalidEscape)
    #expect(failure(#""\ud83cx""#)?.problem == .invalidEscape)
    #expect(failure(#""\udf89""#)?.problem == .invalidEscape)
    #expect(failure(#""\ud83c\u0041""#)?.problem == .invalidEscape)
    #expect(failure(#""\ud83c\"#)?.problem == .unexpectedEnd)
  }

  @Test func invalidUTF8IsRefused() throws {
    let quote = UInt8(ascii: "\"")
    for bytes: [UInt8] in [
      [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xFF], [0x80],
    ] {
      #expect(failure(bytes: [quote] + bytes + [quote])?.problem == .invalidUTF8)
    }
    #expect(try parse(bytes: [quote, 0xE2, 0x82, 0xAC, quote]) == .string("€"))
  }

  @Test func controlCharactersInStringsAreRefused() {
    #expect(failure("\"a\u{1}b\"") != nil)
    #expect(failure("\"a\nb\"") != nil)
  }

  @Test func duplicateKeysAreRefusedWithTheKey() {
    #expect(failure(#"{"a":1,"b":2,"a":3}"#)?.problem == .duplicateKey("a"))
  }

  /// "é" as one code point and as e with a combining accent: one key to `String`'s `==`, two
  /// keys to JSON, which compares their bytes. In small objects (scanned) and large ones (hashed).
  @Test func keysCanonicallyEqualButDifferentInBytesAreDifferentKeys() throws {
    for filler in [0, 20] {
      let others = (0..<filler).map { "\"k\($0)\":0," }.joined()
      let value = try parse("{\(others)\"\u{E9}\":1,\"e\u{301}\":2}")
      guard case .object(let members) = value else {
        Issue.record("\(value)")
        continue
      }
      #expect(members.suffix(2).map { Array($0.key.utf8) } == [[0xC3, 0xA9], [0x65, 0xCC, 0x81]])
      #expect(failure("{\(others)\"\u{E9}\":1,\"\u{E9}\":2}")?.problem == .duplicateKey("\u{E9}"))
    }
  }

  @Test func trailingDataIsRefused() throws {
    #expect(failure("[1] 2")?.problem == .trailingData)
    #expect(try parse(" \n[1]\t ") == .array([.number("1")]))
  }

  @Test func truncatedInputEndsUnexpectedly() {
    for text in ["", "[", "[1,", #"{"a""#, #"{"a":"#, #""abc"#, "tru", "nul"] {
      #expect(failure(text)?.problem == .unexpectedEnd, "\(text)")
    }
  }

  @Test func aFailureSaysWhereByOffsetAndPath() throws {
    let found = try #require(failure(#"{"a":[1,{"b":tru}]}"#))
    #expect(found.problem == .unexpectedByte(UInt8(ascii: "}")))
    #expect(found.offset == 16)
    #expect(found.path.description == "a[1].b")
  }

  @Test func nestingDeeperThanTheLimitIsRefused() throws {
    let allowed = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
    #expect(failure(allowed) == nil)
    let deeper = String(repeating: "[", count: 129) + String(repeating: "]", count: 129)
    #expect(failure(deeper)?.problem == .tooDeep(limit: 128))
  }

  @Test func noLimitGoesPastTheSupportedDepth() {
    let unlimited = JSONParser.Limits(maxDepth: .max, maxStringBytes: .max, maxNumberLength: .max)
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(failure(deep, limits: unlimited)?.problem == .tooDeep(limit: JSONParser.maxSupportedDepth))
  }

  @Test func tooDeepValuesAreCutWithAMarkerWhenAsked() throws {
    var cutting = limits
    cutting.maxDepth = 2
    cutting.cutsTooDeep = true
    #expect(
      try parse(#"{"a":[[1,[2]],3],"b":4}"#, limits: cutting)
        == .object([
          JSONMember("a", .array([.string(JSONParser.cutMarker), .number("3")])),
          JSONMember("b", .number("4")),
        ]))
  }

  @Test func aStringLongerThanTheLimitIsRefused() {
    var small = limits
    small.maxStringBytes = 10
    #expect(failure(#""0123456789""#, limits: small) == nil)
    #expect(failure(#""0123456789a""#, limits: small)?.problem == .stringTooLong(limit: 10))
    // The limit is on the bytes the string holds, not on its escaped text.
    let escaped = "\"" + String(repeating: #"\u0041"#, count: 10) + "\""
    #expect(failure(escaped, limits: small) == nil)
    #expect(
      failure("\"" + String(repeating: #"\u0041"#, count: 11) + "\"", limits: small)?.problem
        == .stringTooLong(limit: 10))
  }

  @Test func hugeInputsParse() throws {
    let count = 1_000_000
    let array = "[" + Array(repeating: "1", count: count).joined(separator: ",") + "]"
    #expect(try parse(array).arrayValue?.count == count)
    let large = String(repeating: "é", count: 400_000)
    #expect(try parse("\"\(large)\"") == .string(large))
  }

  /// The writer's output parses back to the same value, and Foundation reads it the same way.
  @Test func writtenStringsRoundTrip() throws {
    let texts = [
      "plain", "quote \" backslash \\ slash /", "controls \u{0}\u{1}\u{8}\u{9}\u{a}\u{c}\u{d}\u{1f}",
      "line separator \u{2028} paragraph \u{2029}", "emoji 🎉 and é", "",
    ]
    for text in texts {
      let bytes = JSONWriter.serialize(.string(text))
      #expect(try parse(bytes: bytes) == .string(text))
      #expect(
        try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) as? String == text)
    }
    #expect(String(decoding: JSONWriter.serialize(.string("\u{1}")), as: UTF8.self) == #""\u0001""#)
  }

  @Test func writtenDocumentsRoundTrip() throws {
    let value = JSONValue.object([
      JSONMember("n", .number("-1.5e-7")), JSONMember("list", .array([.null, .bool(true), .bool(false)])),
      JSONMember("nested", .object([JSONMember("é", .string("x"))])), JSONMember("empty", .object([])),
    ])
    let bytes = JSONWriter.serialize(value)
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == #"{"n":-1.5e-7,"list":[null,true,false],"nested":{"é":"x"},"empty":{}}"#)
    #expect(try parse(bytes: bytes) == value)
  }
}

extension JSONValue {
  /// The elements of an array value, `nil` for other values.
  fileprivate var arrayValue: [JSONValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }
}
