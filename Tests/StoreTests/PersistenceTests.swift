import ChronicleStore
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

func temporaryDirectory() -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("chronicle-\(UUID().uuidString)")
  try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
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
