import ChronicleFormats
import ChronicleInspection
import ChronicleStore
import ChronicleTracer
import Foundation
import Synchronization
import Testing

/// `JournalJSONWritable`: an action that writes its own JSON, used through the public API only
/// (no `@testable`), compared byte for byte with what its `Encodable` conformance gives.
@Suite struct JournalJSONWritableTests {
  struct Address: Codable, Sendable, Equatable {
    var street: String
    var number: Int
  }

  /// An action of every shape of case a writer names, with a writer as the documentation says.
  enum Order: Codable, Sendable, Equatable, JournalJSONWritable {
    case add(Int)
    case rename(to: String)
    case price(Double, currency: String?)
    case flags(on: Bool, mask: UInt8, big: Int64, ratio: Float)
    case address(Address)
    case login(user: String, password: Redacted<String>)
    case reset

    func writeJournalJSON(to json: inout JournalJSONWriter) {
      switch self {
      case .add(let amount): json.enumCase("add") { $0.member("_0", amount) }
      case .rename(let name): json.enumCase("rename") { $0.member("to", name) }
      case .price(let price, let currency):
        json.enumCase("price") {
          $0.member("_0", price)
          $0.member("currency", currency)
        }
      case .flags(let on, let mask, let big, let ratio):
        json.enumCase("flags") {
          $0.member("on", on)
          $0.member("mask", mask)
          $0.member("big", big)
          $0.member("ratio", ratio)
        }
      case .address(let address): json.enumCase("address") { $0.member("_0", address) }
      case .login(let user, let password):
        json.enumCase("login") {
          $0.member("user", user)
          $0.member("password", password)
        }
      case .reset: json.enumCase("reset")
      }
    }
  }

  /// The same action without a writer of its own: encoded through `Encodable` alone.
  struct Plain<Wrapped: Encodable & Sendable>: Encodable, Sendable {
    var wrapped: Wrapped
    func encode(to encoder: any Encoder) throws { try wrapped.encode(to: encoder) }
  }

  static let orders: [Order] = [
    .add(5), .add(-9_223_372_036_854_775_807), .rename(to: "a \"quoted\"\n\u{1}name é"),
    .price(0.1, currency: "EUR"), .price(-2.5e-300, currency: nil), .price(3, currency: nil),
    .flags(on: true, mask: 255, big: .min, ratio: 0.25), .flags(on: false, mask: 0, big: 7, ratio: -1e30),
    .address(Address(street: "Main", number: 12)), .login(user: "ana", password: Redacted("hunter2")),
    .reset, .add(6),
  ]

  /// The README's example.
  enum Documented {
    enum Action: Codable, Sendable, JournalJSONWritable {
      case add(Int)
      case rename(to: String)
      case reset

      func writeJournalJSON(to json: inout JournalJSONWriter) {
        switch self {
        case .add(let amount): json.enumCase("add") { $0.member("_0", amount) }
        case .rename(let name): json.enumCase("rename") { $0.member("to", name) }
        case .reset: json.enumCase("reset")
        }
      }
    }
  }

  @Test func theREADMEsExampleWritesWhatCodableWrites() {
    typealias Action = Documented.Action
    #expect(Action.add(2).journalJSONMismatch() == nil)
    #expect(Action.rename(to: "Ana").journalJSONMismatch() == nil)
    #expect(Action.reset.journalJSONMismatch() == nil)
  }

  @Test(arguments: orders)
  func eachCaseWritesTheBytesItsEncodableConformanceGives(order: Order) {
    #expect(order.journalJSONMismatch() == nil)
  }

