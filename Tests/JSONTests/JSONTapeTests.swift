import ChronicleInspection
import Foundation
import Testing

@testable import ChronicleJSON

private let limits = JSONParser.Limits(maxDepth: 512, maxStringBytes: 1 << 20, maxNumberLength: 400)

/// Reads `text` as one document onto a tape and runs `body` on its tokens.
private func withTape<Result>(
  _ text: String, limits: JSONParser.Limits = limits, _ body: (JSONTapeView) throws -> Result
) throws -> Result {
  let bytes = Array(text.utf8)
  return try bytes.withUnsafeBufferPointer { buffer in
    var parser = JSONParser(bytes: buffer, limits: limits)
    parser.skipWhitespace()
    let tape = JSONTape()
    try tape.read(&parser)
    try parser.finish()
    return try body(tape.view)
  }
}

/// Whether the tape reader accepts `text` as a whole document.
private func tapeAccepts(_ text: String, limits: JSONParser.Limits = limits) -> Bool {
  (try? withTape(text, limits: limits) { _ in true }) == true
}

/// Whether the tree parser accepts `text`.
private func parserAccepts(_ text: String, limits: JSONParser.Limits = limits) -> Bool {
  (try? JSONParser.parse(Array(text.utf8), limits: limits)) != nil
}

/// `text` decoded by Foundation's `JSONDecoder`, whose values the tape decoder gives.
private func foundationDecode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
  try JSONDecoder().decode(T.self, from: Data(text.utf8))
}

private func tapeDecode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
  try withTape(text) { view in try JSONTapeDecoder().decode(T.self, from: view) }
}

/// A decoding error as text that both decoders must agree on: its case, coding path (as
/// `JSONDecoder` spells it) and message.
private func summary(_ error: any Error) -> String {
  func path(_ context: DecodingError.Context) -> String {
    context.codingPath.map { "\($0.stringValue)/\($0.intValue.map(String.init) ?? "-")" }.joined(
      separator: ".")
  }
  switch error as? DecodingError {
  case .typeMismatch(let type, let context)?:
    return "typeMismatch \(type) at \(path(context)): \(context.debugDescription)"
  case .valueNotFound(let type, let context)?:
    return "valueNotFound \(type) at \(path(context)): \(context.debugDescription)"
  case .keyNotFound(let key, let context)?:
    return "keyNotFound \(key.stringValue) at \(path(context)): \(context.debugDescription)"
  case .dataCorrupted(let context)?:
    return "dataCorrupted at \(path(context)): \(context.debugDescription)"
  default:
    return "other: \(error)"
  }
}

/// What decoding `text` as a `T` from a tape gives: the value's description, or the error's summary.
private func outcome<T: Decodable>(_ type: T.Type, _ text: String) -> String {
  do {
    return "decoded \(try tapeDecode(T.self, text))"
  } catch {
    return summary(error)
  }
}

private struct Scalars: Codable, Equatable {
  var int: Int
  var int8: Int8
  var int16: Int16
  var int32: Int32
  var int64: Int64
  var uint: UInt
  var uint8: UInt8
  var uint16: UInt16
  var uint32: UInt32
  var uint64: UInt64
  var float: Float
  var double: Double
  var bool: Bool
  var string: String
}

private struct Small: Codable, Equatable { var value: Int8 }

private struct Rich: Codable, Equatable {
  enum Shape: Codable, Equatable {
    case point
    case circle(radius: Double)
    case polygon([Shape], label: String?)
    case tagged(Int, String)
  }
  var shapes: [Shape]
  var lookup: [String: [Int?]]
  var byNumber: [Int: String]
  var nested: [[UInt8]]
  var missing: String?
  var present: Int?
  var date: Date
  var data: Data
  var url: URL
  var decimal: Decimal
  var extremes: [Int64]
  var fractions: [Double]
}

/// Reads itself with every container operation by hand, the super decoders included.
private struct Handmade: Decodable, Equatable {
  var keys: [String]
  var hasB: Bool
  var aIsNil: Bool
  var fromSuper: Int?
  var fromSuperKey: String?
  var list: [Int]
  var listNils: Int
  var listCount: Int?

