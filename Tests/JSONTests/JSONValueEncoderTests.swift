import ChronicleInspection
import Foundation
import Testing

@testable import ChronicleJSON

private let limits = JSONParser.Limits(maxDepth: 128, maxStringBytes: 1 << 20, maxNumberLength: 64)

/// What Foundation's `JSONEncoder` writes for `value`, read back as a tree.
private func foundationJSON(_ value: some Encodable) throws -> JSONValue {
  try JSONParser.parse(Array(JSONEncoder().encode(value)), limits: limits)
}

/// Objects with their members in key order, so that trees compare whatever order each encoder
/// wrote members in.
private func sorted(_ value: JSONValue) -> JSONValue {
  switch value {
  case .object(let members):
    .object(members.map { JSONMember($0.key, sorted($0.value)) }.sorted { $0.key < $1.key })
  case .array(let elements): .array(elements.map(sorted))
  default: value
  }
}

/// Numbers compared by value: Foundation writes `5` where the encoder writes `5.0`.
private func normalized(_ value: JSONValue) -> JSONValue {
  switch value {
  case .number(let text): .number(Double(text).map { "\($0)" } ?? text)
  case .object(let members): .object(members.map { JSONMember($0.key, normalized($0.value)) })
  case .array(let elements): .array(elements.map(normalized))
  default: value
  }
}

private func encode(_ value: some Encodable, redaction: Redaction = .default) throws -> JSONValue {
  try JSONValueEncoder(redaction: redaction).encode(value)
}

// Types whose synthesized or hand-written encodings cover the `Encoder` protocol.

private struct Scalars: Codable, Equatable {
  var int = -7
  var int8: Int8 = .min
  var int16: Int16 = .max
  var int32: Int32 = -32
  var int64: Int64 = .min
  var uint: UInt = .max
  var uint8: UInt8 = 255
  var uint16: UInt16 = 16
  var uint32: UInt32 = 32
  var uint64: UInt64 = .max
  var double = 1.5e-7
  var float: Float = 0.25
  var bool = true
  var string = "quote \" backslash \\ newline \n tab \t é 🎉"
  var optional: Int? = nil
  var present: String? = "here"
}

enum Shape: Codable, Equatable, Sendable {
  case circle(radius: Double)
  case square(Int)
  case pair(Int, String)
  case empty
  indirect case group([Shape], name: String?)
}

private struct Foundationish: Codable, Equatable {
  var date = Date(timeIntervalSinceReferenceDate: 12.5)
  var data = Data([0, 1, 2, 250])
  var url = FoundationValues.url
  var decimal = FoundationValues.decimal
}

/// Writes into containers in every way the protocol allows: the same key twice, a container
/// fetched twice, nested containers filled after later members, super encoders, nils.
private struct HandWritten: Encodable {
  enum Key: String, CodingKey { case a, b, nested, list, again }

  func encode(to encoder: any Encoder) throws {
    var first = encoder.container(keyedBy: Key.self)
    try first.encode(1, forKey: .a)
    var nested = first.nestedContainer(keyedBy: Key.self, forKey: .nested)
    var list = first.nestedUnkeyedContainer(forKey: .list)
    try first.encode("replaced", forKey: .a)
    try nested.encode(true, forKey: .b)
    try list.encode(1)
    try list.encodeNil()
    var inner = list.nestedContainer(keyedBy: Key.self)
    try list.encode(3)
    try inner.encode("late", forKey: .a)
    var second = encoder.container(keyedBy: Key.self)
    try second.encodeNil(forKey: .b)
    let parent = second.superEncoder()
    var single = parent.singleValueContainer()
    try single.encode([1, 2])
    let keyed = second.superEncoder(forKey: .again)
    var keyedList = keyed.unkeyedContainer()
    try keyedList.encode("x")
    let element = keyedList.superEncoder()
    _ = element
  }
}

private struct Wrapper<Value: Encodable>: Encodable {
  var value: Value
}

private struct NotFinite: Encodable {
  var inner = Wrapper(value: [1.0, .nan])
}

private struct Login: Codable, Equatable {
  var user = "ada"
  var password = "s3cr3t"
  var token: Token = .bearer("t0k3n")
  var pin = PIN(code: 1234)

  enum Token: Codable, Equatable {
    case bearer(String)
    case none
  }
}

private struct PIN: Codable, Equatable, SensitiveValue {
  var code: Int
}

@Suite struct JSONValueEncoderTests {
  @Test func scalarsMatchFoundation() throws {
    #expect(try sorted(normalized(encode(Scalars()))) == sorted(normalized(foundationJSON(Scalars()))))
    #expect(try encode(Scalars())["int64"] == .number("-9223372036854775808"))
    #expect(try encode(Scalars())["uint64"] == .number("18446744073709551615"))
    #expect(try encode(Scalars())["optional"] == nil)
  }

  @Test(arguments: [
    Shape.circle(radius: 2.5), .square(4), .pair(-1, "one"), .empty,
    .group([.empty, .group([.square(1)], name: nil)], name: "g"),
  ])
  func enumsMatchFoundation(_ shape: Shape) throws {
    #expect(try sorted(normalized(encode(shape))) == sorted(normalized(foundationJSON(shape))))
  }