  /// Random values of every case (a fixed seed): strings of any scalar, control characters and
  /// quotes included, numbers of any magnitude and sign, subnormal and negative zero included.
  @Test func randomValuesOfEveryCaseWriteTheirEncodableBytes() {
    var random = SeededGenerator(state: 0x5EED_2026_1127)
    func string() -> String {
      let scalars = (0..<Int(random.next() % 12)).compactMap { _ -> Unicode.Scalar? in
        switch random.next() % 4 {
        case 0: Unicode.Scalar(UInt32(random.next() % 0x20))
        case 1: Unicode.Scalar(UInt32([0x22, 0x5C, 0x2F, 0x7F][Int(random.next() % 4)]))
        case 2: Unicode.Scalar(UInt32(random.next() % 0x11_0000))
        default: Unicode.Scalar(UInt32(0x20 + random.next() % 0x5F))
        }
      }
      return String(String.UnicodeScalarView(scalars))
    }
    func double() -> Double {
      let bits = random.next()
      switch random.next() % 4 {
      case 0: return Double(bitPattern: bits & ~(0x7FF << 52))  // subnormal or zero, either sign
      case 1: return Double(Int64(bitPattern: bits)) / 1_000
      default: return Double(bitPattern: bits).isFinite ? Double(bitPattern: bits) : 0.5
      }
    }
    var mismatches: [JournalJSONMismatch] = []
    for _ in 0..<3_000 {
      let order: Order =
        switch random.next() % 7 {
        case 0: .add(Int(bitPattern: UInt(random.next())))
        case 1: .rename(to: string())
        case 2: .price(double(), currency: random.next() % 2 == 0 ? nil : string())
        case 3:
          .flags(
            on: random.next() % 2 == 0, mask: UInt8(truncatingIfNeeded: random.next()),
            big: Int64(bitPattern: random.next()),
            ratio: Float(bitPattern: UInt32(truncatingIfNeeded: random.next())))
        case 4: .address(Address(street: string(), number: Int(bitPattern: UInt(random.next()))))
        case 5: .login(user: string(), password: Redacted(string()))
        default: .reset
        }
      if let mismatch = order.journalJSONMismatch() { mismatches.append(mismatch) }
    }
    // A float that is not finite is written by neither: the conformance throws for it.
    #expect(mismatches.allSatisfy { $0.reason == .notEncodable })
    #expect(mismatches.count < 30)
  }

  /// The lines of a sink for `actions`, from each line's cause to its durations: cause, case
  /// name, action, whether it is replayable, outcome.
  /// `mismatch` receives the sink's ``NDJSONFileSink/journalJSONMismatch`` once it is closed.
  private static func lineParts<Action: Sendable>(
    _ actions: [Action], options: ExportOptions = ExportOptions(),
    mismatch: ((JournalJSONMismatch?) -> Void) = { #expect($0 == nil) }
  )
    throws -> [String]
  {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "chronicle-writable-\(UUID()).ndjson")
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Int, Action>(url: url, options: options)
    let journal = Journal<Int, Action>(configuration: .init(sinks: [sink])) { count, _ in
      count += 1
      return .none
    }
    let store = Store(initialState: 0, middleware: [.tracer(journal)]) { count, _ in
      count += 1
      return .none
    }
    for action in actions { store.send(action) }
    sink.close()
    #expect(sink.error == nil)
    mismatch(sink.journalJSONMismatch)
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst()
    return try lines.map { line in
      let from = try #require(line.range(of: #","cause":"#)).lowerBound
      let to = try #require(line.range(of: #","durations":"#)).lowerBound
      return String(line[from..<to])
    }
  }