  enum Keys: String, CodingKey { case a, b, c, list, `super`, inherited }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    keys = container.allKeys.map(\.stringValue).sorted()
    hasB = container.contains(.b)
    aIsNil = try container.decodeNil(forKey: .a)
    fromSuper = try container.superDecoder().singleValueContainer().decode(Int?.self)
    fromSuperKey = try container.superDecoder(forKey: .inherited).singleValueContainer().decode(String?.self)
    var unkeyed = try container.nestedUnkeyedContainer(forKey: .list)
    listCount = unkeyed.count
    list = []
    listNils = 0
    while !unkeyed.isAtEnd {
      if try unkeyed.decodeNil() {
        listNils += 1
      } else {
        var inner = try unkeyed.nestedUnkeyedContainer()
        list.append(try inner.decode(Int.self))
      }
    }
    let nested = try container.nestedContainer(keyedBy: Keys.self, forKey: .c)
    list.append(try nested.decode(Int.self, forKey: .a))
  }
}

/// Arrays nested `depth` deep.
private struct Nest: Decodable {
  var depth: Int
  init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    depth = container.isAtEnd ? 1 : try container.decode(Nest.self).depth + 1
  }
}

@Suite struct JSONTapeReaderTests {
  @Test func anObjectsTokensAreItsKeysAndValuesEachPointingPastItsValue() throws {
    try withTape(#" {"a": [1, "x"], "bb": {"c": null}, "d": true} "#) { view in
      #expect(
        view.tokens.map(\.kind) == [
          .object, .string, .array, .number, .string, .string, .object, .string, .null, .string, .true, .null,
        ])
      #expect(view[0].count == 3)
      #expect(view[0].next == 11)
      #expect(view[2].count == 2)
      #expect(view[2].next == 5)
      #expect(view.member(0, "bb") == 6)
      #expect(view.member(6, "c") == 8)
      #expect(view.member(0, "e") == nil)
      #expect(String(decoding: view.slice(2), as: UTF8.self) == #"[1, "x"]"#)
      #expect(view.string(4) == "x")
      #expect(view.absent == 11)
    }
  }

  @Test func stringsKeepTheirEscapesUntilRead() throws {
    try withTape(#"["a\"b\\c\/\b\f\n\r\t", "\u00e9\ud83d\ude00", "é😀", ""]"#) { view in
      #expect(view[1].kind == .escapedString)
      #expect(view.string(1) == "a\"b\\c/\u{8}\u{c}\n\r\t")
      #expect(view[2].kind == .escapedString)
      #expect(view.string(2) == "é😀")
      #expect(view[3].kind == .string)
      #expect(view.string(3) == "é😀")
      #expect(view.string(4) == "")
    }
  }

  @Test func theTapeAcceptsAndRefusesWhatTheTreeParserDoes() {
    let documents = [
      "{}", "[]", "0", "-0", "1.5e+3", "-12.25E-2", #""x""#, "true", "false", "null", #"{"a":1,"b":[{},[]]}"#,
      " [1 , 2 ] ", "01", "1.", ".5", "1e", "-", "+1", "[1,]", "[,1]", #"{"a":1,}"#, #"{"a" 1}"#, #"{a:1}"#,
      "[1 2]", "tru", "nul", "[", "{", #"{"a":"#, #""\x""#, #""\u12G4""#, #""\ud800""#, #""\udc00""#,
      #""\ud800\u0041""#, "\"\u{1}\"", "\"\u{7f}\"", #"{"a":1,"a":2}"#, #"{"a":{"b":1,"b":2}}"#,
      "[1] [2]", "\u{feff}[]",
    ]
    for document in documents {
      #expect(tapeAccepts(document) == parserAccepts(document), "\(document.debugDescription)")
    }
  }

  @Test func invalidUTF8IsRefusedAsByTheTreeParser() throws {
    for bytes: [UInt8] in [
      [0x22, 0xC3, 0x28, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF8, 0x22], [0x22, 0xC3],
    ] {
      let tape = bytes.withUnsafeBufferPointer { buffer -> Bool in
        var parser = JSONParser(bytes: buffer, limits: limits)
        return (try? JSONTape().read(&parser)) != nil
      }
      #expect(!tape)
      #expect((try? JSONParser.parse(bytes, limits: limits)) == nil)
    }
  }

  @Test func aDuplicateKeyIsRefusedInSmallAndLargeObjects() {
    let large = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
    #expect(tapeAccepts("{\(large)}"))
    #expect(!tapeAccepts("{\(large),\"k7\":0}"))
    #expect(!parserAccepts("{\(large),\"k7\":0}"))
  }

  @Test func theLimitsOfTheTreeParserHold() {
    let strict = JSONParser.Limits(maxDepth: 3, maxStringBytes: 4, maxNumberLength: 5)
    for document in [
      "[[[1]]]", "[[[[1]]]]", #"{"a":{"b":{"c":1}}}"#, #"{"a":{"b":{"c":{}}}}"#, #""abcd""#, #""abcde""#,
      #""ab\ncd""#, #""\u0041\u0042\u0043\u0044\u0045""#, "12345", "123456", "-1234", "1.234",
    ] {
      #expect(tapeAccepts(document, limits: strict) == parserAccepts(document, limits: strict), "\(document)")
    }
  }

  @Test func aKeyWithAnEscapeOrNonASCIIIsReadByBothReaders() throws {
    for document in [#"{"\u0061":1}"#, #"{"é":1}"#, #"{"a\"b":1}"#] {
      #expect(tapeAccepts(document))
      #expect(parserAccepts(document))
    }
    #expect(try tapeDecode([String: Int].self, #"{"\u0061":1,"é":2}"#) == ["a": 1, "é": 2])
  }

  @Test func aValueCutForItsDepthIsLeftToTheTreeParser() {
    var cutting = limits
    cutting.maxDepth = 2
    cutting.cutsTooDeep = true
    #expect(tapeAccepts("[[1]]", limits: cutting))
    #expect(!tapeAccepts("[[[1]]]", limits: cutting))
    #expect(parserAccepts("[[[1]]]", limits: cutting))
  }

  @Test func aFailedReadLeavesTheParserWhereItWas() throws {
    let bytes = Array(#"[{"a":1},{"a":]"#.utf8)
    try bytes.withUnsafeBufferPointer { buffer in
      var parser = JSONParser(bytes: buffer, limits: limits)
      try parser.beginArray()
      let tape = JSONTape()
      #expect(try parser.nextElement(index: 0))
      try tape.read(&parser)
      parser.endMember()
      #expect(try parser.nextElement(index: 1))
      let start = parser.position
      #expect(throws: JSONParser.Failure.self) { try tape.read(&parser) }
      #expect(parser.position == start)
      #expect(parser.depth == 1)
      #expect {
        _ = try parser.parseValue()
      } throws: { error in
        (error as? JSONParser.Failure)?.path == FieldPath([.index(1), .key("a")])
      }
    }
  }
}

