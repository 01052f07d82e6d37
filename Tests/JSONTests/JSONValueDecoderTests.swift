import ChronicleInspection
import Foundation
import Testing

@testable import ChronicleJSON

private let limits = JSONParser.Limits(maxDepth: 512, maxStringBytes: 1 << 20, maxNumberLength: 400)

private func tree(_ text: String) throws -> JSONValue {
  try JSONParser.parse(Array(text.utf8), limits: limits)
}

/// `text` decoded by the library's one decoder, from a tape.
private func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
  try decode(T.self, bytes: Array(text.utf8))
}

private func decode<T: Decodable>(_ type: T.Type, bytes: [UInt8]) throws -> T {
  try bytes.withUnsafeBufferPointer { buffer in
    var parser = JSONParser(bytes: buffer, limits: limits)
    parser.skipWhitespace()
    let tape = JSONTape()
    try tape.read(&parser)
    try parser.finish()
    return try JSONTapeDecoder().decode(T.self, from: tape.view)
  }
}

/// The coding path of a decoding error, as `entries[…]`-free text: `items.Index 1.name`.
private func path(of error: any Error) -> String? {
  let context: DecodingError.Context
  switch error as? DecodingError {
  case .typeMismatch(_, let found)?, .valueNotFound(_, let found)?, .dataCorrupted(let found)?:
    context = found
  case .keyNotFound(let key, let found)?:
    return (found.codingPath + [key]).map(\.stringValue).joined(separator: ".")
  default: return nil
  }
  return context.codingPath.map(\.stringValue).joined(separator: ".")
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

/// Everything synthesized `Codable` writes: nested enums with associated values (labelled,
/// unlabelled, several), optionals, arrays, dictionaries, and the types `JSONEncoder`
/// special-cases.
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

private let rich = Rich(
  shapes: [
    .point, .circle(radius: 2.5), .polygon([.point, .tagged(-3, "é\u{1F600}\"\\")], label: nil),
    .polygon([], label: "empty"),
  ],
  lookup: ["a": [1, nil, 3], "": []], byNumber: [1: "one", -2: "minus two"], nested: [[0, 255], []],
  missing: nil, present: 7, date: Date(timeIntervalSinceReferenceDate: 1_234.5), data: Data([0, 1, 2, 250]),
  url: FoundationValues.urlWithFragment, decimal: FoundationValues.decimal,
  extremes: [.min, .max, 0], fractions: [0.1, -1e-300, .greatestFiniteMagnitude, .leastNonzeroMagnitude])

/// A type that reads itself with every container operation by hand.
private struct Handmade: Decodable, Equatable {
  var keys: [String]
  var hasB: Bool
  var aIsNil: Bool
  var fromSuper: Int
  var fromSuperKey: String
  var list: [Int]
  var listNils: Int
  var listCount: Int?

  enum Keys: String, CodingKey { case a, b, c, list, `super`, inherited }

  init(
    keys: [String], hasB: Bool, aIsNil: Bool, fromSuper: Int, fromSuperKey: String, list: [Int],
    listNils: Int,
    listCount: Int?
  ) {
    self.keys = keys
    self.hasB = hasB
    self.aIsNil = aIsNil
    self.fromSuper = fromSuper
    self.fromSuperKey = fromSuperKey
    self.list = list
    self.listNils = listNils
    self.listCount = listCount
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    keys = container.allKeys.map(\.stringValue).sorted()
    hasB = container.contains(.b)
    aIsNil = try container.decodeNil(forKey: .a)
    fromSuper = try container.superDecoder().singleValueContainer().decode(Int.self)
    fromSuperKey = try container.superDecoder(forKey: .inherited).singleValueContainer().decode(String.self)
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

@Suite struct JSONValueDecoderTests {
  @Test func everyScalarTypeDecodesToItsExactValue() throws {
    let text = """
      {"int":-9223372036854775808,"int8":-128,"int16":32767,"int32":-2147483648,
      "int64":9223372036854775807,"uint":18446744073709551615,"uint8":255,"uint16":65535,
      "uint32":4294967295,"uint64":18446744073709551615,"float":0.1,"double":-2.5e-7,
      "bool":true,"string":"a\\u0000b"}
      """
    #expect(
      try decode(Scalars.self, text)
        == Scalars(
          int: .min, int8: .min, int16: .max, int32: .min, int64: .max, uint: .max, uint8: .max, uint16: .max,
          uint32: .max, uint64: .max, float: 0.1, double: -2.5e-7, bool: true, string: "a\u{0}b"))
  }

  @Test func anIntegerOutOfItsTypesRangeIsDataCorruptedAtItsPath() throws {
    for text in [#"{"value":128}"#, #"{"value":-129}"#, #"{"value":1.5}"#, #"{"value":1e400}"#] {
      #expect {
        try decode(Small.self, text)
      } throws: { error in
        guard case .dataCorrupted? = error as? DecodingError else { return false }
        return path(of: error) == "value"
      }
    }
  }

  @Test func aWholeNumberWrittenWithAFractionOrExponentDecodesAsAnIntegerAsInJSONDecoder() throws {
    #expect(try decode([Int].self, "[5.0, 1e3, -2E+1, 0.0]") == [5, 1000, -20, 0])
    #expect(
      try JSONDecoder().decode([Int].self, from: Data("[5.0, 1e3, -2E+1, 0.0]".utf8)) == [5, 1000, -20, 0])
  }

  @Test func aFloatingPointNumberBeyondItsTypeIsDataCorrupted() throws {
    #expect(throws: DecodingError.self) { try decode([Float].self, "[1e39]") }
    #expect(throws: DecodingError.self) { try decode([Double].self, "[1e400]") }
    #expect(try decode([Float].self, "[3.4028234e38, 1e-50]") == [Float.greatestFiniteMagnitude, 0])
  }

  @Test func theRichTypeRoundTripsThroughTheEncodersTree() throws {
    let encoded = try JSONValueEncoder(redaction: .none).encode(rich)
    #expect(try decode(Rich.self, bytes: JSONWriter.serialize(encoded)) == rich)
  }

  @Test func theRichTypeDecodesAsJSONDecoderDecodesTheSameText() throws {
    let text = JSONWriter.serialize(try JSONValueEncoder(redaction: .none).encode(rich))
    let expected = try JSONDecoder().decode(Rich.self, from: Data(text))
    #expect(try decode(Rich.self, bytes: text) == expected)
  }

  @Test func optionalsAreNilWhenMissingOrNullAndAValueOtherwise() throws {
    struct Optionals: Decodable, Equatable {
      var missing: Int?
      var null: Int?
      var value: Int?
    }
    #expect(
      try decode(Optionals.self, #"{"null":null,"value":4}"#) == Optionals(missing: nil, null: nil, value: 4))
  }

  @Test func nullForANonOptionalIsValueNotFoundAtItsPath() throws {
    #expect {
      try decode([String: [Int]].self, #"{"a":[1,null]}"#)
    } throws: { error in
      guard case .valueNotFound? = error as? DecodingError else { return false }
      return path(of: error) == "a.Index 1"
    }
  }

  @Test func aMissingKeyIsKeyNotFoundWithTheContainersPath() throws {
    #expect {
      try decode([Small].self, #"[{"value":1},{"other":2}]"#)
    } throws: { error in
      guard case .keyNotFound(let key, _)? = error as? DecodingError else { return false }
      return key.stringValue == "value" && path(of: error) == "Index 1.value"
    }
  }

  @Test func aValueOfAnotherJSONTypeIsTypeMismatchAtItsPath() throws {
    let cases: [(String, String)] = [
      (#"{"shapes":[{"circle":{"radius":"big"}}]}"#, "shapes.Index 0.circle.radius"),
      (#"{"shapes":{}}"#, "shapes"),
      (#"{"shapes":[{"tagged":{"_0":1,"_1":true}}]}"#, "shapes.Index 0.tagged._1"),
    ]
    struct Shapes: Decodable { var shapes: [Rich.Shape] }
    for (text, expected) in cases {
      #expect {
        try decode(Shapes.self, text)
      } throws: { error in
        guard case .typeMismatch? = error as? DecodingError else { return false }
        return path(of: error) == expected
      }
    }
  }

  @Test func anUnknownEnumCaseIsAnErrorAsInJSONDecoder() throws {
    #expect(throws: DecodingError.self) { try decode(Rich.Shape.self, #"{"hexagon":{}}"#) }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Rich.Shape.self, from: Data(#"{"hexagon":{}}"#.utf8))
    }
  }

  @Test func readingPastTheEndOfAnArrayIsValueNotFound() throws {
    #expect {
      try decode(Pair.self, "[1]")
    } throws: { error in
      guard case .valueNotFound? = error as? DecodingError else { return false }
      return path(of: error) == "Index 1"
    }
  }

  @Test func everyContainerOperationReadsWhatJSONDecoderReads() throws {
    let text = #"{"a":null,"b":1,"c":{"a":9},"list":[[1],null,[2]],"super":5,"inherited":"x","zz":0}"#
    let expected = Handmade(
      keys: ["a", "b", "c", "inherited", "list", "super"], hasB: true, aIsNil: true, fromSuper: 5,
      fromSuperKey: "x",
      list: [1, 2, 9], listNils: 1, listCount: 3)
    #expect(try decode(Handmade.self, text) == expected)
    #expect(try JSONDecoder().decode(Handmade.self, from: Data(text.utf8)) == expected)
  }

  @Test func invalidBase64AndURLsAreDataCorrupted() throws {
    #expect(throws: DecodingError.self) { try decode([Data].self, #"["not base64!"]"#) }
    #expect(throws: DecodingError.self) { try decode([URL].self, #"[""]"#) }
  }

  @Test func aHundredThousandElementsDecode() throws {
    let text = "[" + (0..<100_000).map(String.init).joined(separator: ",") + "]"
    #expect(try decode([Int].self, text) == Array(0..<100_000))
  }

  @Test func valuesNestedAsDeepAsTheParserAllowsDecode() throws {
    let text = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    #expect(try decode(Nest.self, text).depth == 512)
  }
}

private struct Pair: Decodable {
  var first: Int
  var second: Int
  init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    first = try container.decode(Int.self)
    second = try container.decode(Int.self)
  }
}