  @Test func aSinkWritesEveryLineAsTheEncodableConformanceWould() throws {
    let written = try Self.lineParts(Self.orders)
    #expect(written.count == Self.orders.count)
    // The plain wrapper is no enum: its lines name its type, not the case.
    let plain = try Self.lineParts(Self.orders.map(Plain.init)).enumerated().map { index, part in
      part.replacingOccurrences(
        of: #""type":"Plain<Order>""#, with: #""type":"\#(Self.caseName(Self.orders[index]))""#)
    }
    #expect(written == plain)
    #expect(
      written.first == #","cause":{"kind":"user"},"type":"add","action":{"add":{"_0":5}},"#
        + #""replayable":true,"outcome":"reduced""#)
    #expect(written.contains { $0.contains(#""password":"<redacted>""#) })
    #expect(!written.joined().contains("hunter2"))
  }

  private static func caseName(_ order: Order) -> String {
    String(String(describing: order).prefix { $0 != "(" })
  }

  /// A writer that names one case's member wrongly.
  enum Misnamed: Codable, Sendable, JournalJSONWritable {
    case add(Int)
    case reset

    func writeJournalJSON(to json: inout JournalJSONWriter) {
      switch self {
      case .add(let amount): json.enumCase("add") { $0.member("amount", amount) }
      case .reset: json.enumCase("reset")
      }
    }
  }

  /// A member that writes its own JSON too.
  struct Place: Codable, Sendable, Equatable, JournalJSONWritable {
    var name: String
    var floor: Int?

    func writeJournalJSON(to json: inout JournalJSONWriter) {
      json.object {
        $0.member("name", name)
        $0.member("floor", floor)
      }
    }
  }

  enum Visit: Codable, Sendable, JournalJSONWritable {
    case at(Place, times: [Int])

    func writeJournalJSON(to json: inout JournalJSONWriter) {
      switch self {
      case .at(let place, let times):
        json.enumCase("at") {
          $0.member("_0", place)
          $0.member("times", times)
        }
      }
    }
  }

  /// A member whose writer names its key wrongly, in a value whose own writer is right.
  struct Misplaced: Codable, Sendable, JournalJSONWritable {
    var name: String
    func writeJournalJSON(to json: inout JournalJSONWriter) { json.object { $0.member("title", name) } }
  }

  struct Holder: Codable, Sendable, JournalJSONWritable {
    var place: Misplaced
    func writeJournalJSON(to json: inout JournalJSONWriter) { json.object { $0.member("place", place) } }
  }

  @Test func aMemberThatWritesItselfIsWrittenByItsWriterAndCheckedWithTheValue() throws {
    // The member's writer is used (its wrong key is found, after `{"place":{"`).
    #expect(Holder(place: Misplaced(name: "a")).journalJSONMismatch()?.offset == 11)
    #expect(Visit.at(Place(name: "x\"y", floor: nil), times: [1, 2]).journalJSONMismatch() == nil)
    #expect(Visit.at(Place(name: "hall", floor: -1), times: []).journalJSONMismatch() == nil)
    let parts = try Self.lineParts([Visit.at(Place(name: "hall", floor: 3), times: [4])])
    #expect(parts[0].contains(#""action":{"at":{"_0":{"name":"hall","floor":3},"times":[4]}}"#))
  }

  /// A value encoded as its one member, through a single-value container.
  struct Switch: Codable, Sendable, JournalJSONWritable {
    enum Position: Codable, Sendable { case on(Int), off }
    var position: Position

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(position)
    }

    init(_ position: Position) { self.position = position }
    init(from decoder: any Decoder) throws {
      position = try decoder.singleValueContainer().decode(Position.self)
    }

    func writeJournalJSON(to json: inout JournalJSONWriter) {
      switch position {
      case .on(let level): json.value(Wrapped(level: level))
      case .off: json.value(position)
      }
    }

    /// `.on` written by a writer of its own, as a single value.
    struct Wrapped: Encodable, JournalJSONWritable {
      var level: Int
      func writeJournalJSON(to json: inout JournalJSONWriter) {
        json.enumCase("on") { $0.member("_0", level) }
      }
    }
  }

  @Test func aSingleValueKeepsItsOneMembersKeyAsTheEncodersDoes() throws {
    #expect(Switch(.on(3)).journalJSONMismatch() == nil)
    #expect(Switch(.off).journalJSONMismatch() == nil)
    let parts = try Self.lineParts([Switch(.on(1)), Switch(.off), Switch(.on(2))])
    #expect(parts.map { $0.contains(#""action":{"on":{"_0":"#) } == [true, false, true])
  }