@Suite struct JSONTapeDecoderTests {
  /// Two enums whose cases have the same names, so their keys have the same texts.
  private enum Move: Codable, Equatable {
    case left(Int)
    case right
    case jump(height: Int, far: Bool)
  }

  private enum Mirror: Codable, Equatable {
    case left(Int)
    case right
  }

  /// A key type that keeps only some keys: an object with others gives a shorter `allKeys`.
  private struct Known: Decodable, Equatable {
    let keys: [String]
    private struct Key: CodingKey {
      let stringValue: String
      var intValue: Int? { nil }
      init?(stringValue: String) {
        guard stringValue.hasPrefix("k") else { return nil }
        self.stringValue = stringValue
      }
      init?(intValue: Int) { nil }
    }
    init(keys: [String]) { self.keys = keys }
    init(from decoder: any Decoder) throws {
      keys = try decoder.container(keyedBy: Key.self).allKeys.map(\.stringValue)
    }
  }

  /// Decodes each of `texts` with one decoder, as an import does, each value from its own tape.
  private func decodeInTurn<T: Decodable>(_ type: T.Type, _ texts: [String]) throws -> [T] {
    let decoder = JSONTapeDecoder()
    return try texts.map { text in try withTape(text) { view in try decoder.decode(T.self, from: view) } }
  }

