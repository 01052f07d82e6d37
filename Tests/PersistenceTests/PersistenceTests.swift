import ChronicleClocks
import ChronicleInspection
import ChroniclePersistence
import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

struct Snapshot: Codable, Sendable, Equatable {
  var generation: Int
  var values: [Int]
}

struct Account: Codable, Sendable, Equatable {
  struct Token: SensitiveValue, Codable, Sendable, Equatable { var raw: String }
  var user: String
  @Redacted var password: String
  var token: Token
}

/// A new empty folder under the temporary directory, removed when the tests' process exits.
func temporaryDirectory() -> URL {
  do {
    return try TemporaryFolders.make(prefix: "chronicle-persistence")
  } catch {
    preconditionFailure("cannot create a temporary folder: \(error)")
  }
}

@Suite("Persistence")
struct PersistenceTests {
  @Test func missingFileRestoresTheDefaultWithoutError() {
    let persistence = StatePersistence<Counter.State>(key: "counter", directory: temporaryDirectory())
    let restored = persistence.restore(default: Counter.State(count: 7))
    #expect(restored.state == Counter.State(count: 7))
    #expect(restored.error == nil)
  }

  @Test func savedStateIsRestoredUnderAStableFileName() throws {
    let directory = temporaryDirectory()
    let first = StatePersistence<Counter.State>(key: "app/counter", directory: directory)
    try first.save(Counter.State(count: 3, log: ["a"]))
    let second = StatePersistence<Counter.State>(key: "app/counter", directory: directory)
    #expect(second.fileURL.lastPathComponent == "app_counter.json")
    #expect(second.restore(default: Counter.State()).state == Counter.State(count: 3, log: ["a"]))
  }

  @Test func corruptFileGivesATypedErrorTheDefaultAndIsKeptAside() throws {
    let directory = temporaryDirectory()
    let persistence = StatePersistence<Counter.State>(key: "counter", directory: directory)
    let garbage = Data("{\"format\":\"chronicle.state\",\"vers".utf8)
    try garbage.write(to: persistence.fileURL)
    let restored = persistence.restore(default: Counter.State(count: 1))
    #expect(restored.state == Counter.State(count: 1))
    guard case .corrupt(let detail)? = restored.error?.reason else {
      Issue.record("expected a corrupt error, got \(String(describing: restored.error))")
      return
    }
    #expect(detail.hasPrefix("invalid JSON"))
    let kept = try #require(restored.error?.keptAt)
    #expect(kept.lastPathComponent == "counter.json.bad-1")
    #expect(try Data(contentsOf: kept) == garbage)
    #expect(!FileManager.default.fileExists(atPath: persistence.fileURL.path))
  }

  @Test func fileOfAnotherStateTypeIsIncompatible() throws {
    let directory = temporaryDirectory()
    try StatePersistence<Snapshot>(key: "shared", directory: directory).save(
      Snapshot(generation: 1, values: []))
    let persistence = StatePersistence<Counter.State>(key: "shared", directory: directory)
    let restored = persistence.restore(default: Counter.State())
    guard case .incompatible(let expected, let found)? = restored.error?.reason else {
      Issue.record("expected incompatible, got \(String(describing: restored.error))")
      return
    }
    #expect(expected.hasSuffix("Counter.State"))
    #expect(found.hasSuffix("Snapshot"))
    #expect(restored.error?.keptAt?.lastPathComponent == "shared.json.bad-1")
  }

  @Test func wrongFieldTypeNamesTheField() throws {
    let directory = temporaryDirectory()
    let persistence = StatePersistence<Counter.State>(key: "counter", directory: directory)
    let type = String(reflecting: Counter.State.self)
    let json =
      "{\"format\":\"chronicle.state\",\"version\":1,\"type\":\"\(type)\",\"state\":{\"count\":\"x\",\"log\":[]}}"
    try Data(json.utf8).write(to: persistence.fileURL)
    guard case .corrupt(let detail)? = persistence.restore(default: Counter.State()).error?.reason else {
      Issue.record("expected corrupt")
      return
    }
    #expect(detail.hasPrefix("wrong type at .state.count"))
  }

