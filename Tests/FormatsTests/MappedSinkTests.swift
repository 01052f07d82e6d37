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

/// `NDJSONFileSink(writing: .mapped(…))`: each line copied into a `MAP_SHARED` mapping of the
/// file, grown in chunks of NUL bytes, cut at its lines when the sink is closed.
@Suite struct MappedSinkTests {
  private func temporaryFile() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("chronicle-mapped-\(UUID()).ndjson")
  }

  private typealias Sink = NDJSONFileSink<Counter.State, Counter.Action>

  private static let actions: [Counter.Action] = [
    .increment, .note("a\nb"), .add(-3), .decrement, .note("é"),
  ]

  /// A sink on one file per growth; both sinks of the same journal, so their lines are the same.
  private func mappedAndEachLine(
    chunkBytes: Int = 1 << 20, writingZeros: Bool = false, sends: Int = 5
  ) throws -> (mapped: Sink, each: Sink, store: CounterStore) {
    let mapped = try Sink(
      url: temporaryFile(), options: ExportOptions(), writing: .mapped(chunkBytes: chunkBytes),
      followingSymbolicLinks: false, napInterval: 0.002, handOff: .specialized, format: .specialized,
      writingZeros: writingZeros)
    let each = try Sink(url: temporaryFile())
    let (store, _) = makeTracedStore(.init(checkpointInterval: 4, sinks: [mapped, each]), probe: false)
    for step in 0..<sends { store.send(Self.actions[step % Self.actions.count]) }
    return (mapped, each, store)
  }

  private func remove(_ sinks: Sink...) {
    for sink in sinks { try? FileManager.default.removeItem(atPath: sink.path) }
  }

  @Test func aClosedMappedFileHoldsTheLinesTheEachLineSinkWrites() throws {
    let (mapped, each, _) = try mappedAndEachLine()
    defer { remove(mapped, each) }
    mapped.close()
    each.close()
    let bytes = try Data(contentsOf: URL(fileURLWithPath: mapped.path))
    #expect(bytes == (try Data(contentsOf: URL(fileURLWithPath: each.path))))
    #expect(bytes.split(separator: UInt8(ascii: "\n")).count == 6)
    #expect(mapped.linesWritten == 6)
  }

  @Test func anOpenMappedFileEndsWithNULBytesAfterItsLines() throws {
    let (mapped, each, _) = try mappedAndEachLine(chunkBytes: 8_192)
    defer { remove(mapped, each) }
    let lines = try Data(contentsOf: URL(fileURLWithPath: each.path))
    let bytes = try Data(contentsOf: URL(fileURLWithPath: mapped.path))
    #expect(bytes.count == 8_192)
    #expect(bytes.prefix(lines.count) == lines)
    #expect(bytes.dropFirst(lines.count).allSatisfy { $0 == 0 })
  }

  @Test func releasingAMappedSinkCutsTheFileAtItsLines() throws {
    let url: URL
    let eachURL: URL
    do {
      let (mapped, each, _) = try mappedAndEachLine()
      url = URL(fileURLWithPath: mapped.path)
      eachURL = URL(fileURLWithPath: each.path)
    }
    defer {
      try? FileManager.default.removeItem(at: url)
      try? FileManager.default.removeItem(at: eachURL)
    }
    #expect(try Data(contentsOf: url) == Data(contentsOf: eachURL))
  }

  /// Lines longer than a chunk, and many chunks: every line whole, in order, with both growths.
  @Test(arguments: [false, true])
  func linesAcrossManyChunksAreAllKept(writingZeros: Bool) throws {
    let mapped = try Sink(
      url: temporaryFile(), options: ExportOptions(), writing: .mapped(chunkBytes: 4_096),
      followingSymbolicLinks: false, napInterval: 0.002, handOff: .specialized, format: .specialized,
      writingZeros: writingZeros)
    defer { remove(mapped) }
    let (store, _) = makeTracedStore(.init(maxEntries: 10, sinks: [mapped]), probe: false)
    for step in 1...300 {
      store.send(step.isMultiple(of: 50) ? .note(String(repeating: "x", count: 10_000 + step)) : .add(step))
    }
    mapped.close()
    let result = try CounterJournal.loadNDJSON(
      contentsOf: URL(fileURLWithPath: mapped.path), reducer: Counter())
    #expect(result.tornLine == nil)
    #expect(result.journal.snapshot().entries.map(\.sequence) == Array(1...300))
    #expect(mapped.linesWritten == 301)
  }

  /// Sends from four threads at once, the file grown 4 KiB at a time: every line whole, each
  /// entry once, in the journal's order.
  @Test func concurrentSendersGetEveryLineWholeAndInOrder() throws {
    let mapped = try Sink(url: temporaryFile(), writing: .mapped(chunkBytes: 4_096))
    defer { remove(mapped) }
    let (store, _) = makeTracedStore(.init(maxEntries: 10, sinks: [mapped]), probe: false)
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for step in 0..<500 { store.send(step.isMultiple(of: 7) ? .note("thread \(thread)") : .add(step)) }
    }
    mapped.close()
    let result = try CounterJournal.loadNDJSON(
      contentsOf: URL(fileURLWithPath: mapped.path), reducer: Counter())
    #expect(result.tornLine == nil)
    #expect(result.journal.snapshot().entries.map(\.sequence) == Array(1...2_000))
    #expect(mapped.linesWritten == 2_001)
  }

  /// A mapped sink grows its file by a chunk and maps it when it is created, so that its first
  /// `send` does not: until the first line, the file holds NUL bytes only. What a process killed
  /// then leaves reads as a stream with nothing written: the loader's journal is empty, its torn
  /// line the NUL bytes; the document readers say the stream ends inside its header, as for an
  /// empty stream. Closed unused, the file is empty.
  @Test func aNewMappedSinkGrowsItsFileBeforeItsFirstLine() throws {
    let url = temporaryFile()
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try Sink(url: url, writing: .mapped(chunkBytes: 8_192))
    let bytes = try Data(contentsOf: url)
    #expect(bytes.count == 8_192)
    #expect(bytes.allSatisfy { $0 == 0 })
    let result = try CounterJournal.loadNDJSON(contentsOf: url, reducer: Counter())
    #expect(result.journal.count == 0)
    #expect(
      result.tornLine == TornLine(lineNumber: 1, byteOffset: 0, byteCount: 0, unwrittenByteCount: 8_192))
    let noHeader = JournalImportError.truncated(entry: nil, field: "(header)", byteOffset: 0)
    #expect(throws: noHeader) { try JournalFile(contentsOf: url) }
    #expect(throws: noHeader) { try JournalFile.scan(contentsOf: url) { _, _ in true } }
    #expect(sink.linesWritten == 0)
    sink.close()
    // Its size, not `Data(contentsOf:)`, which leaks a buffer for an empty file in this Foundation.
    var status = stat()
    #expect(stat(url.path, &status) == 0)
    #expect(status.st_size == 0)
    // Another byte after NUL bytes is no unwritten tail: a malformed file, as before.
    var corrupt = Data(count: 8_192)
    corrupt[4_000] = UInt8(ascii: "{")
    try corrupt.write(to: url)
    #expect(throws: JournalImportError.self) { try JournalFile(contentsOf: url) }
    do {
      _ = try JournalFile(contentsOf: url)
    } catch {
      #expect(error != noHeader)
    }
  }

  /// What a killed writer leaves: the open file copied as it is (lines, then NULs).
  private func killedFile(tornBytes: Int) throws -> (url: URL, lines: Int, tornAt: Int, size: Int) {
    let (mapped, each, _) = try mappedAndEachLine(chunkBytes: 8_192)
    defer { remove(mapped, each) }
    var bytes = try Data(contentsOf: URL(fileURLWithPath: mapped.path))
    let lines = try Data(contentsOf: URL(fileURLWithPath: each.path)).count
    // The start of a line being copied when the kill came.
    bytes.replaceSubrange(
      lines..<(lines + tornBytes), with: Data(#"{"entry":{"index":5,"#.utf8.prefix(tornBytes)))
    let url = temporaryFile()
    try bytes.write(to: url)
    return (url, lines, lines, bytes.count)
  }

  @Test(arguments: [0, 12])
  func theLoaderReportsTheUnwrittenTailAsATornLine(tornBytes: Int) throws {
    let file = try killedFile(tornBytes: tornBytes)
    defer { try? FileManager.default.removeItem(at: file.url) }
    let expected = TornLine(
      lineNumber: 7, byteOffset: file.tornAt, byteCount: tornBytes,
      unwrittenByteCount: file.size - file.tornAt - tornBytes)
    let result = try CounterJournal.loadNDJSON(contentsOf: file.url, reducer: Counter())
    #expect(result.tornLine == expected)
    #expect(result.journal.count == 5)
    let inMemory = try CounterJournal.loadNDJSON(Data(contentsOf: file.url), reducer: Counter())
    #expect(inMemory.tornLine == expected)
    let document = try JournalFile(contentsOf: file.url)
    #expect(document.tornLine == expected)
    #expect(document.count == 5)
    var visited = 0
    let scan = try JournalFile.scan(contentsOf: file.url) { _, _ in
      visited += 1
      return true
    }
    #expect(scan.tornLine == expected)
    #expect(visited == 5)
  }

  /// The loader reads in blocks of 1 MiB: a tail that spans blocks is counted whole.
  @Test func aTailLongerThanTheLoadersBlockIsCountedWhole() throws {
    let (mapped, each, _) = try mappedAndEachLine(chunkBytes: 3 << 20)
    defer { remove(mapped, each) }
    let lines = try Data(contentsOf: URL(fileURLWithPath: each.path)).count
    let url = URL(fileURLWithPath: mapped.path)
    let expected = TornLine(
      lineNumber: 7, byteOffset: lines, byteCount: 0, unwrittenByteCount: (3 << 20) - lines)
    #expect(try CounterJournal.loadNDJSON(contentsOf: url, reducer: Counter()).tornLine == expected)
    #expect(try JournalFile.scan(contentsOf: url) { _, _ in true }.tornLine == expected)
  }

  /// A kill leaves no newline after the first NUL (the sink stores a line's newline last): one
  /// there is a corrupt file, not a tail.
  @Test func aLineEndingAfterNULBytesIsAnError() throws {
    let file = try killedFile(tornBytes: 0)
    defer { try? FileManager.default.removeItem(at: file.url) }
    var bytes = try Data(contentsOf: file.url)
    bytes[file.size - 1] = UInt8(ascii: "\n")
    try bytes.write(to: file.url)
    #expect(throws: JournalImportError.self) {
      try CounterJournal.loadNDJSON(contentsOf: file.url, reducer: Counter())
    }
    #expect(throws: JournalImportError.self) { try JournalFile(contentsOf: file.url) }
    #expect(throws: JournalImportError.self) { try JournalFile.scan(contentsOf: file.url) { _, _ in true } }
  }

  /// A FIFO cannot be mapped: the sink writes each line to it with `write(2)`.
  @Test func aMappedSinkWritesAFIFOLineByLine() throws {
    let fifo = temporaryFile()
    #expect(mkfifo(fifo.path, 0o600) == 0)
    defer { unlink(fifo.path) }
    let reader = open(fifo.path, O_RDONLY | O_NONBLOCK)
    #expect(reader >= 0)
    defer { close(reader) }
    let sink = try Sink(url: fifo, writing: .mapped())
    let (store, _) = makeTracedStore(.init(sinks: [sink]), probe: false)
    store.send(.increment)
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    let count = read(reader, &chunk, chunk.count)
    #expect(chunk[..<max(0, count)].filter { $0 == UInt8(ascii: "\n") }.count == 2)
    #expect(sink.linesWritten == 2)
    sink.close()
  }
}

extension NDJSONFileSink {
  /// The file's path, for the tests.
  fileprivate var path: String { file.path }
}
