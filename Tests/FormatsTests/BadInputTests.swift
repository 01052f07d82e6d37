import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing
import TracerFixtures

@testable import ChronicleFormats
@testable import ChronicleTracer

@Suite struct BadInputTests {
  /// A small journal's JSON: three entries (`increment`, `add(5)`, `note("hi")`).
  private func document() -> String {
    let (store, journal) = makeTracedStore(.init(checkpointInterval: 2))
    store.send(.increment)
    store.send(.add(5))
    store.send(.note("hi"))
    return String(decoding: journal.snapshot().journalJSON(), as: UTF8.self)
  }

  private func importing(_ text: String, limits: JournalImportLimits = .default) throws -> CounterJournal {
    try CounterJournal(journalJSON: Data(text.utf8), reducer: Counter(), limits: limits)
  }

  private func importing(_ bytes: [UInt8]) throws -> CounterJournal {
    try CounterJournal(journalJSON: Data(bytes), reducer: Counter())
  }

  /// `text` with its one occurrence of `target` replaced.
  private func replacing(_ target: String, with replacement: String, in text: String) -> String {
    #expect(text.components(separatedBy: target).count == 2, "\(target) occurs once")
    return text.replacingOccurrences(of: target, with: replacement)
  }

  @Test func aTruncatedDocumentNamesTheEntryItEndsIn() throws {
    let text = document()
    let cut = text.range(of: #""type":"add""#)!.upperBound.utf16Offset(in: text)
    #expect(throws: JournalImportError.truncated(entry: 1, field: "entries[1]", byteOffset: cut)) {
      try importing(String(text.prefix(cut)))
    }
  }