  @Test func changesAreWrittenOnceTheIntervalHasPassedWithTheLatestState() async {
    let clock = TestClock()
    let persistence = StatePersistence<Counter.State>(
      key: "counter", directory: temporaryDirectory(), coalescing: .milliseconds(500), clock: clock)
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let saving = persistence.attach(to: store)
    store.send(.increment)
    store.send(.increment)
    await clock.advance(by: .milliseconds(499))
    #expect(!FileManager.default.fileExists(atPath: persistence.fileURL.path))
    store.send(.increment)
    await clock.advance(by: .milliseconds(1))
    #expect(persistence.restore(default: Counter.State()).state.count == 3)
    store.send(.add(10))
    await clock.advance(by: .milliseconds(500))
    #expect(persistence.restore(default: Counter.State()).state.count == 13)
    await store.waitUntilIdle()
    saving.cancel()
  }

  @Test func releasedStoreWritesItsLastPendingState() async {
    let clock = TestClock()
    let persistence = StatePersistence<Counter.State>(
      key: "counter", directory: temporaryDirectory(), coalescing: .seconds(5), clock: clock)
    var store: Store<Counter.State, Counter.Action>? = Store(
      initialState: Counter.State(), reducer: Counter())
    let saving = persistence.attach(to: store!)
    store?.send(.add(7))
    await clock.advance(by: .zero)  // lets the pending write reach its sleep
    store = nil  // cancels the pending write, which then writes at once
    await clock.advance(by: .zero)
    #expect(persistence.restore(default: Counter.State()).state.count == 7)
    saving.cancel()
  }

  @Test func redactedPropertiesAndSensitiveValuesSurviveARestart() throws {
    let directory = temporaryDirectory()
    let account = Account(user: "ada", password: "hunter2", token: Account.Token(raw: "s3cr3t"))
    try StatePersistence<Account>(key: "account", directory: directory).save(account)
    let restored = StatePersistence<Account>(key: "account", directory: directory)
      .restore(default: Account(user: "", password: "", token: Account.Token(raw: "")))
    #expect(restored.error == nil)
    #expect(restored.state == account)
    #expect(restored.state.password == "hunter2")
  }

  @Test func redactedValuesAreWrittenInClearToTheAppsOwnFile() throws {
    let persistence = StatePersistence<Account>(key: "account", directory: temporaryDirectory())
    try persistence.save(Account(user: "ada", password: "hunter2", token: Account.Token(raw: "s3cr3t")))
    let text = String(decoding: try Data(contentsOf: persistence.fileURL), as: UTF8.self)
    #expect(text.contains(#""password":"hunter2""#))
    #expect(text.contains(#""token":{"raw":"s3cr3t"}"#))
    #expect(!text.contains("<redacted>"))
  }

  @Test func redactedPlaceholderOutsidePersistenceIsUnchanged() throws {
    let data = try JSONEncoder().encode(Redacted("hunter2"))
    #expect(String(decoding: data, as: UTF8.self) == #""<redacted>""#)
  }

  @Test func fileLargerThanTheLimitIsRefusedBeforeReadingAndKeptAside() throws {
    let directory = temporaryDirectory()
    let persistence = StatePersistence<Counter.State>(key: "counter", directory: directory)
    // A sparse 2 GiB file: reading it would allocate 2 GiB.
    let descriptor = open(persistence.fileURL.path, O_WRONLY | O_CREAT, 0o644)
    #expect(ftruncate(descriptor, 2 << 30) == 0)
    close(descriptor)
    let restored = persistence.restore(default: Counter.State(count: 2))
    #expect(restored.state == Counter.State(count: 2))
    #expect(restored.error?.reason == .tooLarge(bytes: 2 << 30, limit: 64 << 20))
    #expect(restored.error?.keptAt?.lastPathComponent == "counter.json.bad-1")
  }

