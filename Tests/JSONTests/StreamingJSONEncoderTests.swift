import ChronicleInspection
import Foundation
import Testing

@testable import ChronicleJSON

/// What the tree encoder writes for `value`: the bytes the streaming encoder must write.
private func treeBytes(_ value: some Encodable) throws -> [UInt8] {
  JSONWriter.serialize(try JSONValueEncoder(redaction: .default).encode(value))
}

/// What the streaming encoder writes for `value` after `prefix`, or `nil` when it hands the
/// value back to the tree encoder.
private func streamed(
  _ value: some Encodable, encoder: StreamingJSONEncoder = StreamingJSONEncoder(), after prefix: String = ""
) -> (text: String, singleKey: String?)? {
  var writer = JSONWriter()
  writer.utf8(prefix)
  guard let written = encoder.write(value, into: &writer) else {
    #expect(writer.bytes == Array(prefix.utf8), "a value handed back leaves the output as it was")
    return nil
  }
  return (String(decoding: writer.bytes, as: UTF8.self), written.singleKey)
}

// Shapes written in order, as synthesized `Codable` writes them.

private enum Action: Codable, Equatable {
  case increment
  case add(Int)
  case rename(to: String)
  case move(x: Double, y: Float)
  case pair(Int, String?)
  indirect case batch([Action])
}

private struct Profile: Codable {
  struct Address: Codable {
    var street = "1 \"Main\" St\\\n\t\u{1}é🎉"
    var zip: Int? = nil
    var lines: [String] = ["a", ""]
  }
  var name = "ada"
  var age: UInt8 = 36
  var score = -0.125
  var tiny = Double.leastNonzeroMagnitude
  var big: Float = 1e20
  var fraction: Float = 0.1
  var flags: [Bool] = [true, false]
  var nothing: Int? = nil
  var maybe: [Int?] = [1, nil, 3]
  var address = Address()
  var history: [Address] = [Address(), Address(street: "b", zip: 7, lines: [])]
  var matrix: [[Int8]] = [[1, -2], [], [Int8.min]]
  var limits: [Int64] = [.min, .max]
  var unsigned: UInt64 = .max
}

private struct Empty: Codable {}

/// Writes nothing at all: an empty object, as `JSONEncoder` writes.
private struct Silent: Encodable {
  func encode(to encoder: any Encoder) throws {}
}

private enum Level: String, Codable { case low, high }

private struct Foundationish: Codable {
  var date = Date(timeIntervalSinceReferenceDate: 12.5)
  var data = Data([0, 1, 2, 250])
  var url = FoundationValues.url
  var decimal = FoundationValues.decimal
  var level = Level.high
}

private struct PIN: Codable, SensitiveValue {
  var code: Int
}

private struct Login: Codable {
  var user = "ada"
  var pin = PIN(code: 1234)
  var pins = [PIN(code: 1), PIN(code: 2)]
}

/// Fetches its keyed container twice and writes members through both, in order.
private struct TwoFetches: Encodable {
  enum Key: String, CodingKey { case a, b }
  func encode(to encoder: any Encoder) throws {
    var first = encoder.container(keyedBy: Key.self)
    try first.encode(1, forKey: .a)
    var second = encoder.container(keyedBy: Key.self)
    try second.encode(2, forKey: .b)
  }
}

/// A single value that is a struct.
private struct Box<Value: Encodable>: Encodable {
  var value: Value
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(value)
  }
}

// Encodings the streaming encoder cannot write in order.

private struct KeyTwice: Encodable {
  enum Key: String, CodingKey { case a, b }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(1, forKey: .a)
    try container.encode(2, forKey: .b)
    try container.encode("again", forKey: .a)
  }
}

private struct NestedAfterSibling: Encodable {
  enum Key: String, CodingKey { case nested, later }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    var nested = container.nestedUnkeyedContainer(forKey: .nested)
    try nested.encode(1)
    try container.encode(2, forKey: .later)
    try nested.encode(3)
  }
}

/// Writes the members `names`, in order, with the integers from 0.
private struct Members: Encodable {
  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
  var names: [String]
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    for (value, name) in names.enumerated() { try container.encode(value, forKey: Key(stringValue: name)) }
  }
}

/// Keeps its keyed container after its `encode(to:)` returns.
private final class ContainerKeeper: Encodable {
  enum Key: String, CodingKey { case a, b }
  var kept: KeyedEncodingContainer<Key>?
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(1, forKey: .a)
    kept = container
  }
}