  @Test func anotherFormatOrVersionIsRefused() {
    let text = document()
    #expect(throws: JournalImportError.wrongFormat(expected: "chronicle.journal", found: "chronicle.other")) {
      try importing(
        replacing(#""format":"chronicle.journal""#, with: #""format":"chronicle.other""#, in: text))
    }
    #expect(throws: JournalImportError.wrongFormat(expected: "chronicle.journal", found: nil)) {
      try importing("[1, 2, 3]")
    }
    #expect(throws: JournalImportError.unsupportedVersion(found: "2", supported: 1)) {
      try importing(replacing(#""version":1"#, with: #""version":2"#, in: text))
    }
  }

  @Test func aValueOfTheWrongTypeNamesItsField() {
    #expect(
      throws: JournalImportError.wrongType(
        entry: 1, field: "entries[1].seq", expected: "integer", found: "string")
    ) {
      try importing(replacing(#""seq":2"#, with: #""seq":"2""#, in: document()))
    }
    #expect(
      throws: JournalImportError.wrongType(
        entry: 0, field: "entries[0].seq", expected: "integer", found: "number 1.5")
    ) {
      try importing(replacing(#""seq":1"#, with: #""seq":1.5"#, in: document()))
    }
    #expect {
      try importing(replacing(#"{"add":{"_0":5}}"#, with: #"{"add":{"_0":"five"}}"#, in: document()))
    } throws: { error in
      guard case .wrongType(1, "entries[1].action.add._0", "Int", _) = error as? JournalImportError else {
        return false
      }
      return true
    }
  }

  @Test func invalidUTF8IsReportedWhereItIs() throws {
    let text = document()
    var bytes = Array(text.utf8)
    let quote = text.utf8.firstRange(of: Array(#""hi""#.utf8))!.lowerBound
    let offset = text.utf8.distance(from: text.utf8.startIndex, to: quote) + 2
    bytes[offset] = 0xFF
    #expect(
      throws: JournalImportError.invalidUTF8(entry: 2, field: "entries[2].action.note._0", byteOffset: offset)
    ) {
      try importing(bytes)
    }
  }

  @Test func numbersOutOfRangeAreRefused() {
    #expect(
      throws: JournalImportError.numberOutOfRange(
        entry: 1, field: "entries[1].seq", value: "99999999999999999999")
    ) {
      try importing(replacing(#""seq":2"#, with: #""seq":99999999999999999999"#, in: document()))
    }
    #expect(throws: JournalImportError.numberOutOfRange(entry: 1, field: "entries[1].seq", value: "-2")) {
      try importing(replacing(#""seq":2"#, with: #""seq":-2"#, in: document()))
    }
    #expect {
      try importing(
        replacing(#"{"add":{"_0":5}}"#, with: #"{"add":{"_0":99999999999999999999}}"#, in: document()))
    } throws: { error in
      error as? JournalImportError
        == .numberOutOfRange(entry: 1, field: "entries[1].action.add._0", value: "99999999999999999999")
    }
  }

  @Test func deepNestingAndHugeValuesStopAtTheLimits() {
    let deep = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
    #expect {
      try importing(
        replacing(#""baseState":{"count":0,"log":[]}"#, with: #""baseState":"# + deep, in: document()))
    } throws: { error in
      guard case .tooDeep(nil, let field, 128) = error as? JournalImportError else { return false }
      return field.hasPrefix("baseState[0][0]")
    }
    let limits = JournalImportLimits(maxStringBytes: 40)
    let long = String(repeating: "x", count: 41)
    #expect(throws: JournalImportError.tooLarge(entry: 2, field: "entries[2].action.note._0", limit: 40)) {
      try importing(replacing(#""_0":"hi""#, with: #""_0":""# + long + #"""#, in: document()), limits: limits)
    }
    #expect(throws: JournalImportError.tooLarge(entry: nil, field: "(document)", limit: 100)) {
      try importing(document(), limits: JournalImportLimits(maxBytes: 100))
    }
    #expect(throws: JournalImportError.tooLarge(entry: 1, field: "entries", limit: 1)) {
      try importing(document(), limits: JournalImportLimits(maxEntries: 1))
    }
  }

  @Test func duplicateAndOutOfOrderSequenceNumbersAreRefused() {
    #expect(throws: JournalImportError.duplicateSequence(entry: 1, sequence: 1)) {
      try importing(replacing(#""seq":2"#, with: #""seq":1"#, in: document()))
    }
    #expect(throws: JournalImportError.sequenceOutOfOrder(entry: 2, sequence: 1, previous: 2)) {
      try importing(replacing(#""seq":3"#, with: #""seq":1"#, in: document()))
    }
  }

  @Test func duplicateKeysAndMissingFieldsAreRefused() {
    #expect(throws: JournalImportError.duplicateKey(entry: 0, field: "entries[0]", key: "seq")) {
      try importing(replacing(#""seq":1,"#, with: #""seq":1,"seq":1,"#, in: document()))
    }
    let text = document()
    let firstOutcome = text.range(of: #""outcome":"reduced","#)!
    #expect(throws: JournalImportError.missingField(entry: 0, field: "entries[0].outcome")) {
      try importing(text.replacingCharacters(in: firstOutcome, with: ""))
    }
  }

  @Test func entriesThatDoNotFollowEachOtherAreRefused() {
    #expect(
      throws: JournalImportError.invalidValue(
        entry: 1, field: "entries[1].index", reason: "expected index 1 after the previous entry, found 7")
    ) {
      try importing(replacing(#""index":1"#, with: #""index":7"#, in: document()))
    }
    #expect(
      throws: JournalImportError.invalidValue(
        entry: nil, field: "meta.entryCount", reason: "says 4 entries, the file has 3")
    ) {
      try importing(replacing(#""entryCount":3"#, with: #""entryCount":4"#, in: document()))
    }
  }

  @Test func errorsNameTheirEntryAndFieldInWords() {
    let error = JournalImportError.wrongType(
      entry: 1, field: "entries[1].seq", expected: "integer", found: "string")
    #expect(error.entry == 1)
    #expect(error.field == "entries[1].seq")
    #expect(error.description == "entries[1].seq should be integer, found string")
  }
}
