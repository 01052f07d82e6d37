import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing
import TracerFixtures

@testable import ChronicleFormats
@testable import ChronicleTracer

/// `JournalFile.scan`: a file read entry by entry, as `chronicle summary`, `show` and `filter`
/// read it, with what the whole file gives.
@Suite struct JournalFileScanTests {
  private func temporaryFile() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("chronicle-scan-\(UUID()).ndjson")
  }

  /// What a scan visits: each entry, its state after and its changes, and the largest document
  /// it was handed.
  private struct Visited: Equatable {
    var entries: [JournalFileEntry] = []
    var statesAfter: [String?] = []
    var changes: [[String]?] = []
    var actions: [String] = []
  }

  private func scan(_ url: URL) throws -> (visited: Visited, largest: Int, scan: JournalFile.Scan) {
    var visited = Visited()
    var largest = 0
    let scan = try JournalFile.scan(contentsOf: url) { document, position in
      largest = max(largest, document.count)
      visited.entries.append(document.entries[position])
      visited.statesAfter.append(document.stateJSON(after: position))
      visited.changes.append(document.stateChanges(from: position, to: position))
      visited.actions.append(document.actionText(at: position))
      return true
    }
    return (visited, largest, scan)
  }

  private func whole(_ url: URL) throws -> Visited {
    let document = try JournalFile(contentsOf: url)
    var visited = Visited()
    for position in document.entries.indices {
      visited.entries.append(document.entries[position])
      visited.statesAfter.append(document.stateJSON(after: position))
      visited.changes.append(document.stateChanges(from: position, to: position))
      visited.actions.append(document.actionText(at: position))
    }
    return visited
  }

  /// 2,000 entries, checkpoints every 16: each visit gets a document of at most three entries
  /// (the entry and its neighbours), and the states and changes read there are the whole file's.
  @Test func aStreamIsVisitedWithAtMostThreeEntriesHeldAndReadsAsTheWholeFile() throws {
    let url = temporaryFile()
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Counter.State, Counter.Action>(url: url)
    let (store, _) = makeTracedStore(.init(checkpointInterval: 16, sinks: [sink]))
    for step in 1...2_000 { store.send(step.isMultiple(of: 3) ? .note("n\(step)") : .add(step)) }
    sink.close()
    let (visited, largest, scan) = try scan(url)
    #expect(largest == 3)
    #expect(visited == (try whole(url)))
    #expect(visited.entries.count == 2_000)
    #expect(scan.entryCount == 2_000)
    #expect(scan.header.stateType == (try JournalFile(contentsOf: url)).stateType)
  }

  /// A branch (the journal truncated, then recording on) replaces entries from its index on in
  /// the stream: the scan visits what the loader keeps, and no entry the branch replaced.
  @Test func aBranchReplacesTheEntriesAfterItAsTheLoaderDoes() throws {
    let url = temporaryFile()
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Counter.State, Counter.Action>(url: url)
    let (store, journal) = makeTracedStore(.init(checkpointInterval: 4, sinks: [sink]))
    for step in 1...10 { store.send(.add(step)) }
    journal.truncate(from: 6)
    for step in 11...13 { store.send(.add(step)) }
    journal.truncate(from: 3)
    for step in 14...15 { store.send(.add(step)) }
    sink.close()
    let (visited, largest, scan) = try scan(url)
    #expect(largest <= 3)
    #expect(visited == (try whole(url)))
    #expect(visited.entries.map(\.index) == Array(0..<5))
    #expect(scan.entryCount == 5)
  }

  /// A torn last line is left out and reported, as the loader reports it.
  @Test func aTornLastLineIsReportedAsTheLoaderReportsIt() throws {
    let url = temporaryFile()
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Counter.State, Counter.Action>(url: url)
    let (store, _) = makeTracedStore(.init(sinks: [sink]))
    for step in 1...5 { store.send(.add(step)) }
    sink.close()
    var bytes = try Data(contentsOf: url)
    bytes.removeLast(7)
    try bytes.write(to: url)
    let (visited, _, scan) = try scan(url)
    #expect(visited == (try whole(url)))
    #expect(visited.entries.count == 4)
    #expect(scan.tornLine == (try JournalFile(contentsOf: url)).tornLine)
    #expect(scan.tornLine != nil)
  }

  /// A bad line throws the loader's error, naming the entry and the field, before anything is
  /// visited.
  @Test func aBadLineThrowsTheLoadersErrorAndVisitsNothing() throws {
    let url = temporaryFile()
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Counter.State, Counter.Action>(url: url)
    let (store, _) = makeTracedStore(.init(sinks: [sink]))
    for step in 1...5 { store.send(.add(step)) }
    sink.close()
    let text = try String(contentsOf: url, encoding: .utf8)
    try text.replacing(#""seq":4"#, with: #""seq":2"#).write(to: url, atomically: true, encoding: .utf8)
    var visits = 0
    let expected: JournalImportError
    do {
      _ = try JournalFile(contentsOf: url)
      Issue.record("the loader read it")
      return
    } catch {
      expected = error
    }
    #expect(throws: expected) {
      _ = try JournalFile.scan(contentsOf: url) { _, _ in
        visits += 1
        return true
      }
    }
    #expect(visits == 0)
  }

  /// A Journal JSON document is read whole (one JSON value), and visited in that document.
  @Test func aJournalJSONDocumentIsVisitedWhole() throws {
    let (store, journal) = makeTracedStore()
    for step in 1...5 { store.send(.add(step)) }
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("chronicle-scan-\(UUID()).json")
    defer { try? FileManager.default.removeItem(at: url) }
    try journal.snapshot().journalJSON().write(to: url)
    let (visited, largest, scan) = try scan(url)
    #expect(largest == 5)
    #expect(visited == (try whole(url)))
    #expect(scan.entryCount == 5)
  }
}
