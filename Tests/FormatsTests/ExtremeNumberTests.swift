import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing
import TracerFixtures

@testable import ChronicleFormats
@testable import ChronicleTracer

/// Numbers at the edges of their fields: each is either refused with the error that names its
/// entry and field, or accepted and exported without overflow (docs/formats/journal-json.md,
/// "Number ranges").
@Suite struct ExtremeNumberTests {
  /// A recorded run of three actions: its Journal JSON and its NDJSON stream.
  private func recorded() throws -> (json: String, ndjson: String) {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "chronicle-extreme-\(UUID()).ndjson")
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Counter.State, Counter.Action>(url: url)
    let (store, journal) = makeTracedStore(.init(sinks: [sink]))
    store.send(.increment)
    store.send(.add(2))
    store.send(.decrement)
    let json = String(decoding: journal.snapshot().journalJSON(), as: UTF8.self)
    return (json, try String(contentsOf: url, encoding: .utf8))
  }

  /// `text` with the first match of `pattern` (a regular expression) replaced.
  private func replacing(_ text: String, _ pattern: String, with replacement: String) throws -> Data {
    let range = try #require(text.range(of: pattern, options: .regularExpression))
    return Data(text.replacingCharacters(in: range, with: replacement).utf8)
  }

  private func importJSON(_ data: Data) throws(JournalImportError) -> CounterJournal {
    try CounterJournal(journalJSON: data, reducer: Counter())
  }

  @Test func anEntryIndexNearIntMaxIsOutOfRangeInJournalJSON() throws {
    let json = try recorded().json
    var data = try replacing(json, #""firstIndex":0"#, with: #""firstIndex":9223372036854775806"#)
    #expect(
      throws: JournalImportError.numberOutOfRange(
        entry: nil, field: "meta.firstIndex", value: "9223372036854775806 (valid: 0…9007199254740991)")
    ) { try importJSON(data) }
    data = try replacing(json, #""index":0"#, with: #""index":9223372036854775807"#)
    #expect(
      throws: JournalImportError.numberOutOfRange(
        entry: 0, field: "entries[0].index", value: "9223372036854775807 (valid: 0…9007199254740991)")
    ) { try importJSON(data) }
  }

  @Test func anEntryIndexNearIntMaxIsOutOfRangeInNDJSON() throws {
    let data = try replacing(recorded().ndjson, #""index":0"#, with: #""index":9223372036854775807"#)
    #expect(
      throws: JournalImportError.numberOutOfRange(
        entry: 0, field: "entries[0].index", value: "9223372036854775807 (valid: 0…9007199254740991)")
    ) { try CounterJournal.loadNDJSON(data, reducer: Counter()) }
  }

  @Test func theLargestIndexIsAcceptedAndItsSuccessorRefused() throws {
    let json = try recorded().json
    let first = JournalNumberRange.maxCount - 2
    var data = try replacing(json, #""firstIndex":0"#, with: #""firstIndex":\#(first)"#)
    for index in 0..<3 {
      data = try replacing(
        String(decoding: data, as: UTF8.self), #""index":\#(index),"#, with: #""index":\#(first + index),"#)
    }
    let journal = try importJSON(data)
    #expect(journal.indices == first..<(first + 3))
    #expect(try importJSON(journal.snapshot().journalJSON()).indices == first..<(first + 3))
    let beyond = try replacing(json, #""firstIndex":0"#, with: #""firstIndex":\#(first + 3)"#)
    #expect(throws: JournalImportError.self) { try importJSON(beyond) }
  }

  @Test func aTimeNearTheInt64LimitIsOutOfRange() throws {
    let data = try replacing(recorded().json, #""time":\d+"#, with: #""time":9223372036854775807"#)
    #expect(
      throws: JournalImportError.numberOutOfRange(
        entry: 0, field: "entries[0].time",
        value: "9223372036854775807 (valid: -4611686018427387903…4611686018427387903)")
    ) { try importJSON(data) }
  }

  @Test func anOriginWallTimeOfInt64MinIsOutOfRange() throws {
    let data = try replacing(recorded().json, #""wallTime":-?\d+"#, with: #""wallTime":-9223372036854775808"#)
    #expect(
      throws: JournalImportError.numberOutOfRange(
        entry: nil, field: "meta.origin.wallTime",
        value: "-9223372036854775808 (valid: -4611686018427387903…4611686018427387903)")
    ) { try importJSON(data) }
  }

  @Test func timesAtTheEdgesOfTheirRangeExportInEveryFormat() throws {
    let json = try recorded().json
    let edge = JournalNumberRange.maxTime
    var data = try replacing(json, #""wallTime":-?\d+"#, with: #""wallTime":-\#(edge)"#)
    data = try replacing(
      String(decoding: data, as: UTF8.self), #""time":\d+"#, with: #""time":\#(edge - 10)"#)
    for _ in 0..<2 {
      data = try replacing(
        String(decoding: data, as: UTF8.self), #""time":\d{1,12},"#, with: #""time":\#(edge),"#)
    }
    data = try replacing(
      String(decoding: data, as: UTF8.self), #""index":0,"seq":1,"time":\d+,"wallTime":-?\d+"#,
      with: #""index":0,"seq":1,"time":\#(edge - 10),"wallTime":\#(edge)"#)
    let snapshot = try importJSON(data).snapshot()
    #expect(snapshot.entries.map { nanoseconds($0.time) } == [edge - 10, edge, edge])
    #expect(!snapshot.chromeTrace().isEmpty)
    #expect(!snapshot.reduxDevTools(.liftedState).isEmpty)
    #expect(!snapshot.htmlViewer().isEmpty)
    let again = try importJSON(snapshot.journalJSON())
    #expect(again.snapshot().entries.map { nanoseconds($0.time) } == [edge - 10, edge, edge])
    let document = try JournalFile(data: snapshot.journalJSON())
    #expect(document.entries.map(\.time) == [edge - 10, edge, edge])
    #expect(!document.chromeTrace().isEmpty && !document.reduxDevTools().isEmpty)
  }

  @Test func aReduxSequenceOfUInt64MaxIsOutOfRange() throws {
    let payload =
      #"[{"type":"increment","payload":{"increment":{}},"meta":{"seq":18446744073709551615}},"#
      + #"{"type":"increment","payload":{"increment":{}}}]"#
    let file = #"{"payload":\#(String(reflecting: payload)),"preloadedState":"{\"count\":0,\"log\":[]}"}"#
    #expect(
      throws: JournalImportError.numberOutOfRange(
        entry: 0, field: "payload[0].meta.seq", value: "18446744073709551615 (valid: 1…9007199254740991)")
    ) { try CounterJournal(reduxDevTools: Data(file.utf8), reducer: Counter()) }
  }

  @Test func theLargestReduxSequenceIsFollowedWithoutOverflow() throws {
    let payload =
      #"[{"type":"increment","payload":{"increment":{}},"meta":{"seq":9007199254740990}},"#
      + #"{"type":"increment","payload":{"increment":{}}}]"#
    let file = #"{"payload":\#(String(reflecting: payload)),"preloadedState":"{\"count\":0,\"log\":[]}"}"#
    let journal = try CounterJournal(reduxDevTools: Data(file.utf8), reducer: Counter())
    #expect(journal.snapshot().entries.map(\.sequence) == [9_007_199_254_740_990, 9_007_199_254_740_991])
  }

  @Test func committingThroughIntMaxCommitsEveryEntry() {
    let (store, journal) = makeTracedStore()
    store.send(.increment)
    store.send(.increment)
    journal.commit(through: .max)
    #expect(journal.snapshot().isEmpty)
    #expect(journal.snapshot().baseState?.count == 2)
  }

  /// The limit of the ``JournalImportError/tooDeep(entry:field:limit:)`` that `body` throws.
  private func depthLimit<T>(_ body: () throws(JournalImportError) -> T) -> Int? {
    do {
      _ = try body()
    } catch {
      if case .tooDeep(_, _, let limit) = error { return limit }
    }
    return nil
  }

  @Test func aRaisedDepthLimitStillStopsAtTheParsersMaximum() {
    let depth = 1_000_000
    let data =
      Data(repeating: UInt8(ascii: "["), count: depth) + Data(repeating: UInt8(ascii: "]"), count: depth)
    let limits = JournalImportLimits(maxDepth: .max)
    #expect(
      depthLimit { () throws(JournalImportError) in try JournalFile(data: data, limits: limits) } == 512)
    #expect(
      depthLimit { () throws(JournalImportError) in
        try CounterJournal(journalJSON: data, reducer: Counter(), limits: limits)
      } == 512)
  }
}
