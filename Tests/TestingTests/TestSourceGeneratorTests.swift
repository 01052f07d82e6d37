import ChronicleStore
import ChronicleTesting
import ChronicleTimeTravel
import ChronicleTracer
import Foundation
import Testing

/// The feature of the generated tests. `meterSource` is the same code, compiled into the scratch
/// package of the slow test.
struct Meter: Reducer {
  struct State: Equatable, Sendable, Codable {
    var total = 0
    var label = ""
    var history: [Int] = []
  }

  enum Action: Equatable, Sendable, Codable {
    case add(Int)
    case rename(String)
    case double
    case doubled(Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let amount):
      state.total += amount
      state.history.append(amount)
      return .none
    case .rename(let label):
      state.label = label
      return .none
    case .double:
      return .send(.doubled(state.total * 2))
    case .doubled(let total):
      state.total = total
      return .none
    }
  }
}

let meterSource = """
  import ChronicleStore

  public struct Meter: Reducer {
    public struct State: Equatable, Sendable, Codable {
      public var total = 0
      public var label = ""
      public var history: [Int] = []
    }

    public enum Action: Equatable, Sendable, Codable {
      case add(Int)
      case rename(String)
      case double
      case doubled(Int)
    }

    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .add(let amount):
        state.total += amount
        state.history.append(amount)
        return .none
      case .rename(let label):
        state.label = label
        return .none
      case .double:
        return .send(.doubled(state.total * 2))
      case .doubled(let total):
        state.total = total
        return .none
      }
    }
  }

  """

private func recordedMeter() -> Journal<Meter.State, Meter.Action> {
  let journal = Journal(reducer: Meter(), configuration: .init(checkpointInterval: 2))
  let store = Store(initialState: Meter.State(), reducer: Meter(), middleware: [.tracer(journal)])
  store.send(.add(3))
  store.send(.rename("Main \"hall\""))
  store.send(.double)
  store.send(.rename("Hall"))
  store.send(.add(1))
  return journal
}

@Suite struct TestSourceGeneratorTests {
  @Test func aRangeBecomesSendsReceivesAndStateChanges() throws {
    let source = try TestSourceGenerator.source(
      from: recordedMeter().snapshot(), range: 1..<6, reducer: "Meter()", imports: ["Feature"],
      stateType: "Meter.State")
    #expect(
      source == #"""
        import ChronicleTesting
        import Foundation
        import Testing
        import Feature

        @Test func recordedRun() async throws {
          let store = TestStore(
            initialState: try decode(#"{"history":[3],"label":"","total":3}"#),
            reducer: Meter())
          await store.send(.rename("Main \"hall\"")) {
            $0 = try decode(#"{"history":[3],"label":"Main \"hall\"","total":3}"#)
          }
          await store.send(.double)
          await store.receive(.doubled(6)) {
            $0.total = 6
          }
          await store.send(.rename("Hall")) {
            $0.label = "Hall"
          }
          await store.send(.add(1)) {
            $0 = try decode(#"{"history":[3,1],"label":"Hall","total":7}"#)
          }
        }

        /// Decodes a recorded state from its JSON.
        private func decode(_ json: String) throws -> Meter.State {
          try JSONDecoder().decode(Meter.State.self, from: Data(json.utf8))
        }

        """#)
  }

  @Test func anEmptyRangeIsRefused() {
    #expect(throws: TestSourceGenerator.Failure.emptyRange) {
      try TestSourceGenerator.source(from: recordedMeter().snapshot(), range: 9..<12, reducer: "Meter()")
    }
  }

  /// Builds a scratch package that depends on this one by path, with the generated file as its
  /// test, and runs it. Slow (it compiles the library): runs only with `CHRONICLE_SLOW_TESTS=1`.
  @Test(.enabled(if: ProcessInfo.processInfo.environment["CHRONICLE_SLOW_TESTS"] == "1"))
  func theGeneratedTestCompilesAndPassesInAScratchPackage() throws {
    let root = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "generated-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let manifest = """
      // swift-tools-version: 6.1
      import PackageDescription

      let package = Package(
        name: "Generated",
        platforms: [.macOS(.v15)],
        dependencies: [.package(name: "Chronicle", path: "\(root.path)")],
        targets: [
          .target(name: "Feature", dependencies: [.product(name: "ChronicleStore", package: "Chronicle")]),
          .testTarget(
            name: "GeneratedTests",
            dependencies: ["Feature", .product(name: "ChronicleTesting", package: "Chronicle")]),
        ]
      )

      """
    let test = try TestSourceGenerator.source(
      from: recordedMeter().snapshot(), range: 1..<6, reducer: "Meter()", imports: ["Feature"],
      stateType: "Meter.State")
    let files = [
      "Package.swift": manifest, "Sources/Feature/Meter.swift": meterSource,
      "Tests/GeneratedTests/GeneratedTests.swift": test,
    ]
    for (path, text) in files {
      let url = scratch.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift", "test", "--package-path", scratch.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let log = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(log)")
    #expect(log.contains("Test recordedRun() passed"), "\(log)")
  }
}