  @Test func oneDecoderGivesEachEnumValueItsOwnCaseWhenCasesAndTypesShareKeyTexts() throws {
    let texts = [
      #"{"left":{"_0":1}}"#, #"{"right":{}}"#, #"{"left":{"_0":2}}"#,
      #"{"jump":{"height":3,"far":true}}"#, #"{"right":{}}"#, #"{"jump":{"far":false,"height":4}}"#,
    ]
    #expect(
      try decodeInTurn(Move.self, texts) == [
        .left(1), .right, .left(2), .jump(height: 3, far: true), .right, .jump(height: 4, far: false),
      ])
    #expect(
      try decodeInTurn(Mirror.self, Array(texts[0..<3]) + [#"{"right":{}}"#]) == [
        .left(1), .right, .left(2), .right,
      ])
  }

  @Test func oneDecoderGivesEachObjectTheKeysItHoldsInTheirOrder() throws {
    let texts = [
      #"{"k1":0,"k2":0}"#, #"{"k2":0,"k1":0}"#, #"{"k1":0,"x":0,"k2":0}"#, #"{"k1":0,"k2":0}"#,
      #"{"k1":0}"#, #"{"x":0}"#, #"{"k1":0,"k2":0,"k3":0,"k4":0,"k5":0}"#, #"{"k10":0}"#, #"{"k1":0}"#,
    ]
    #expect(
      try decodeInTurn(Known.self, texts).map(\.keys) == [
        ["k1", "k2"], ["k2", "k1"], ["k1", "k2"], ["k1", "k2"], ["k1"], [], ["k1", "k2", "k3", "k4", "k5"],
        ["k10"], ["k1"],
      ])
  }

  @Test func aDecoderHeldByTheValueIsNotUsedForTheNextOne() throws {
    /// Keeps the decoder it was decoded from, which a value may do.
    final class Holder: Decodable {
      let decoder: any Decoder
      let number: Int
      init(from decoder: any Decoder) throws {
        self.decoder = decoder
        number = try decoder.singleValueContainer().decode(Int.self)
      }
    }
    let holders = try decodeInTurn(Holder.self, ["1", "2", "3"])
    #expect(holders.map(\.number) == [1, 2, 3])
    #expect(holders[0].decoder as AnyObject !== holders[1].decoder as AnyObject)
    #expect(holders[1].decoder as AnyObject !== holders[2].decoder as AnyObject)
  }

  @Test func everyScalarTypeAtItsEdgesDecodesAsJSONDecoderDecodesIt() throws {
    let text = """
      {"int":-9223372036854775808,"int8":-128,"int16":32767,"int32":-2147483648,
      "int64":9223372036854775807,"uint":18446744073709551615,"uint8":255,"uint16":65535,
      "uint32":4294967295,"uint64":18446744073709551615,"float":0.1,"double":-2.5e-7,
      "bool":true,"string":"a\\u0000b"}
      """
    let expected = Scalars(
      int: .min, int8: .min, int16: .max, int32: .min, int64: .max, uint: .max, uint8: .max, uint16: .max,
      uint32: .max, uint64: .max, float: 0.1, double: -2.5e-7, bool: true, string: "a\u{0}b")
    #expect(try tapeDecode(Scalars.self, text) == expected)
    #expect(try foundationDecode(Scalars.self, text) == expected)
  }

  @Test func numbersAtTheEdgesOfEveryTypeGiveTheDecodersValueOrError() {
    let numbers = [
      "0", "-0", "5.0", "1e3", "-2E+1", "0.5", "1e400", "-1e400", "127", "128", "-128", "-129", "255", "256",
      "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
      "18446744073709551615", "18446744073709551616", "4.9e-324", "2.2250738585072014e-308",
      "1.7976931348623157e308", "3.4028235e38", "3.5e38", "1e-50", "123456789012345678901234567890",
    ]
    var outcomes: [String] = []
    for number in numbers {
      let text = "[\(number)]"
      outcomes += [
        outcome([Int8].self, text), outcome([UInt8].self, text), outcome([Int].self, text),
        outcome([Int64].self, text), outcome([UInt64].self, text), outcome([UInt].self, text),
        outcome([Double].self, text), outcome([Float].self, text), outcome([Decimal].self, text),
      ]
    }
    #expect(outcomes.count == numberEdgeOutcomes.count)
    for (found, expected) in zip(outcomes, numberEdgeOutcomes) { #expect(found == expected) }
  }

  @Test func stringsWithEscapesAndSurrogatesDecodeToTheirText() throws {
    let text = #"["a\"b\\c\/\b\f\n\r\t", "\u00e9\ud83d\ude00", "é😀", "", "\u0000"]"#
    let expected = ["a\"b\\c/\u{8}\u{c}\n\r\t", "é😀", "é😀", "", "\u{0}"]
    #expect(try tapeDecode([String].self, text) == expected)
    #expect(try foundationDecode([String].self, text) == expected)
  }

  @Test func theRichTypeDecodesAsJSONDecoderDecodesIt() throws {
    let rich = Rich(
      shapes: [
        .point, .circle(radius: 2.5), .polygon([.point, .tagged(-3, "é\u{1F600}\"\\")], label: nil),
        .polygon([], label: "empty"),
      ],
      lookup: ["a": [1, nil, 3], "": []], byNumber: [1: "one", -2: "minus two"], nested: [[0, 255], []],
      missing: nil, present: 7, date: Date(timeIntervalSinceReferenceDate: 1_234.5),
      data: Data([0, 1, 2, 250]), url: FoundationValues.urlWithFragment,
      decimal: FoundationValues.decimal, extremes: [.min, .max, 0],
      fractions: [0.1, -1e-300, .greatestFiniteMagnitude, .leastNonzeroMagnitude])
    let text = String(
      decoding: JSONWriter.serialize(try JSONValueEncoder(redaction: .none).encode(rich)), as: UTF8.self)
    #expect(try tapeDecode(Rich.self, text) == rich)
    #expect(try foundationDecode(Rich.self, text) == rich)
  }

  @Test func optionalsAreNilWhenMissingOrNullAndAValueOtherwise() throws {
    struct Optionals: Decodable, Equatable {
      var missing: Int?
      var null: Int?
      var value: Int?
      var nested: [Int?]?
    }
    let text = #"{"null":null,"value":4,"nested":[null,2]}"#
    let expected = Optionals(missing: nil, null: nil, value: 4, nested: [nil, 2])
    #expect(try tapeDecode(Optionals.self, text) == expected)
    #expect(try foundationDecode(Optionals.self, text) == expected)
  }

  @Test func everyContainerOperationReadsWhatJSONDecoderReads() throws {
    for text in [
      #"{"a":null,"b":1,"c":{"a":9},"list":[[1],null,[2]],"super":5,"inherited":"x","zz":0}"#,
      #"{"a":1,"c":{"a":9},"list":[]}"#,
    ] {
      let tape = try tapeDecode(Handmade.self, text)
      #expect(tape == (try foundationDecode(Handmade.self, text)))
    }
    let sparse = try tapeDecode(Handmade.self, #"{"a":1,"c":{"a":9},"list":[]}"#)
    #expect(sparse.fromSuper == nil)
    #expect(sparse.fromSuperKey == nil)
    #expect(sparse.keys == ["a", "c", "list"])
  }

  @Test func errorsHaveTheDecodersCaseCodingPathAndMessage() {
    struct Shapes: Decodable { var shapes: [Rich.Shape] }
    let cases: [(any Decodable.Type, String)] = [
      (Small.self, #"{"value":128}"#),
      (Small.self, #"{"value":1.5}"#),
      (Small.self, #"{"value":"1"}"#),
      (Small.self, #"{"value":null}"#),
      (Small.self, #"{"other":1}"#),
      (Small.self, "[]"),
      (Small.self, "null"),
      ([Small].self, #"[{"value":1},{"other":2}]"#),
      ([Small].self, "{}"),
      ([String: [Int]].self, #"{"a":[1,null]}"#),
      (Shapes.self, #"{"shapes":[{"circle":{"radius":"big"}}]}"#),
      (Shapes.self, #"{"shapes":{}}"#),
      (Shapes.self, #"{"shapes":[{"tagged":{"_0":1,"_1":true}}]}"#),
      (Shapes.self, #"{"shapes":[{"hexagon":{}}]}"#),
      (Shapes.self, #"{"shapes":[{"point":{},"circle":{"radius":1}}]}"#),
      ([Data].self, #"["not base64!"]"#),
      ([URL].self, #"[""]"#),
      ([Bool].self, "[1]"),
      ([Double].self, "[true]"),
      ([Decimal].self, #"["1"]"#),
      (Handmade.self, #"{"a":1,"c":{"a":9},"list":[[]]}"#),
    ]
    #expect(cases.count == errorOutcomes.count)
    for ((type, text), expected) in zip(cases, errorOutcomes) {
      func tape<T: Decodable>(_ type: T.Type) -> String { outcome(T.self, text) }
      #expect(tape(type) == expected, "\(text)")
      #expect(!expected.hasPrefix("decoded"), "\(text)")
    }
  }

  @Test func aKeyCanonicallyEquivalentToAWrittenOneFindsItOnlyInALargeObject() {
    struct Kelvin: Decodable, CustomStringConvertible {
      enum Keys: String, CodingKey { case kelvin = "\u{212A}" }
      var value: Int?
      init(from decoder: any Decoder) throws {
        value = try decoder.container(keyedBy: Keys.self).decodeIfPresent(Int.self, forKey: .kelvin)
      }
      var description: String { "\(value.map(String.init) ?? "nil")" }
    }
    let small = #"{"K":1}"#
    let large = "{" + (0..<20).map { "\"k\($0)\":0," }.joined() + #""K":1}"#
    // A small object's keys are compared by their bytes, a large one's as strings.
    #expect(outcome(Kelvin.self, small) == "decoded nil")
    #expect(outcome(Kelvin.self, large) == "decoded 1")
  }

  @Test func valuesNestedAsDeepAsTheParserAllowsDecode() throws {
    let text = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    #expect(try tapeDecode(Nest.self, text).depth == 512)
  }

  @Test func aHundredThousandElementsDecode() throws {
    let text = "[" + (0..<100_000).map(String.init).joined(separator: ",") + "]"
    #expect(try tapeDecode([Int].self, text) == Array(0..<100_000))
  }
}