  @Test func collectionsMatchFoundation() throws {
    let value = Wrapper(value: [
      "b": [[1, 2], [], [3]], "a": [[Int]](),
    ])
    #expect(try sorted(encode(value)) == sorted(foundationJSON(value)))
    let keyedByInt = [3: "three", -1: "minus one"]
    #expect(try sorted(encode(keyedByInt)) == sorted(foundationJSON(keyedByInt)))
    let set: Set = [1]
    #expect(try encode(set) == foundationJSON(set))
    #expect(try encode([String?]([nil, "x"])) == .array([.null, .string("x")]))
  }

  @Test func foundationTypesMatchJSONEncodersDefaults() throws {
    #expect(try sorted(encode(Foundationish())) == sorted(foundationJSON(Foundationish())))
  }

  @Test func everyWayOfWritingContainersEndsInOneTree() throws {
    let json = try encode(HandWritten())
    #expect(
      json
        == .object([
          JSONMember("a", .string("replaced")),
          JSONMember("nested", .object([JSONMember("b", .bool(true))])),
          JSONMember(
            "list", .array([.number("1"), .null, .object([JSONMember("a", .string("late"))]), .number("3")])),
          JSONMember("b", .null),
          JSONMember("super", .array([.number("1"), .number("2")])),
          JSONMember("again", .array([.string("x"), .object([])])),
        ]))
    #expect(try sorted(json) == sorted(foundationJSON(HandWritten())))
  }

  @Test func aNonFiniteNumberIsAnErrorNamingItsPath() throws {
    do {
      _ = try encode(NotFinite())
      Issue.record("expected an error")
    } catch EncodingError.invalidValue(_, let context) {
      #expect(context.codingPath.map(\.stringValue) == ["inner", "value", "1"])
    }
  }

  @Test func sensitiveValuesAndKeyRulesAreRedactedAtAnyDepth() throws {
    let plain = try encode(Wrapper(value: [Login()]))
    let expected = try foundationJSON(Login()).replacing("pin", .string("<redacted>"))
    #expect(sorted(plain) == sorted(.object([JSONMember("value", .array([expected]))])))
    let ruled = try encode([Login()], redaction: Redaction(keys: ["password", "bearer"]))
    #expect(
      ruled
        == .array([
          .object([
            JSONMember("user", .string("ada")), JSONMember("password", .string("<redacted>")),
            JSONMember(
              "token", .object([JSONMember("bearer", .object([JSONMember("_0", .string("<redacted>"))]))])),
            JSONMember("pin", .string("<redacted>")),
          ])
        ]))
  }

  @Test func ruleClosuresSeeWholePaths() throws {
    let paths = Recorded()
    let redaction = Redaction { path, _ in
      paths.append(path.description)
      return path.description.hasSuffix("user")
    }
    let json = try encode(Wrapper(value: [Login()]), redaction: redaction)
    #expect(
      json["value"].flatMap { if case .array(let e) = $0 { e.first } else { nil } }?["user"]
        == .string("<redacted>"))
    #expect(paths.values.contains("value[0].user"))
  }

  @Test func redactedPartsAreRecordedWithTheirPlaces() throws {
    let encoder = JSONValueEncoder(redaction: Redaction(keys: ["password"]))
    let (_, parts) = try encoder.encodeRecordingRedactions(Wrapper(value: [Login()]))
    #expect(
      parts.map(\.path) == [
        [.key("value"), .index(0), .key("password")], [.key("value"), .index(0), .key("pin")],
      ])
  }

  @Test func oneEncoderGivesTheSameJSONEveryTime() throws {
    let encoder = JSONValueEncoder(redaction: .default)
    let shapes: [Shape] = [.square(1), .empty, .square(2), .empty]
    let first = try shapes.map { try encoder.encode($0) }
    let second = try shapes.map { try encoder.encode($0) }
    #expect(first == second)
    #expect(try first.map(sorted) == shapes.map { try sorted(foundationJSON($0)) })
  }

  @Test func theExportEncoderKeepsSmallValuesWithoutMixingThemUp() throws {
    let encoder = ExportEncoder(redaction: .default)
    let encoding = encoder.encoding(of: Shape.self)
    #expect(encoding.typed != nil)
    let shapes: [Shape] = (0..<3_000).map { $0.isMultiple(of: 3) ? .empty : .square($0) }
    for shape in shapes + shapes {
      let (json, encoded) = encoding.encode(shape)
      #expect(encoded)
      #expect(sorted(json) == (try sorted(foundationJSON(shape))))
    }
    // A description for a value that is not Encodable, also through `Any`.
    #expect(encoder.encoding(of: NonEncodable.self).encode(NonEncodable()).encoded == false)
    #expect(encoder.encoding(of: Any.self).typed == nil)
    #expect(encoder.encoding(of: Any.self).encode(Shape.empty).encoded)
    #expect(
      sorted(encoder.encode(Shape.square(7) as Any).json) == (try sorted(foundationJSON(Shape.square(7)))))
  }
}

private struct NonEncodable {
  var x = 1
}

/// Paths a rule saw, from the encoder's thread.
private final class Recorded: @unchecked Sendable {
  // Only the test's thread encodes; the lock keeps the rule closure `@Sendable`-correct.
  private let lock = NSLock()
  private var list: [String] = []
  func append(_ path: String) { lock.withLock { list.append(path) } }
  var values: [String] { lock.withLock { list } }
}

extension JSONValue {
  /// The object with the member `key`'s value replaced.
  fileprivate func replacing(_ key: String, _ value: JSONValue) -> JSONValue {
    guard case .object(let members) = self else { return self }
    return .object(members.map { $0.key == key ? JSONMember(key, value) : $0 })
  }
}
