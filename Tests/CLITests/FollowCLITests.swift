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
/// With `mapped`, the sink copies its lines into a mapping grown 4 KiB at a time.
private func streamingStore(to url: URL, mapped: Bool = false) throws -> Store<Tally.State, Tally.Action> {
  let sink = try NDJSONFileSink<Tally.State, Tally.Action>(
    url: url, writing: mapped ? .mapped(chunkBytes: 4_096) : .eachLine)
  let journal = Journal(reducer: Tally(), configuration: .init(sinks: [sink]))
  return Store(initialState: Tally.State(), reducer: Tally(), middleware: [.tracer(journal)])
}

@Suite struct FollowCLITests {
  /// Each line written, or copied into a mapping grown ahead of the lines (NUL bytes after them).
  @Test(arguments: [false, true])
  func followPrintsTheEntriesAlreadyWrittenThenEachOneAsTheSinkAppendsIt(mapped: Bool) throws {
    let url = try CLIRunner.temporaryFolder().appendingPathComponent("live.ndjson")
    let store = try streamingStore(to: url, mapped: mapped)
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

  /// A mapped sink's file from the sink's creation, before its first line: NUL bytes only, which
  /// `follow` waits on as on an empty file, then reads as the lines come.
  @Test func followWaitsOnAMappedSinksFileBeforeItsFirstLine() throws {
    let url = try CLIRunner.temporaryFolder().appendingPathComponent("live.ndjson")
    let store = try streamingStore(to: url, mapped: true)
    #expect(try Data(contentsOf: url) == Data(count: 4_096))
    #if os(Linux)
      // Until the follower has read the file (an inotify event, with a deadline): it reads the
      // NUL bytes before the first line.
      let watch = inotify_init1(Int32(IN_CLOEXEC))
      #expect(inotify_add_watch(watch, url.path, UInt32(IN_ACCESS)) >= 0)
      let follow = try ChildProcess("follow", url.path, "--for", "2")
      var event = pollfd(fd: watch, events: Int16(POLLIN), revents: 0)
      #expect(poll(&event, 1, 30_000) == 1)
      close(watch)
    #else
      let follow = try ChildProcess("follow", url.path, "--for", "2")
    #endif
    store.send(.add(1))
    store.send(.add(2))
    #expect(follow.nextLine() == #"0 #1 add user {"add":{"_0":1}}"#)
    #expect(follow.nextLine() == #"1 #2 add user {"add":{"_0":2}}"#)
    #expect(follow.waitForExit().status == 0)
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
  /// Each line written, or copied into a mapping grown ahead of the lines (NUL bytes after them).
  @Test(arguments: [false, true])
  func followStartsAgainWhenANewSinkTruncatesTheFile(mapped: Bool) throws {
    let url = try CLIRunner.temporaryFolder().appendingPathComponent("live.ndjson")
    let firstRun = try streamingStore(to: url, mapped: mapped)
    firstRun.send(.add(1), context: "Till")
    let follow = try ChildProcess("follow", url.path, "--for", "2")
    #expect(follow.nextLine() == #"0 #1 add [Till] user {"add":{"_0":1}}"#)
    // The app starts again: a shorter file whose sequence numbers start from 1 again.
    let secondRun = try streamingStore(to: url, mapped: mapped)
    secondRun.send(.add(2))
    #expect(follow.nextLine() == #"0 #1 add user {"add":{"_0":2}}"#)
    #expect(follow.waitForExit().status == 0)
  }

  /// The lines `follow` prints for entries `0..<count` of adds of `first`, `first + 1`, ….
  private func lines(_ count: Int, adding first: Int) -> [String] {
    (0..<count).map { #"\#($0) #\#($0 + 1) add user {"add":{"_0":\#(first + $0)}}"# }
  }

  /// The bytes a sink writes for adds of `values`, made in a file of their own.
  private func stream(adding values: ClosedRange<Int>) throws -> Data {
    let url = try CLIRunner.temporaryFolder().appendingPathComponent("other.ndjson")
    do {
      let store = try streamingStore(to: url)
      for value in values { store.send(.add(value)) }
    }
    return try Data(contentsOf: url)
  }

  /// Rotated as logs are: the file renamed, a new sink writing a new one at the path. Every entry
  /// of the old file is printed (those written after the last poll too), then the new file's
  /// from its start. Each line written, or copied into a mapping (NUL bytes after the lines).
  @Test(arguments: [false, true])
  func followReadsTheRestOfARotatedFileThenTheNewOneFromItsStart(mapped: Bool) throws {
    let folder = try CLIRunner.temporaryFolder()
    let url = folder.appendingPathComponent("live.ndjson")
    let firstRun = try streamingStore(to: url, mapped: mapped)
    firstRun.send(.add(0))
    let follow = try ChildProcess("follow", url.path, "--for", "130")
    #expect(follow.nextLine() == lines(1, adding: 0)[0])
    for value in 1..<100 { firstRun.send(.add(value)) }
    try FileManager.default.moveItem(at: url, to: folder.appendingPathComponent("live.1.ndjson"))
    let secondRun = try streamingStore(to: url, mapped: mapped)
    for value in 1_000..<1_030 { secondRun.send(.add(value)) }
    var printed: [String] = []
    while printed.count < 129, let line = follow.nextLine() { printed.append(line) }
    #expect(printed == Array(lines(100, adding: 0).dropFirst()) + lines(30, adding: 1_000))
    // Between the rename and the new file, a poll may find no file at the path.
    var said = follow.nextErrorLine()
    if said == "chronicle: \(url.path) was removed; waiting for it to be created again" {
      said = follow.nextErrorLine()
    }
    #expect(said == "chronicle: \(url.path) was replaced; following the new file from its start")
    #expect(follow.waitForExit().status == 0)
  }

  /// Truncated and written again past its old length at once (within one poll): the header
  /// differs, so the new content is printed from its start.
  @Test func followStartsAgainWhenTheFileIsTruncatedAndRegrownWithinAPoll() throws {
    let url = try CLIRunner.temporaryFolder().appendingPathComponent("live.ndjson")
    let firstRun = try streamingStore(to: url)
    for value in 0..<10 { firstRun.send(.add(value)) }
    let follow = try ChildProcess("follow", url.path, "--for", "30")
    for line in lines(10, adding: 0) { #expect(follow.nextLine() == line) }
    let replacement = try stream(adding: 100...119)
    let handle = try FileHandle(forWritingTo: url)
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: replacement)
    try handle.close()
    for line in lines(20, adding: 100) { #expect(follow.nextLine() == line) }
    #expect(follow.nextErrorLine() == "chronicle: \(url.path) was truncated; following it from its start")
    #expect(follow.waitForExit().status == 0)
  }

  /// Deleted: `follow` says so and waits; created again: its entries are printed from the start.
  @Test func followWaitsForADeletedFileAndReadsItWhenItIsCreatedAgain() throws {
    let url = try CLIRunner.temporaryFolder().appendingPathComponent("live.ndjson")
    let firstRun = try streamingStore(to: url)
    for value in 0..<3 { firstRun.send(.add(value)) }
    let follow = try ChildProcess("follow", url.path, "--for", "6")
    for line in lines(3, adding: 0) { #expect(follow.nextLine() == line) }
    try FileManager.default.removeItem(at: url)
    #expect(
      follow.nextErrorLine() == "chronicle: \(url.path) was removed; waiting for it to be created again")
    let secondRun = try streamingStore(to: url)
    for value in 10..<13 { secondRun.send(.add(value)) }
    for line in lines(3, adding: 10) { #expect(follow.nextLine() == line) }
    #expect(
      follow.nextErrorLine() == "chronicle: \(url.path) was replaced; following the new file from its start")
    #expect(follow.waitForExit().status == 0)
  }

  /// Replaced by a rename over it (another inode): the new file is printed from its start.
  @Test func followReadsAFileRenamedOverItFromItsStart() throws {
    let folder = try CLIRunner.temporaryFolder()
    let url = folder.appendingPathComponent("live.ndjson")
    let firstRun = try streamingStore(to: url)
    for value in 0..<3 { firstRun.send(.add(value)) }
    let follow = try ChildProcess("follow", url.path, "--for", "8")
    for line in lines(3, adding: 0) { #expect(follow.nextLine() == line) }
    let replacement = folder.appendingPathComponent("next.ndjson")
    try stream(adding: 20...24).write(to: replacement)
    #expect(rename(replacement.path, url.path) == 0)
    for line in lines(5, adding: 20) { #expect(follow.nextLine() == line) }
    #expect(
      follow.nextErrorLine() == "chronicle: \(url.path) was replaced; following the new file from its start")
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
