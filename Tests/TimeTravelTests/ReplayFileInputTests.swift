import ChronicleFormats
import ChronicleStore
import ChronicleTimeTravel
import ChronicleTracer
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `Replay.verify`'s file entry points read files as the importers do: regular files only, their
/// size checked before reading, their numbers within range.
@Suite struct ReplayFileInputTests {
  @Test func aFIFOIsRefusedWithoutBlocking() throws {
    let url = temporaryURL("journal.fifo")
    try #require(mkfifo(url.path, 0o600) == 0)
    defer { try? FileManager.default.removeItem(at: url) }
    #expect(throws: JournalImportError.notARegularFile(path: url.path)) {
      _ = try Replay.verify(journalJSON: url, reducer: Tally())
    }
    #expect(throws: JournalImportError.notARegularFile(path: url.path)) {
      _ = try Replay.verify(ndjson: url, reducer: Tally())
    }
  }

  @Test func aRecordedStateThatDoesNotDecodeIsATypedErrorNamingItsField() throws {
    let json = String(
      decoding: recordedJournal().snapshot().journalJSON(options: ExportOptions(states: .everyEntry)),
      as: UTF8.self)
    let state = try #require(json.range(of: #""state":{"count":3,"#))
    let corrupt = json.replacingCharacters(in: state, with: #""state":{"count":"three","#)
    #expect {
      _ = try Replay.verify(journalJSON: Data(corrupt.utf8), reducer: Tally())
    } throws: { error in
      guard case .wrongType(1, "entries[1].state.count", "Int", _) = error as? JournalImportError else {
        return false
      }
      return true
    }
  }

  @Test func aFileAboveTheLimitIsRefusedBeforeItIsRead() throws {
    let url = temporaryURL("journal.json")
    let data = recordedJournal().snapshot().journalJSON()
    try data.write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let limits = JournalImportLimits(maxBytes: data.count - 1)
    #expect(throws: JournalImportError.tooLarge(entry: nil, field: "(document)", limit: data.count - 1)) {
      _ = try Replay.verify(journalJSON: url, reducer: Tally(), limits: limits)
    }
  }

  @Test func anEntryIndexOfIntMaxIsOutOfRangeInBothVariants() throws {
    let json = String(decoding: recordedJournal().snapshot().journalJSON(), as: UTF8.self)
      .replacingOccurrences(of: #""firstIndex":0"#, with: #""firstIndex":9223372036854775807"#)
    #expect(
      throws: JournalImportError.numberOutOfRange(
        entry: nil, field: "meta.firstIndex", value: "9223372036854775807 (valid: 0…9007199254740991)")
    ) { _ = try Replay.verify(journalJSON: Data(json.utf8), reducer: Tally()) }

    let url = temporaryURL("journal.ndjson")
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Tally.State, Tally.Action>(url: url)
    let journal = TallyJournal(reducer: Tally(), configuration: .init(sinks: [sink]))
    let store = TallyStore(initialState: Tally.State(), reducer: Tally(), middleware: [.tracer(journal)])
    store.send(.add(1))
    sink.close()
    let stream = try String(contentsOf: url, encoding: .utf8)
      .replacingOccurrences(of: #""index":0"#, with: #""index":9223372036854775807"#)
    try Data(stream.utf8).write(to: url)
    #expect(
      throws: JournalImportError.numberOutOfRange(
        entry: 0, field: "entries[0].index", value: "9223372036854775807 (valid: 0…9007199254740991)")
    ) { _ = try Replay.verify(ndjson: url, reducer: Tally()) }
  }
}
