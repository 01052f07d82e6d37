import ChronicleStore
import Foundation
import Testing

@testable import ChronicleFormats
@testable import ChronicleTracer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The reducer of the crash writer's store (Tests/TracerCrashWriter): the state is the last action.
private let lastAction = Reduce<String, String> { state, action in
  state = action
  return .none
}

@Suite struct CrashTests {
  /// The crash writer built next to this test binary (`swift build` builds every target).
  private func writerURL() throws -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent()
    for _ in 0..<5 {
      let candidate = directory.appendingPathComponent("TracerCrashWriter")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory.deleteLastPathComponent()
    }
    throw CrashTestError.writerNotBuilt
  }

  private enum CrashTestError: Error {
    case writerNotBuilt
  }

  /// Each line written before `send` returns: the file holds every entry but the one being
  /// written. In the background: every entry flushed before the kill, and the ones written after
  /// it in order, with no gap (the pending ones are lost, never a line in the middle).
  @Test(arguments: [false, true])
  func processKilledWhileAppendingLosesAtMostTheLineBeingWritten(background: Bool) throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "chronicle-crash-\(UUID()).ndjson")
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = try writerURL()
    process.arguments = [file.path, "24", "\(192 * 1024)"] + (background ? ["background"] : [])
    let output = Pipe()
    process.standardOutput = output
    try process.run()

    // Wait for the child to say it has written 24 entries: no sleeping, the read blocks.
    var said = Data()
    while !said.contains(Data("ready\n".utf8)) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      said.append(chunk)
    }
    #expect(String(decoding: said, as: UTF8.self) == "ready\n")
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == SIGKILL)

    let bytes = try Data(contentsOf: file)
    let result = try Journal<String, String>.loadNDJSON(contentsOf: file, reducer: lastAction)
    let completeLines = bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    // Every complete line but the header is an entry (the writer's store starts no effects).
    #expect(result.journal.count == completeLines - 1)
    #expect(result.journal.count >= 24)
    if bytes.last == UInt8(ascii: "\n") {
      #expect(result.tornLine == nil)
    } else {
      let lastNewline = bytes.lastIndex(of: UInt8(ascii: "\n"))!
      #expect(
        result.tornLine
          == TornLine(
            lineNumber: completeLines + 1, byteOffset: lastNewline + 1,
            byteCount: bytes.count - lastNewline - 1))
    }
    let snapshot = result.journal.snapshot()
    #expect(snapshot.entries.map(\.sequence) == Array(1...UInt64(snapshot.count)))
    let last = snapshot.indices.last!
    #expect(snapshot.state(after: last)?.hasPrefix("\(snapshot.count):") == true)
    #expect(snapshot.state(after: last)?.count == "\(snapshot.count):".count + 192 * 1024)
  }

  @Test func aTornLastLineIsReportedAndEverythingBeforeItKept() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "chronicle-torn-\(UUID()).ndjson")
    defer { try? FileManager.default.removeItem(at: file) }
    let sink = try NDJSONFileSink<String, String>(url: file)
    let journal = Journal<String, String>(configuration: .init(sinks: [sink])) { state, action in
      state = action
      return .none
    }
    let store = Store<String, String>(initialState: "", middleware: [.tracer(journal)]) { state, action in
      state = action
      return .none
    }
    for word in ["one", "two", "three", "four"] { store.send(word) }
    sink.close()
    var bytes = try Data(contentsOf: file)
    #expect(sink.linesWritten == 5)
    let lastLineStart = bytes.dropLast().lastIndex(of: UInt8(ascii: "\n"))! + 1
    let cut = lastLineStart + (bytes.count - lastLineStart) / 2
    bytes = bytes.prefix(cut)
    let result = try Journal<String, String>.loadNDJSON(bytes, reducer: lastAction)
    #expect(
      result.tornLine == TornLine(lineNumber: 5, byteOffset: lastLineStart, byteCount: cut - lastLineStart))
    #expect(result.journal.count == 3)
    #expect(result.journal.state(after: 2) == "three")
  }
}