  @Test func aWriterThatDiffersIsFoundAndItsValuesWrittenAsEncodableWritesThem() throws {
    let mismatch = try #require(Misnamed.add(3).journalJSONMismatch())
    #expect(mismatch.reason == .differs)
    #expect(mismatch.offset == 9)  // {"add":{" then `amount` for `_0`
    #expect(mismatch.expected == #"{"add":{"_0":3}}"#)
    #expect(Misnamed.reset.journalJSONMismatch() == nil)
    // The sink compares the first value of each case: `.reset` matches, `.add`'s first does
    // not, and from then on nothing the writer writes is used.
    let parts = try Self.lineParts([Misnamed.reset, .add(1), .add(2), .reset]) { found in
      #expect(found == JournalJSONMismatch(offset: 9, expected: #"{"add":{"_0":1}}"#, reason: .differs))
    }
    #expect(parts.map { $0.contains(#"{"add":{"_0":"#) } == [false, true, true, false])
    #expect(!parts.joined().contains("amount"))
  }

  @Test func theMismatchIsReadWhileAnotherThreadFormatsLines() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "chronicle-writable-\(UUID()).ndjson")
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Int, Misnamed>(url: url, writing: .inBackground())
    let journal = Journal<Int, Misnamed>(configuration: .init(sinks: [sink])) { count, _ in
      count += 1
      return .none
    }
    let store = Store(initialState: 0, middleware: [.tracer(journal)]) { count, _ in
      count += 1
      return .none
    }
    let seen = Mutex<[JournalJSONMismatch?]>([])
    DispatchQueue.concurrentPerform(iterations: 4) { lane in
      if lane == 0 {
        for _ in 0..<2_000 { seen.withLock { $0.append(sink.journalJSONMismatch) } }
      } else {
        for amount in 0..<500 { store.send(amount.isMultiple(of: 7) ? .reset : .add(amount)) }
      }
    }
    sink.close()
    #expect(sink.linesWritten == 1 + 1_500)
    // Whatever a read saw before the sink found it, it never changes once found.
    let found = seen.withLock { $0.compactMap { $0 } }
    #expect(
      found.allSatisfy { $0.reason == .differs && $0.offset == 9 && $0.expected.hasPrefix(#"{"add":{"_0":"#) }
    )
    #expect(Set(found).count <= 1)
    #expect(sink.journalJSONMismatch?.reason == .differs)
    #expect(!(try String(contentsOf: url, encoding: .utf8)).contains("amount"))
  }

  /// A writer right for small amounts only: the first value of its case matches.
  enum WrongAbove100: Codable, Sendable, JournalJSONWritable {
    case add(Int)

    func writeJournalJSON(to json: inout JournalJSONWriter) {
      switch self {
      case .add(let amount): json.enumCase("add") { $0.member(amount > 100 ? "big" : "_0", amount) }
      }
    }
  }

  @Test func aWriterWrongForSomeValuesIsCaughtByTheCheckOfOneValueIn1024() throws {
    // Value 1 is compared (its case's first), values 2…1,024 are not, value 1,025 is.
    let parts = try Self.lineParts((1...1_100).map { WrongAbove100.add($0 == 1 ? 1 : 1_000 + $0) }) {
      #expect($0 == JournalJSONMismatch(offset: 9, expected: #"{"add":{"_0":2025}}"#, reason: .differs))
    }
    let wrong = parts.indices.filter { parts[$0].contains(#""big":"#) }
    #expect(wrong == Array(1...1_023))
    #expect(WrongAbove100.add(500).journalJSONMismatch()?.offset == 9)
  }

  /// A writer that unwraps a secret its conformance redacts.
  struct Login: Codable, Sendable, JournalJSONWritable {
    var user: String
    var password: Redacted<String>

    func writeJournalJSON(to json: inout JournalJSONWriter) {
      json.object {
        $0.member("user", user)
        $0.member("password", password.wrappedValue)
      }
    }
  }

  @Test func aWriterThatUnwrapsASecretNeverGetsItWritten() throws {
    let login = Login(user: "ana", password: Redacted("hunter2"))
    let mismatch = try #require(login.journalJSONMismatch())
    #expect(mismatch.expected == #"{"user":"ana","password":"<redacted>"}"#)
    #expect(!mismatch.description.contains("hunter2"))
    let parts = try Self.lineParts([login, login]) { found in
      #expect(found?.expected == #"{"user":"ana","password":"<redacted>"}"#)
      #expect(!(found?.description.contains("hunter2") ?? true))
    }
    #expect(parts.count == 2)
    #expect(!parts.joined().contains("hunter2"))
  }

  @Test func underAPolicyWithKeyNamesTheWriterIsNotUsed() throws {
    let options = ExportOptions(redaction: Redaction(keys: ["to"]))
    let parts = try Self.lineParts([Order.rename(to: "secret name"), .add(1)], options: options)
    #expect(parts[0].contains(#"{"rename":{"to":"<redacted>"}}"#))
    #expect(!parts.joined().contains("secret name"))
    #expect(Order.rename(to: "x").journalJSONMismatch(redaction: Redaction(keys: ["to"]))?.offset == 17)
  }

  /// Writers that write no value, two values, or a number JSON cannot hold.
  enum Unwritable: Codable, Sendable, JournalJSONWritable {
    case nothing
    case twice
    case infinite(Double)

    func writeJournalJSON(to json: inout JournalJSONWriter) {
      switch self {
      case .nothing: break
      case .twice:
        json.enumCase("twice")
        json.enumCase("twice")
      case .infinite(let number): json.enumCase("infinite") { $0.member("_0", number) }
      }
    }
  }

  @Test func aWriterThatWritesNoSingleValueIsReportedAndNotUsed() throws {
    #expect(Unwritable.nothing.journalJSONMismatch()?.reason == .notWritten)
    #expect(Unwritable.twice.journalJSONMismatch()?.reason == .notWritten)
    #expect(Unwritable.infinite(.infinity).journalJSONMismatch()?.reason == .notEncodable)
    #expect(Unwritable.infinite(1).journalJSONMismatch() == nil)
    let parts = try Self.lineParts([Unwritable.nothing, .twice, .infinite(.infinity), .infinite(2)])
    #expect(parts[0].contains(#""action":{"nothing":{}},"replayable":true"#))
    #expect(parts[1].contains(#""action":{"twice":{}},"replayable":true"#))
    // The conformance throws for an infinity: the action is described, not encoded, as without a writer.
    #expect(parts[2].contains(#""replayable":false"#))
    #expect(parts[3].contains(#""action":{"infinite":{"_0":2.0}},"replayable":true"#))
  }

  @Test func aJournalJSONExportWritesWhatTheEncodableConformanceWould() throws {
    let journal = Journal<Int, Order>(configuration: .init()) { count, _ in
      count += 1
      return .none
    }
    let plainJournal = Journal<Int, Plain<Order>>(configuration: .init()) { count, _ in
      count += 1
      return .none
    }
    let store = Store(initialState: 0, middleware: [.tracer(journal)]) { count, _ in
      count += 1
      return .none
    }
    let plainStore = Store(initialState: 0, middleware: [.tracer(plainJournal)]) { count, _ in
      count += 1
      return .none
    }
    for order in Self.orders {
      store.send(order)
      plainStore.send(Plain(wrapped: order))
    }
    // Each entry's action, byte for byte as the export wrote it (after the meta's action type).
    func actions(_ data: Data) -> [String] {
      String(decoding: data, as: UTF8.self).components(separatedBy: #""action":"#).dropFirst(2).map {
        String($0.prefix { $0 != "\n" }.components(separatedBy: #","replayable":"#)[0])
      }
    }
    let written = actions(journal.snapshot().journalJSON())
    #expect(written.count == Self.orders.count)
    #expect(written[0] == #"{"add":{"_0":5}}"#)
    #expect(written == actions(plainJournal.snapshot().journalJSON()))
  }
}
