import ChronicleFormats
import ChronicleStore
import ChronicleTimeTravel
import ChronicleTracer
import Foundation
import Testing

private struct Tally: Reducer {
  struct State: Codable, Equatable, Sendable { var total = 0 }
  enum Action: Codable, Equatable, Sendable { case add(Int) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let amount): state.total += amount
    }
    return .none
  }
}

/// `chronicle repair`, and the other readers, on what a killed mapped sink leaves: its lines,
/// a torn line, then the NUL bytes it had grown the file by.
@Suite struct RepairCLITests {
  /// A killed mapped sink's file (the open file, copied) with `torn` bytes of a line after three
  /// entries; and the plain NDJSON of those entries.
  private func killedFile(torn: String) throws -> (url: URL, lines: Data) {
    let folder = try CLIRunner.temporaryFolder()
    let live = folder.appendingPathComponent("live.ndjson")
    let sink = try NDJSONFileSink<Tally.State, Tally.Action>(url: live, writing: .mapped(chunkBytes: 8_192))
    let journal = Journal(reducer: Tally(), configuration: .init(checkpointInterval: 1, sinks: [sink]))
    let store = Store(initialState: Tally.State(), reducer: Tally(), middleware: [.tracer(journal)])
    for amount in 1...3 { store.send(.add(amount)) }
    var bytes = try Data(contentsOf: live)
    let end = try #require(bytes.lastIndex(of: UInt8(ascii: "\n"))) + 1
    bytes.replaceSubrange(end..<(end + torn.utf8.count), with: Data(torn.utf8))
    let killed = folder.appendingPathComponent("killed.ndjson")
    try bytes.write(to: killed)
    sink.close()
    return (killed, try Data(contentsOf: live))
  }

  @Test func repairCutsTheTornLineAndTheNULBytesInPlace() throws {
    let file = try killedFile(torn: #"{"entry":{"ind"#)
    let size = try Data(contentsOf: file.url).count
    let result = try CLIRunner.chronicle("repair", file.url.path)
    #expect(result.status == 0)
    #expect(
      result.output
        == "\(file.url.path): 4 complete lines kept; cut the torn line 5 (14 bytes) and "
        + "\(size - file.lines.count - 14) unwritten (NUL) bytes\n")
    #expect(try Data(contentsOf: file.url) == file.lines)
  }

  @Test func repairWritesToAnotherFileAndLeavesTheInputAsItWas() throws {
    let file = try killedFile(torn: "")
    let before = try Data(contentsOf: file.url)
    let output = file.url.deletingLastPathComponent().appendingPathComponent("plain.ndjson")
    let result = try CLIRunner.chronicle("repair", file.url.path, output.path)
    #expect(result.status == 0)
    #expect(try Data(contentsOf: output) == file.lines)
    #expect(try Data(contentsOf: file.url) == before)
  }

  @Test func repairOfACompleteStreamCutsNothing() throws {
    let file = try killedFile(torn: "")
    let plain = file.url.deletingLastPathComponent().appendingPathComponent("plain.ndjson")
    try file.lines.write(to: plain)
    let result = try CLIRunner.chronicle("repair", plain.path)
    #expect(result.status == 0)
    #expect(result.output == "\(plain.path) ends with a complete line: nothing to cut\n")
    #expect(try Data(contentsOf: plain) == file.lines)
  }

  @Test func repairRefusesAJournalJSONFileAndLeavesItAsItWas() throws {
    let folder = try CLIRunner.temporaryFolder()
    let url = folder.appendingPathComponent("journal.json")
    let text = Data(#"{"format":"chronicle.journal","version":1}"#.utf8)
    try text.write(to: url)
    let result = try CLIRunner.chronicle("repair", url.path)
    #expect(result.status == 1)
    #expect(result.errors.hasPrefix("chronicle: \(url.path): "))
    #expect(try Data(contentsOf: url) == text)
  }

  @Test func summaryReadsAKilledMappedSinksFile() throws {
    let file = try killedFile(torn: #"{"entry""#)
    let result = try CLIRunner.chronicle("summary", file.url.path, "--json")
    #expect(result.status == 0)
    #expect(result.output.contains(#""entries":3"#))
  }

  /// A mapped sink's file before its first line (the sink grows it when it is created): NUL
  /// bytes only. Left by a process killed then, it is a stream that ends inside its header, as
  /// an empty file is: `summary` and `repair` say so, and `Replay.verify` has nothing to replay.
  @Test func theReadersTakeAFileOfNULBytesForAStreamWithoutItsHeader() throws {
    let folder = try CLIRunner.temporaryFolder()
    let live = folder.appendingPathComponent("live.ndjson")
    let sink = try NDJSONFileSink<Tally.State, Tally.Action>(url: live, writing: .mapped(chunkBytes: 8_192))
    let killed = folder.appendingPathComponent("killed.ndjson")
    try Data(contentsOf: live).write(to: killed)
    sink.close()
    #expect(try Data(contentsOf: killed) == Data(count: 8_192))
    for command in ["summary", "repair"] {
      let result = try CLIRunner.chronicle(command, killed.path)
      #expect(result.status == 1)
      #expect(result.errors == "chronicle: \(killed.path): the input ends inside (header) (byte 0)\n")
    }
    let report = try Replay.verify(ndjson: killed, reducer: Tally())
    #expect(report.replayedEntries == 0)
  }

  @Test func replayVerifiesAKilledMappedSinksFile() throws {
    let file = try killedFile(torn: #"{"entry""#)
    let report = try Replay.verify(ndjson: file.url, reducer: Tally())
    #expect(report.succeeded)
    #expect(report.replayedEntries == 3)
    // Each entry after the first carries a checkpoint: the state after the one before it.
    #expect(report.verifiedStates == 2)
  }
}