  @Test func maxFileBytesBoundsTheFileRead() throws {
    let directory = temporaryDirectory()
    try StatePersistence<Counter.State>(key: "counter", directory: directory).save(Counter.State(count: 5))
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("counter.json").path)[
        .size] as? Int)
    let exact = StatePersistence<Counter.State>(key: "counter", directory: directory, maxFileBytes: size)
    #expect(exact.restore(default: Counter.State()).state.count == 5)
    let smaller = StatePersistence<Counter.State>(
      key: "counter", directory: directory, maxFileBytes: size - 1)
    #expect(
      smaller.restore(default: Counter.State()).error?.reason == .tooLarge(bytes: size, limit: size - 1))
  }

  @Test func symbolicLinkLoopIsReportedAsALoop() throws {
    let directory = temporaryDirectory()
    let persistence = StatePersistence<Counter.State>(key: "counter", directory: directory)
    let other = directory.appendingPathComponent("other.json")
    try FileManager.default.createSymbolicLink(at: persistence.fileURL, withDestinationURL: other)
    try FileManager.default.createSymbolicLink(at: other, withDestinationURL: persistence.fileURL)
    let restored = persistence.restore(default: Counter.State(count: 4))
    #expect(restored.state == Counter.State(count: 4))
    #expect(restored.error?.reason == .symbolicLinkLoop)
    #expect(restored.error?.keptAt == nil)
  }

  @Test func fifoIsRefusedAsNotARegularFileWithoutBlocking() throws {
    let persistence = StatePersistence<Counter.State>(key: "counter", directory: temporaryDirectory())
    #expect(mkfifo(persistence.fileURL.path, 0o644) == 0)
    let restored = persistence.restore(default: Counter.State(count: 4))
    #expect(restored.state == Counter.State(count: 4))
    #expect(restored.error?.reason == .notARegularFile("FIFO"))
    #expect(restored.error?.keptAt == nil)
  }

  @Test func directoryIsRefusedAsNotARegularFile() throws {
    let persistence = StatePersistence<Counter.State>(key: "counter", directory: temporaryDirectory())
    try FileManager.default.createDirectory(at: persistence.fileURL, withIntermediateDirectories: false)
    #expect(persistence.restore(default: Counter.State()).error?.reason == .notARegularFile("directory"))
  }

  @Test func temporariesOfDeadWritersAreRemovedAndOthersKept() throws {
    let directory = temporaryDirectory()
    let persistence = StatePersistence<Counter.State>(key: "counter", directory: directory)
    let finished = Process()
    finished.executableURL = URL(fileURLWithPath: "/bin/true")
    try finished.run()
    finished.waitUntilExit()
    let names = [
      ".counter.json.\(finished.processIdentifier).42.tmp",  // a dead writer's: removed
      ".counter.json.\(getpid()).43.tmp",  // a write in progress in this process: kept
      ".counter.json.\(getppid()).44.tmp",  // a live process's: kept
      ".counter.json.notes.tmp",  // not of our shape: kept
      ".other.json.\(finished.processIdentifier).45.tmp",  // another key's: kept
    ]
    for name in names {
      try Data("x".utf8).write(to: directory.appendingPathComponent(name))
    }
    _ = persistence.restore(default: Counter.State())
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    #expect(left == names.dropFirst().sorted())
    try persistence.save(Counter.State(count: 1))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        == (names.dropFirst() + ["counter.json"]).sorted())
  }

  @Test func processKilledWhileWritingLeavesAWholeFile() throws {
    let writer = try #require(siblingExecutable("PersistenceCrashWriter"))
    let directory = temporaryDirectory()
    for _ in 0..<3 {
      let process = Process()
      process.executableURL = writer
      process.arguments = [directory.path]
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      // The child prints "ready" after its first complete save, then keeps writing.
      let ready = output.fileHandleForReading.availableData
      #expect(String(decoding: ready, as: UTF8.self).hasPrefix("ready"))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let restored = StatePersistence<Snapshot>(key: "crash", directory: directory, typeName: "Snapshot")
        .restore(default: Snapshot(generation: 0, values: []))
      #expect(restored.error == nil)
      #expect(restored.state.generation >= 1)
      #expect(restored.state.values.count == 20_000)
      #expect(Set(restored.state.values) == [restored.state.generation])
      let temporaries = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
        $0.hasSuffix(".tmp")
      }
      #expect(temporaries == [])
    }
  }
}

/// An executable built next to the test binary.
func siblingExecutable(_ name: String) -> URL? {
  var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
  for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
    candidates.append(bundle.bundleURL.deletingLastPathComponent())
  }
  return candidates.map { $0.appendingPathComponent(name) }.first {
    FileManager.default.isExecutableFile(atPath: $0.path)
  }
}