/// Keeps the encoder its `encode(to:)` was handed, to ask it for a container later.
private final class EncoderKeeper: Encodable {
  enum Key: String, CodingKey { case a }
  var kept: (any Encoder)?
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(1, forKey: .a)
    kept = encoder
  }
}

private struct SuperEncoding: Encodable {
  enum Key: String, CodingKey { case a }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(1, forKey: .a)
    var single = container.superEncoder().singleValueContainer()
    try single.encode(2)
  }
}

private struct SingleTwice: Encodable {
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(1)
    try container.encode("two")
  }
}

private struct ContainerAfterSingle: Encodable {
  enum Key: String, CodingKey { case a }
  func encode(to encoder: any Encoder) throws {
    var single = encoder.singleValueContainer()
    try single.encode(1)
    var keyed = encoder.container(keyedBy: Key.self)
    try keyed.encode(2, forKey: .a)
  }
}

private struct NotFinite: Encodable {
  var values = [1.0, .nan]
}

/// A value of any of the shapes, for a parameterized test.
private struct Sample: Sendable, CustomTestStringConvertible {
  let testDescription: String
  let check: @Sendable () throws -> Void

  init<Value: Encodable & Sendable>(_ name: String, _ value: Value) {
    testDescription = name
    check = {
      let treeText = String(decoding: try treeBytes(value), as: UTF8.self)
      #expect(streamed(value)?.text == treeText)
    }
  }
}

extension Profile: Sendable {}
extension Profile.Address: Sendable {}
extension Action: Sendable {}
extension Foundationish: Sendable {}
extension Login: Sendable {}
extension PIN: Sendable {}
extension Box: Sendable where Value: Sendable {}

@Suite struct StreamingJSONEncoderTests {
  @Test(arguments: [
    Sample("a case without payload", Action.increment),
    Sample("a case with a payload", Action.add(-42)),
    Sample("a case with a labeled payload", Action.rename(to: "a \"b\"\n")),
    Sample("a case with floating-point payloads", Action.move(x: 0.1, y: -2.5)),
    Sample("a case with a nil payload", Action.pair(1, nil)),
    Sample("nested cases", Action.batch([.increment, .add(2), .batch([]), .pair(3, "x")])),
    Sample("nested structs, arrays, optionals, escapes, floats", Profile()),
    Sample("an empty struct", Empty()),
    Sample("a value that writes nothing", Box(value: [Box(value: Empty())])),
    Sample("a raw-value enum", [Level.low, .high]),
    Sample("Foundation's types", Foundationish()),
    Sample("sensitive values", Login()),
    Sample("a dictionary with string keys", ["b": 2, "a": 1]),
    Sample("a dictionary with integer keys", [3: "c"]),
    Sample("a keyed container fetched twice", TwoFetches()),
    Sample("a single value that is an object", Box(value: Action.add(1))),
    Sample("a top-level scalar", "plain \u{7f} text"),
    Sample("a top-level optional", [Int?.none]),
  ])
  fileprivate func writesWhatTheTreeEncoderWritesForEncodingsInOrder(_ sample: Sample) throws {
    try sample.check()
  }

  @Test func aValueThatWritesNothingIsAnEmptyObject() {
    #expect(streamed(Silent())?.text == "{}")
  }

  @Test func appendsAfterWhatTheOutputHeld() {
    #expect(streamed(Action.add(5), after: #"{"action":"#)?.text == #"{"action":{"add":{"_0":5}}"#)
  }

  @Test func oneEncoderWritesEveryValueAlikeAfterOnesItHandedBack() throws {
    let encoder = StreamingJSONEncoder()
    let first = streamed(Profile(), encoder: encoder)?.text
    #expect(streamed(KeyTwice(), encoder: encoder) == nil)
    #expect(streamed(Profile(), encoder: encoder)?.text == first)
    #expect(first == String(decoding: try treeBytes(Profile()), as: UTF8.self))
  }

  @Test func theSingleKeyIsTheOnlyMemberOfTheRootObject() {
    #expect(streamed(Action.add(5))?.singleKey == "add")
    #expect(streamed(Action.increment)?.singleKey == "increment")
    #expect(streamed(Box(value: Action.rename(to: "x")))?.singleKey == "rename")
    #expect(streamed(TwoFetches())?.singleKey == nil)
    #expect(streamed(Empty())?.singleKey == nil)
    #expect(streamed([Action.increment])?.singleKey == nil)
  }

