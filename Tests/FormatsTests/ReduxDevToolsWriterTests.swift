import ChronicleStore
import Foundation
import Testing

@testable import ChronicleFormats
@testable import ChronicleTracer

/// One writer for the Redux DevTools files, and the extension's size limit.
@Suite struct ReduxDevToolsWriterTests {
  @Test func aDocumentWritesTheJournalsFile() async throws {
    let (journal, _) = await recordedRun()
    let snapshot = journal.snapshot()
    let everyState = try JournalFile(
      data: snapshot.journalJSON(options: ExportOptions(states: .everyEntry)))
    #expect(everyState.reduxDevTools() == snapshot.reduxDevTools(.liftedState))
    let checkpoints = try JournalFile(data: snapshot.journalJSON())
    #expect(checkpoints.reduxDevTools() == snapshot.reduxDevTools(.custom))
  }

  @Test(arguments: [ReduxDevToolsForm.custom, .liftedState])
  func aFileLongerThanTheLimitIsNotWritten(_ form: ReduxDevToolsForm) async throws {
    let (journal, _) = await recordedRun()
    let snapshot = journal.snapshot()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("redux.json")
    try Data("old".utf8).write(to: url)
    let size = snapshot.reduxDevTools(form).count
    #expect(throws: JournalExportError.tooLarge(format: "Redux DevTools", limit: size - 1)) {
      try snapshot.writeReduxDevTools(form, to: url, maxBytes: size - 1)
    }
    #expect(try Data(contentsOf: url) == Data("old".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["redux.json"])
    try snapshot.writeReduxDevTools(form, to: url, maxBytes: size)
    #expect(try Data(contentsOf: url) == snapshot.reduxDevTools(form))
    let document = try JournalFile(data: snapshot.journalJSON())
    #expect(throws: JournalExportError.tooLarge(format: "Redux DevTools", limit: 10)) {
      try document.writeReduxDevTools(to: url, maxBytes: 10)
    }
  }

  @Test func theLimitIsTheLongestStringV8Holds() {
    #expect(ReduxDevToolsForm.maxImportBytes == 536_870_888)
    #expect(
      JournalExportError.tooLarge(format: "Redux DevTools", limit: 10).description
        == "the Redux DevTools file would be longer than 10 bytes, more than its tool can read; "
        + "export fewer entries, or a form without every state")
  }
}
