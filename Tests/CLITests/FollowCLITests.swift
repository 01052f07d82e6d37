import ChronicleFormats
import ChronicleStore
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

/// A store whose tracer streams to `url` through an `NDJSONFileSink`, as an app's would.
private func streamingStore(to url: URL) throws -> Store<Tally.State, Tally.Action> {
  let sink = try NDJSONFileSink<Tally.State, Tally.Action>(url: url)
  let journal = Journal(reducer: Tally(), configuration: .init(sinks: [sink]))
  return Store(initialState: Tally.State(), reducer: Tally(), middleware: [.tracer(journal)])
}

@Suite struct FollowCLITests {
  @Test func followPrintsTheEntriesAlreadyWrittenThenEachOneAsTheSinkAppendsIt() throws {
    let url = try CLIRunner.temporaryFolder().appendingPathComponent("live.ndjson")
    let store = try streamingStore(to: url)
    store.send(.add(1), context: "Till")
    let follow = try ChildProcess("follow", url.path, "--for", "3")
    #expect(follow.nextLine() == #"0 #1 add [Till] user {"add":{"_0":1}}"#)
    store.send(.add(2))
    #expect(follow.nextLine() == #"1 #2 add user {"add":{"_0":2}}"#)
    store.send(.add(3), context: "Till")
    #expect(follow.nextLine() == #"2 #3 add [Till] user {"add":{"_0":3}}"#)
    let end = follow.waitForExit()
    #expect(end.status == 0)
    #expect(end.rest == "")
  }

  @Test func followEndsCleanlyOnControlC() throws {
    let url = try CLIRunner.temporaryFolder().appendingPathComponent("live.ndjson")
    let store = try streamingStore(to: url)
    store.send(.add(5))
    let follow = try ChildProcess("follow", url.path)
    #expect(follow.nextLine() == #"0 #1 add user {"add":{"_0":5}}"#)
    follow.interrupt()
    let end = follow.waitForExit()
    #expect(end.status == 0)
    #expect(end.rest == "")
  }

  @Test func followWaitsForATornLastLineToBeCompleted() throws {
    let source = try CLIRunner.temporaryFolder().appendingPathComponent("source.ndjson")
    let store = try streamingStore(to: source)
    store.send(.add(1))
    store.send(.add(2))
    let lines = try String(contentsOf: source, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    let url = source.deletingLastPathComponent().appendingPathComponent("live.ndjson")
    let half = lines[2].index(lines[2].startIndex, offsetBy: lines[2].count / 2)
    try Data((lines[0] + "\n" + lines[1] + "\n" + lines[2][..<half]).utf8).write(to: url)
    let follow = try ChildProcess("follow", url.path, "--for", "2")
    // Printed after reading the file with its torn line: the rest is appended only now.
    #expect(follow.nextLine() == #"0 #1 add user {"add":{"_0":1}}"#)
    let handle = try FileHandle(forWritingTo: url)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data((lines[2][half...] + "\n").utf8))
    try handle.close()
    #expect(follow.nextLine() == #"1 #2 add user {"add":{"_0":2}}"#)
    let end = follow.waitForExit()
    #expect(end.status == 0)
    #expect(end.rest == "")
  }

  @Test func followNeedsAPositiveCount() throws {
    let result = try CLIRunner.chronicle("follow", "live.ndjson", "--for", "0")
    #expect(result.status == 2)
    #expect(result.errors.hasPrefix("chronicle: --for takes a number of entries, at least 1, not \"0\"\n"))
  }

  @Test func followOfAMissingFileExitsWithOne() throws {
    let absent = try CLIRunner.temporaryFolder().appendingPathComponent("absent.ndjson").path
    let result = try CLIRunner.chronicle("follow", absent, "--for", "1")
    #expect(result.status == 1)
    #expect(result.errors == "chronicle: cannot read \(absent): No such file or directory\n")
  }
}

@Suite struct FollowFileChangeTests {
  @Test func followStartsAgainWhenANewSinkTruncatesTheFile() throws {
    let url = try CLIRunner.temporaryFolder().appendingPathComponent("live.ndjson")
    let firstRun = try streamingStore(to: url)
    firstRun.send(.add(1), context: "Till")
    let follow = try ChildProcess("follow", url.path, "--for", "2")
    #expect(follow.nextLine() == #"0 #1 add [Till] user {"add":{"_0":1}}"#)
    // The app starts again: a shorter file whose sequence numbers start from 1 again.
    let secondRun = try streamingStore(to: url)
    secondRun.send(.add(2))
    #expect(follow.nextLine() == #"0 #1 add user {"add":{"_0":2}}"#)
    #expect(follow.waitForExit().status == 0)
  }

  @Test func followOfACorruptFileExitsWithOneAndTheLoadersError() throws {
    let url = try CLIRunner.temporaryFolder().appendingPathComponent("bad.ndjson")
    try Data(#"{"format":"other"}"#.utf8).write(to: url)
    let result = try CLIRunner.chronicle("follow", url.path)
    #expect(result.status == 1)
    #expect(result.errors == "chronicle: \(url.path): not a chronicle.journal file (format: \"other\")\n")
  }
}
