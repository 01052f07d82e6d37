import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing
import TracerFixtures

@testable import ChronicleFormats
@testable import ChronicleTracer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A new empty folder for one test.
private func temporaryFolder() throws -> URL {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chronicle-files-\(UUID())")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  return folder
}

/// A FIFO nobody writes to: opening it for reading without `O_NONBLOCK` blocks forever.
private func fifo(in folder: URL) throws -> URL {
  let url = folder.appendingPathComponent("journal.fifo")
  try #require(mkfifo(url.path, 0o600) == 0)
  return url
}

/// The bytes this process has read with `read(2)` and friends so far (Linux: /proc/self/io).
private func bytesRead() throws -> Int {
  let io = try String(contentsOfFile: "/proc/self/io", encoding: .utf8)
  let line = try #require(io.split(separator: "\n").first { $0.hasPrefix("rchar:") })
  return try #require(Int(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)))
}

private func recordedSnapshot() -> JournalSnapshot<Counter.State, Counter.Action> {
  let (store, journal) = makeTracedStore()
  store.send(.increment)
  store.send(.add(2))
  return journal.snapshot()
}

@Suite struct FileSafetyTests {
  @Test func aFIFOIsRefusedByEveryFileImporterWithoutBlocking() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = try fifo(in: folder)
    let refused = JournalImportError.notARegularFile(path: url.path)
    #expect(throws: refused) { try CounterJournal(contentsOfJournalJSON: url, reducer: Counter()) }
    #expect(throws: refused) { try CounterJournal.loadNDJSON(contentsOf: url, reducer: Counter()) }
    #expect(throws: refused) { try JournalFile(contentsOf: url) }
  }

  @Test func aDirectoryIsNotARegularFile() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(throws: JournalImportError.notARegularFile(path: folder.path)) {
      try JournalFile(contentsOf: folder)
    }
  }

  @Test func aSparseFileAboveTheLimitIsRefusedBeforeAnyOfItIsRead() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("huge.json")
    try #require(FileManager.default.createFile(atPath: url.path, contents: nil))
    let handle = try FileHandle(forWritingTo: url)
    try handle.truncate(atOffset: 2 << 30)  // 2 GiB of holes: no disk used
    try handle.close()
    let tooLarge = JournalImportError.tooLarge(entry: nil, field: "(document)", limit: 1 << 30)
    let before = try bytesRead()
    #expect(throws: tooLarge) { try CounterJournal(contentsOfJournalJSON: url, reducer: Counter()) }
    #expect(throws: tooLarge) { try CounterJournal.loadNDJSON(contentsOf: url, reducer: Counter()) }
    #expect(throws: tooLarge) { try JournalFile(contentsOf: url) }
    // Other tests read meanwhile, but nowhere near the 1 GiB each import would have read.
    #expect(try bytesRead() - before < 64 << 20)
  }

  @Test func aFileAtTheLimitIsRead() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("journal.json")
    let data = recordedSnapshot().journalJSON()
    try data.write(to: url)
    let limits = JournalImportLimits(maxBytes: data.count)
    #expect(try CounterJournal(contentsOfJournalJSON: url, reducer: Counter(), limits: limits).count == 2)
    #expect(try JournalFile(contentsOf: url, limits: limits).count == 2)
    let smaller = JournalImportLimits(maxBytes: data.count - 1)
    #expect(throws: JournalImportError.tooLarge(entry: nil, field: "(document)", limit: data.count - 1)) {
      try JournalFile(contentsOf: url, limits: smaller)
    }
  }

  @Test(arguments: ["json", "chrome", "redux", "html"])
  func anExportReplacesASymbolicLinkInsteadOfWritingThroughIt(format: String) throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let victim = folder.appendingPathComponent("victim.txt")
    try Data("keep me".utf8).write(to: victim)
    let target = folder.appendingPathComponent("export.out")
    try FileManager.default.createSymbolicLink(at: target, withDestinationURL: victim)
    let snapshot = recordedSnapshot()
    switch format {
    case "json": try snapshot.writeJournalJSON(to: target)
    case "chrome": try snapshot.writeChromeTrace(to: target)
    case "redux": try snapshot.writeReduxDevTools(.custom, to: target)
    default: try snapshot.writeHTMLViewer(to: target)
    }
    #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me")
    let attributes = try FileManager.default.attributesOfItem(atPath: target.path)
    #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
        "export.out", "victim.txt",
      ])
  }

  @Test func theNDJSONSinkRefusesASymbolicLink() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let victim = folder.appendingPathComponent("victim.txt")
    try Data("keep me".utf8).write(to: victim)
    let link = folder.appendingPathComponent("journal.ndjson")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim)
    #expect(throws: JournalExportError.symbolicLink(path: link.path)) {
      try NDJSONFileSink<Counter.State, Counter.Action>(url: link)
    }
    #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me")
  }

  @Test func theNDJSONSinkFollowsASymbolicLinkWhenAsked() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let real = folder.appendingPathComponent("real.ndjson")
    let link = folder.appendingPathComponent("journal.ndjson")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
    let sink = try NDJSONFileSink<Counter.State, Counter.Action>(url: link, followingSymbolicLinks: true)
    let (store, _) = makeTracedStore(.init(sinks: [sink]))
    store.send(.increment)
    sink.close()
    #expect(try CounterJournal.loadNDJSON(contentsOf: real, reducer: Counter()).journal.count == 1)
  }
}
