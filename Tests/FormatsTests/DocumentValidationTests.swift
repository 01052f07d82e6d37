import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing
import TracerFixtures

@testable import ChronicleFormats
@testable import ChronicleTracer

/// `JournalFile` (the viewer's and the command-line tool's loader) checks what the typed
/// importers check, with the same code: the same file gives the same error.
@Suite struct DocumentValidationTests {
  private func recordedJSON() -> String {
    let (store, journal) = makeTracedStore()
    store.send(.increment)
    store.send(.add(2))
    store.send(.decrement)
    return String(decoding: journal.snapshot().journalJSON(), as: UTF8.self)
  }

  private func recordedStream() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("chronicle-doc-\(UUID()).ndjson")
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Counter.State, Counter.Action>(url: url)
    let (store, _) = makeTracedStore(.init(sinks: [sink]))
    store.send(.increment)
    store.send(.add(2))
    store.send(.decrement)
    sink.close()
    return try String(contentsOf: url, encoding: .utf8)
  }

  /// The error each loader throws for `text`, `nil` for a loader that accepts it.
  private func errors(json text: String) -> (typed: JournalImportError?, document: JournalImportError?) {
    let data = Data(text.utf8)
    var typed: JournalImportError?
    var document: JournalImportError?
    do { _ = try CounterJournal(journalJSON: data, reducer: Counter()) } catch { typed = error }
    do { _ = try JournalFile(data: data) } catch { document = error }
    return (typed, document)
  }

  private func errors(stream text: String) -> (typed: JournalImportError?, document: JournalImportError?) {
    let data = Data(text.utf8)
    var typed: JournalImportError?
    var document: JournalImportError?
    do { _ = try CounterJournal.loadNDJSON(data, reducer: Counter()) } catch { typed = error }
    do { _ = try JournalFile(data: data) } catch { document = error }
    return (typed, document)
  }

  /// Every member of an entry's envelope broken each way a hostile file breaks it: both loaders
  /// read the envelope with the one schema reader (from tokens, from a tree), and refuse it with
  /// the same error, which names entry 1 and the field.
  @Test func everyBrokenEnvelopeMemberGetsTheSameErrorFromBothLoaders() throws {
    let text = recordedJSON()
    let start = try #require(text.range(of: #"{"index":1,"seq":2,"#)).lowerBound
    let end = try #require(text.range(of: #"{"index":2,"seq":3,"#)).lowerBound
    let entry = String(text[start..<end])
    let breakages: [(pattern: String, replacement: String)] = [
      (#""index":1"#, #""index":"1""#), (#""index":1,"#, ""),
      (#""seq":2"#, #""seq":"2""#), (#""seq":2"#, #""seq":2.5"#), (#""seq":2"#, #""seq":0"#),
      (#""seq":2"#, #""seq":99999999999999999999"#), (#""seq":2,"#, ""),
      (#""time":\d+"#, #""time":true"#), (#""time":\d+"#, #""time":1e3"#), (#""time":\d+,"#, ""),
      (#""wallTime":\d+"#, #""wallTime":null"#), (#""wallTime":\d+"#, #""wallTime":-9223372036854775808"#),
      (#""seq":2,"#, #""seq":2,"context":5,"#),
      (#""cause":\{[^}]*\}"#, #""cause":[]"#), (#""cause":\{[^}]*\}"#, #""cause":{}"#),
      (#""cause":\{[^}]*\}"#, #""cause":{"kind":7}"#),
      (#""cause":\{[^}]*\}"#, #""cause":{"kind":"user","parent":2}"#),
      (#""cause":\{[^}]*\}"#, #""cause":{"kind":"user","effect":"e"}"#),
      (#""cause":\{[^}]*\}"#, #""cause":{"kind":"user","label":false}"#),
      (#""site":\{[^}]*\}"#, #""site":"here""#),
      (#""site":\{[^}]*\}"#, #""site":{"fileID":"A.swift","line":0,"function":"f()"}"#),
      (#""site":\{[^}]*\}"#, #""site":{"fileID":"A.swift","line":3}"#),
      (#""outcome":"reduced""#, #""outcome":"done""#), (#""outcome":"reduced""#, #""outcome":1"#),
      (#""durations":\{[^}]*\}"#, #""durations":{}"#),
      (#""durations":\{[^}]*\}"#, #""durations":{"chain":-1}"#),
      (#""durations":\{[^}]*\}"#, #""durations":{"chain":1,"reducer":4294967295}"#),
      (#""durations":\{[^}]*\}"#, #""durations":7"#),
    ]
    for (pattern, replacement) in breakages {
      let range = try #require(entry.range(of: pattern, options: .regularExpression), "\(pattern)")
      let broken = text.replacingOccurrences(
        of: entry, with: entry.replacingCharacters(in: range, with: replacement))
      let (typed, document) = errors(json: broken)
      #expect(typed != nil, "\(replacement)")
      #expect(
        typed?.description.contains("entries[1]") == true, "\(replacement): \(String(describing: typed))")
      #expect(typed == document, "\(replacement)")
    }
    // A key written with an escape is the same key for both.
    let escaped = text.replacingOccurrences(
      of: entry, with: entry.replacingOccurrences(of: #""seq":2"#, with: #""se\u0071":2"#))
    #expect(escaped != text)
    #expect(errors(json: escaped) == (nil, nil))
  }

  @Test func nullEffectsAreRefusedByBothLoaders() {
    let text = recordedJSON().replacingOccurrences(of: #""effects":[]"#, with: #""effects":null"#)
    let expected = JournalImportError.wrongType(
      entry: nil, field: "effects", expected: "array", found: "null")
    #expect(errors(json: text) == (expected, expected))
  }

  @Test func aNegativeIndexIsRefusedByBothLoaders() {
    let text = recordedJSON().replacingOccurrences(of: #""index":1,"#, with: #""index":-1,"#)
    let expected = JournalImportError.numberOutOfRange(
      entry: 1, field: "entries[1].index", value: "-1 (valid: 0…9007199254740991)")
    #expect(errors(json: text) == (expected, expected))
  }

  @Test func indicesThatSkipAreRefusedByBothLoaders() {
    let text = recordedJSON().replacingOccurrences(of: #""index":2,"#, with: #""index":7,"#)
    let expected = JournalImportError.invalidValue(
      entry: 2, field: "entries[2].index", reason: "expected index 2 after the previous entry, found 7")
    #expect(errors(json: text) == (expected, expected))
  }

  @Test func timeGoingBackwardsIsRefusedByBothLoaders() throws {
    let text = recordedJSON()
    let previous = try #require(
      text.range(of: #"(?<="index":1,"seq":2,"time":)\d+"#, options: .regularExpression))
    let range = try #require(
      text.range(of: #"(?<="index":2,"seq":3,"time":)\d+"#, options: .regularExpression))
    let expected = JournalImportError.invalidValue(
      entry: 2, field: "entries[2].time", reason: "monotonic time goes backwards (0 after \(text[previous]))")
    #expect(errors(json: text.replacingCharacters(in: range, with: "0")) == (expected, expected))
  }

  @Test func aDeclaredEntryCountThatDiffersIsRefusedByBothLoaders() {
    let text = recordedJSON().replacingOccurrences(of: #""entryCount":3"#, with: #""entryCount":4"#)
    let expected = JournalImportError.invalidValue(
      entry: nil, field: "meta.entryCount", reason: "says 4 entries, the file has 3")
    #expect(errors(json: text) == (expected, expected))
  }

  @Test func aCompleteButUnterminatedLastLineIsTornForBothLoaders() throws {
    var text = try recordedStream()
    text.removeLast()  // the last line's newline
    let document = try JournalFile(data: Data(text.utf8))
    let loaded = try CounterJournal.loadNDJSON(Data(text.utf8), reducer: Counter())
    #expect(document.count == 2)
    #expect(loaded.journal.count == 2)
    #expect(document.tornLine == loaded.tornLine)
    #expect(document.tornLine?.lineNumber == 4)
  }

  @Test func aStreamWhoseFirstEntryHasNoCheckpointIsRefusedByBothLoaders() throws {
    let text = try recordedStream()
    let range = try #require(
      text.range(of: #","checkpoint":\{"kind":"resync","state":\{[^}]*\}\}"#, options: .regularExpression))
    let stripped = text.replacingCharacters(in: range, with: "")
    let expected = JournalImportError.missingField(entry: 0, field: "entries[0].checkpoint")
    #expect(errors(stream: stripped) == (expected, expected))
  }

  @Test func aStreamWithATimeOutOfRangeIsRefusedByBothLoaders() throws {
    let text = try recordedStream()
    let range = try #require(text.range(of: #"(?<="seq":2,"time":)\d+"#, options: .regularExpression))
    let expected = JournalImportError.numberOutOfRange(
      entry: 1, field: "entries[1].time",
      value: "-9223372036854775808 (valid: -4611686018427387903…4611686018427387903)")
    #expect(
      errors(stream: text.replacingCharacters(in: range, with: "-9223372036854775808")) == (
        expected, expected
      ))
  }

  private func errors(
    redux text: String, limits: JournalImportLimits = .default
  ) -> (typed: JournalImportError?, document: JournalImportError?) {
    let data = Data(text.utf8)
    var typed: JournalImportError?
    var document: JournalImportError?
    do { _ = try CounterJournal(reduxDevTools: data, reducer: Counter(), limits: limits) } catch {
      typed = error
    }
    do { _ = try JournalFile(data: data, limits: limits) } catch { document = error }
    return (typed, document)
  }

  /// A lifted Redux DevTools file staging `staged`, where action id 0 is an `increment`.
  private func liftedRedux(staged: String) -> String {
    #"{"actionsById":{"0":{"type":"PERFORM_ACTION","action":{"type":"increment","payload":{"increment":{}}},"#
      + #""timestamp":1}},"stagedActionIds":\#(staged),"committedState":{"count":0,"log":[]}}"#
  }

  @Test func aCustomFormActionPastTheEntryLimitIsTooLargeForBothLoadersWhateverItsShape() {
    let text =
      #"{"payload":"[{\"type\":\"increment\",\"payload\":{\"increment\":{}}},5]","#
      + #""preloadedState":"{\"count\":0,\"log\":[]}"}"#
    let expected = JournalImportError.tooLarge(entry: 1, field: "payload[1]", limit: 1)
    #expect(errors(redux: text, limits: JournalImportLimits(maxEntries: 1)) == (expected, expected))
  }

  @Test func aReduxActionStagedTwiceIsRefusedByBothLoaders() {
    let expected = JournalImportError.invalidValue(
      entry: nil, field: "stagedActionIds[1]", reason: "action id 0 is staged twice")
    #expect(errors(redux: liftedRedux(staged: "[0,0]")) == (expected, expected))
  }

  @Test func aStagedReduxActionMissingFromActionsByIdIsRefusedByBothLoaders() {
    let expected = JournalImportError.missingField(entry: 1, field: "actionsById.3")
    #expect(errors(redux: liftedRedux(staged: "[0,3]")) == (expected, expected))
  }

  @Test func aStreamLineThatIsNotJSONNamesItsEntryForBothLoaders() throws {
    let text = try recordedStream()
    let range = try #require(text.range(of: #""seq":2,"#))
    let offset = text.utf8.distance(from: text.startIndex, to: range.upperBound)
    let expected = JournalImportError.malformed(
      entry: 1, field: "entries[1]", byteOffset: offset, reason: "unexpected ','")
    #expect(errors(stream: text.replacingCharacters(in: range, with: #""seq":2,,"#)) == (expected, expected))
  }

  @Test func aStreamRecordOfAnUnknownKindIsRefusedByBothLoaders() throws {
    let text = try recordedStream() + #"{"note":{}}"# + "\n"
    let expected = JournalImportError.invalidValue(
      entry: nil, field: "line 5", reason: #"unknown record "note""#)
    #expect(errors(stream: text) == (expected, expected))
  }
}