  @Test func aKeyEncodedTwiceIsHandedBack() {
    #expect(streamed(KeyTwice()) == nil)
  }

  @Test(arguments: [2, 16, 17, 18, 40])
  func theFirstKeyEncodedAgainIsHandedBackWhateverTheMembersBefore(count: Int) {
    let names = (0..<count).map { "k\($0)" }
    #expect(streamed(Members(names: names + ["k0"])) == nil)
  }

  @Test(arguments: [2, 16, 17, 18, 40])
  func aLaterKeyEncodedAgainIsHandedBackWhateverTheMembersBefore(count: Int) {
    let names = (0..<count).map { "k\($0)" }
    #expect(streamed(Members(names: names + ["k\(count - 1)"])) == nil)
  }

  @Test func distinctKeysPastTheLinearSearchAreWrittenInOrder() throws {
    let members = Members(names: (0..<40).map { "k\($0)" })
    #expect(streamed(members)?.text == String(decoding: try treeBytes(members), as: UTF8.self))
  }

  @Test func aKeyedContainerKeptPastItsValueWritesNothingLater() throws {
    let encoder = StreamingJSONEncoder()
    let keeper = ContainerKeeper()
    #expect(streamed(keeper, encoder: encoder)?.text == #"{"a":1}"#)
    var kept = try #require(keeper.kept)
    #expect(streamed(keeper, encoder: encoder)?.text == #"{"a":1}"#)
    try kept.encode(2, forKey: .b)
    var nested = kept.nestedContainer(keyedBy: ContainerKeeper.Key.self, forKey: .b)
    try nested.encode(3, forKey: .a)
    #expect(streamed(keeper, encoder: encoder)?.text == #"{"a":1}"#)
    #expect(
      streamed(Action.batch([.add(4), .batch([.add(5)])]), encoder: encoder)?.text
        == String(decoding: try treeBytes(Action.batch([.add(4), .batch([.add(5)])])), as: UTF8.self))
  }

  @Test func aKeyedContainerHeldPastItsEncoderWritesNothingAndKeepsNothing() throws {
    let keeper = ContainerKeeper()
    weak var released: StreamingJSONEncoder?
    do {
      let encoder = StreamingJSONEncoder()
      released = encoder
      #expect(streamed(keeper, encoder: encoder)?.text == #"{"a":1}"#)
      #expect(streamed(keeper, encoder: encoder)?.text == #"{"a":1}"#)
    }
    // The container the encoder kept for reuse points at it only while it writes a value.
    #expect(released == nil)
    var kept = try #require(keeper.kept)
    try kept.encode(2, forKey: .b)
    var nested = kept.nestedContainer(keyedBy: ContainerKeeper.Key.self, forKey: .b)
    try nested.encode(3, forKey: .a)
    // The nested container, not opened, stands where its parent does.
    #expect(kept.codingPath.isEmpty && nested.codingPath.isEmpty)
  }

  @Test func aContainerAskedOfAnEncoderHeldPastItsValueKeepsItsEncoder() throws {
    let keeper = EncoderKeeper()
    var held: KeyedEncodingContainer<EncoderKeeper.Key>
    do {
      let encoder = StreamingJSONEncoder()
      #expect(streamed(keeper, encoder: encoder)?.text == #"{"a":1}"#)
      held = try #require(keeper.kept).container(keyedBy: EncoderKeeper.Key.self)
      keeper.kept = nil
    }
    // Asked for outside a value's writing, the container is not one the encoder reuses: it keeps
    // its encoder, and writes nothing (its frame is closed).
    try held.encode(2, forKey: .a)
    var nested = held.nestedContainer(keyedBy: EncoderKeeper.Key.self, forKey: .a)
    try nested.encode(3, forKey: .a)
    let encoder = StreamingJSONEncoder()
    #expect(streamed(Action.add(4), encoder: encoder)?.text == #"{"add":{"_0":4}}"#)
  }

  @Test func aKeyedContainerHeldWhileAnotherOfItsKeysIsOpenLeavesEachItsMembers() throws {
    let encoder = StreamingJSONEncoder()
    let value = Action.batch([.rename(to: "a"), .batch([.rename(to: "b"), .move(x: 1, y: 2)]), .add(3)])
    for _ in 0..<3 {
      #expect(
        streamed(value, encoder: encoder)?.text == String(decoding: try treeBytes(value), as: UTF8.self))
    }
  }

  @Test func scalarsAndValuesOfOtherTypesInTurnAreEachWrittenAsTheirType() throws {
    let encoder = StreamingJSONEncoder()
    #expect(streamed(Action.add(1), encoder: encoder)?.text == #"{"add":{"_0":1}}"#)
    #expect(streamed(7, encoder: encoder)?.text == "7")
    #expect(streamed(Action.add(2), encoder: encoder)?.text == #"{"add":{"_0":2}}"#)
    #expect(streamed("s", encoder: encoder)?.text == #""s""#)
    #expect(streamed([Action.increment], encoder: encoder)?.text == #"[{"increment":{}}]"#)
    #expect(
      streamed(Login(), encoder: encoder)?.text == String(decoding: try treeBytes(Login()), as: UTF8.self))
  }

  @Test func aContainerUsedAfterALaterSiblingIsHandedBack() {
    #expect(streamed(NestedAfterSibling()) == nil)
  }

  @Test func aSuperEncoderIsHandedBack() {
    #expect(streamed(SuperEncoding()) == nil)
  }

  @Test func aSingleValueWrittenTwiceOrBeforeAContainerIsHandedBack() {
    #expect(streamed(SingleTwice()) == nil)
    #expect(streamed(ContainerAfterSingle()) == nil)
  }

  @Test func aValueWhoseEncodingThrowsIsHandedBack() {
    #expect(streamed(NotFinite()) == nil)
  }

  @Test func theExportWritesTheTreeEncodersBytesForValuesHandedBack() throws {
    let exporter = ExportEncoder(redaction: .default)
    func written<Value: Encodable>(_ value: Value) throws -> (String, String) {
      var writer = JSONWriter()
      _ = exporter.encoding(of: Value.self).write(value, into: &writer)
      return (
        String(decoding: writer.bytes, as: UTF8.self), String(decoding: try treeBytes(value), as: UTF8.self)
      )
    }
    for (streamedText, treeText) in [
      try written(KeyTwice()), try written(NestedAfterSibling()), try written(SuperEncoding()),
      try written(SingleTwice()), try written(ContainerAfterSingle()),
    ] {
      #expect(streamedText == treeText)
    }
    #expect(try written(KeyTwice()).0 == #"{"a":"again","b":2}"#)
  }

  @Test func smallValuesWrittenFromTheCacheAreTheirOwn() {
    let encoding = ExportEncoder(redaction: .default).encoding(of: Action.self)
    var writer = JSONWriter()
    for value in [Action.add(1), .add(2), .add(1), .increment, .add(2)] {
      _ = encoding.write(value, into: &writer)
      writer.append(UInt8(ascii: " "))
    }
    #expect(
      String(decoding: writer.bytes, as: UTF8.self)
        == #"{"add":{"_0":1}} {"add":{"_0":2}} {"add":{"_0":1}} {"increment":{}} {"add":{"_0":2}} "#)
  }

  @Test func valuesPastAFullCacheOfNewValuesAreWrittenAlike() {
    let encoding = ExportEncoder(redaction: .default).encoding(of: Action.self)
    var mismatches = 0
    // 1,024 values fill the cache; thousands of new ones after it make the encoding stop
    // looking values up, which must not change a byte.
    for n in 0..<8_000 {
      var writer = JSONWriter()
      _ = encoding.write(Action.add(n % 7_000), into: &writer)
      if String(decoding: writer.bytes, as: UTF8.self) != #"{"add":{"_0":\#(n % 7_000)}}"# { mismatches += 1 }
    }
    #expect(mismatches == 0)
  }

  @Test func aPolicyWithRulesWritesThroughTheTreeEncoder() {
    let encoding = ExportEncoder(redaction: Redaction(keys: ["user"])).encoding(of: Login.self)
    #expect(encoding.streamed == nil)
    var writer = JSONWriter()
    _ = encoding.write(Login(), into: &writer)
    #expect(
      String(decoding: writer.bytes, as: UTF8.self)
        == #"{"user":"<redacted>","pin":"<redacted>","pins":["<redacted>","<redacted>"]}"#)
  }
}
