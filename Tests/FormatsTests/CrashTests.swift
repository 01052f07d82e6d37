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

  /// Fifty kills at moments spread over the run, each line written (`printing`) or copied into
  /// the mapping (`mapped-printing`, whose chunks of 64 KiB are grown every 12 to 130 lines):
  /// every entry whose `send` had returned is in the file, in order; what follows them is at
  /// most one more entry, and a torn line (with the NUL bytes of the mapping after it).
  @Test(arguments: ["printing", "mapped-printing"])
  func fiftyKillsLoseNoLineBeyondTheTornOne(mode: String) throws {
    for kill in 0..<50 {
      let file = FileManager.default.temporaryDirectory.appendingPathComponent(
        "chronicle-kills-\(UUID()).ndjson")
      defer { try? FileManager.default.removeItem(at: file) }
      let (lines, process) = try runToEnd(
        [file.path, "0", "\(500 + 97 * kill)", mode], killAfterPrinting: 1 + (kill * 37) % 120)
      #expect(process.terminationReason == .uncaughtSignal)
      let sent = try #require(lines.last.flatMap { Int($0) })
      let bytes = try Data(contentsOf: file)
      let result = try Journal<String, String>.loadNDJSON(contentsOf: file, reducer: lastAction)
      let sequences = result.journal.snapshot().entries.map(\.sequence)
      // The journal keeps 16 entries; the file holds them all, counted by their lines.
      let entryLines = bytes.split(separator: UInt8(ascii: "\n")).count - 1 - (result.tornLine == nil ? 0 : 1)
      #expect(entryLines >= sent, "kill \(kill): \(sent) sent, \(entryLines) in the file")
      #expect(entryLines <= sent + 1)
      #expect(sequences.last.map(Int.init) == entryLines)
      if let torn = result.tornLine {
        #expect(torn.byteOffset + torn.byteCount + torn.unwrittenByteCount == bytes.count)
        #expect(torn.lineNumber == entryLines + 2)
      }
      if mode == "printing" { #expect(result.tornLine?.unwrittenByteCount ?? 0 == 0) }
    }
  }

  /// A mapped sink near a file size limit (RLIMIT_FSIZE in the child) grows the file by what a
  /// line needs once a chunk no longer fits, then stops with the error: `linesWritten` counts
  /// the complete lines, which are all the file holds once the sink is released.
  @Test func aMappedSinkAtAFileSizeLimitStopsWithTheLinesThatFit() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "chronicle-mapped-limited-\(UUID()).ndjson")
    defer { try? FileManager.default.removeItem(at: file) }
    let limit = 300_001
    let (lines, process) = try runToEnd([file.path, "0", "1000", "mapped-limited:\(limit)"])
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 0)
    let bytes = try Data(contentsOf: file)
    #expect(bytes.count <= limit)
    // Short of the limit by less than the line that did not fit (a checkpoint line: 2.3 KB).
    #expect(bytes.count > limit - 2_500)
    #expect(bytes.last == UInt8(ascii: "\n"))
    let completeLines = bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    #expect(lines == ["\(completeLines)"])
  }

  /// Everything the child printed on standard output until it ended.
  private func runToEnd(
    _ arguments: [String], killAfterPrinting count: Int? = nil
  ) throws -> (
    lines: [Substring], process: Process
  ) {
    let process = Process()
    process.executableURL = try writerURL()
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    var said = Data()
    var killed = false
    while true {
      // No sleeping: the read blocks until the child prints or ends.
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      said.append(chunk)
      if let count, !killed, said.reduce(0, { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }) >= count {
        kill(process.processIdentifier, SIGKILL)
        killed = true
      }
    }
    process.waitUntilExit()
    let text = String(decoding: said, as: UTF8.self)
    // A line cut by the kill is not one the child finished printing.
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    return (Array(lines), process)
  }

  #if os(Linux)
    /// In the background, a process killed while it sends misses at most `maxPendingLines` (16 in
    /// the writer) of the entries whose `send` had returned: the lines queued and those of the
    /// batch being written count alike.
    ///
    /// The sink writes into a FIFO that the test does not read, made small (one page), so that
    /// its thread is held in the middle of a batch; the sender goes on until the sink holds it.
    /// Once both threads wait for good (the sink's thread in `write(2)` with the FIFO not empty,
    /// the sending thread in a futex wait, and nothing printed, over three polls), the process
    /// is killed and the FIFO read: the entry lines in it against the sends that returned. Ten
    /// kills, with lines of different lengths.
    @Test(arguments: 0..<10)
    func aKilledBackgroundSinkLosesAtMostMaxPendingLines(run: Int) throws {
      let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("chronicle-kill-\(UUID())")
      #expect(mkfifo(fifo.path, 0o600) == 0)
      defer { unlink(fifo.path) }
      // Opened without waiting for a writer, before the child's sink opens it to write.
      let reader = open(fifo.path, O_RDONLY | O_NONBLOCK)
      #expect(reader >= 0)
      defer { close(reader) }
      let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ
      #expect(fcntl(reader, setPipeSize, 4096) == 4096)

      let process = Process()
      process.executableURL = try writerURL()
      // Lines of 6 × payload bytes (the payload's control characters are escaped): longer than
      // the FIFO holds.
      process.arguments = [fifo.path, "0", "\(1024 * (1 + run))", "counting"]
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      let printed = output.fileHandleForReading.fileDescriptor
      _ = fcntl(printed, F_SETFL, fcntl(printed, F_GETFL) | O_NONBLOCK)

      var said: [UInt8] = []
      func readPrinted() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
          let count = read(printed, &chunk, chunk.count)
          guard count > 0 else { return }
          said += chunk[..<count]
        }
      }
      // Checked each time the child prints, or 1 ms after the last check when it prints nothing
      // (`poll` on its output), until both threads wait for good, within a deadline.
      let deadline = ContinuousClock.now + .seconds(60)
      var stuckPolls = 0
      while stuckPolls < 3 && process.isRunning && ContinuousClock.now < deadline {
        let before = said.count
        readPrinted()
        var queued: Int32 = 0
        let fifoHolds = ioctl(reader, UInt(0x541B), &queued) == 0 && queued > 0  // FIONREAD
        let stuck =
          said.count == before && fifoHolds
          && Self.threadsWait(process.processIdentifier, main: Self.futex, other: Self.write)
        stuckPolls = stuck ? stuckPolls + 1 : 0
        var output = pollfd(fd: printed, events: Int16(POLLIN), revents: 0)
        _ = poll(&output, 1, 1)
      }
      #expect(stuckPolls == 3)
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      #expect(process.terminationReason == .uncaughtSignal)
      readPrinted()

      var written: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let count = read(reader, &chunk, chunk.count)
        guard count > 0 else { break }
        written += chunk[..<count]
      }
      let lines = String(decoding: said, as: UTF8.self).split(separator: "\n")
      let sent = try #require(lines.last.flatMap { Int($0) })
      #expect(lines.map { Int($0) } == Array(1...sent))
      // Every complete line but the header is an entry.
      let entries = written.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) } - 1
      #expect(sent - entries > 0)
      #expect(sent - entries <= 16, "\(sent) sent, \(entries) written")
    }

    #if arch(x86_64)
      private static let (futex, write) = (202, 1)
    #else
      private static let (futex, write) = (98, 64)
    #endif

    /// Whether the process's main thread is in the system call numbered `main` and another of
    /// its threads in `other`, read from /proc/PID/task/TID/syscall.
    private static func threadsWait(_ pid: Int32, main: Int, other: Int) -> Bool {
      func call(_ thread: String) -> Int? {
        let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/syscall", encoding: .utf8)
        return text?.split(separator: " ").first.flatMap { Int($0) }
      }
      guard call("\(pid)") == main,
        let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
      else { return false }
      return threads.contains { $0 != "\(pid)" && call($0) == other }
    }
  #endif

  /// A background sink whose batch is cut short by a file size limit (RLIMIT_FSIZE in the child)
  /// counts, in `linesWritten`, exactly the complete lines that reached the file.
  @Test func linesWrittenCountsTheLinesOfAWriteThatFailedPartway() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "chronicle-limited-\(UUID()).ndjson")
    defer { try? FileManager.default.removeItem(at: file) }
    let limit = 300_001
    let (lines, process) = try runToEnd([file.path, "0", "1000", "limited:\(limit)"])
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 0)
    let bytes = try Data(contentsOf: file)
    #expect(bytes.count == limit)
    let completeLines = bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    #expect(completeLines > 150)
    #expect(lines == ["\(completeLines)"])
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
