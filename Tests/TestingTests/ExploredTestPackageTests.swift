import ChronicleTesting
import Foundation
import Testing

/// The worked example's generated test in a package of its own, as a user gets it: a scratch
/// package depends on this one by path, holds the todo list (buggy unless `TODOS_FIXED=1`) and the
/// generated file as its test, and `swift test` runs it twice. Slow (it compiles the library):
/// runs only with `CHRONICLE_SLOW_TESTS=1`.
@Suite struct ExploredTestPackageTests {
  @Test(.enabled(if: ProcessInfo.processInfo.environment["CHRONICLE_SLOW_TESTS"] == "1"))
  func theGeneratedTestFailsOnTheBuggyReducerAndPassesOnTheFixedOne() async throws {
    let root = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "explored-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let failure = try #require(await todosExplorer().explore().failure)
    let test = failure.testSource(
      ExplorationTestOptions(
        reducer: "ExampleTodos()", imports: ["ExploredFeature"], stateType: "ExampleTodos.State"))
    let files = [
      "Package.swift": manifest(root: root), "Sources/ExploredFeature/Todos.swift": try featureSource(),
      "Tests/ExploredFeatureTests/ExploredTest.swift": test,
    ]
    for (path, text) in files {
      let url = scratch.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    let buggy = try swiftTest(scratch, fixed: false)
    #expect(buggy.status != 0, "\(buggy.log)")
    #expect(buggy.log.contains("Test exploredFailure() failed"), "\(buggy.log)")
    #expect(buggy.log.contains("selectionAgrees"), "\(buggy.log)")
    let fixed = try swiftTest(scratch, fixed: true)
    #expect(fixed.status == 0, "\(fixed.log)")
    #expect(fixed.log.contains("Test exploredFailure() passed"), "\(fixed.log)")
  }

  private func manifest(root: URL) -> String {
    """
    // swift-tools-version: 6.1
    import PackageDescription

    let package = Package(
      name: "Explored",
      platforms: [.macOS(.v15)],
      dependencies: [.package(name: "Chronicle", path: "\(root.path)")],
      targets: [
        .target(name: "ExploredFeature", dependencies: [.product(name: "ChronicleStore", package: "Chronicle")]),
        .testTarget(
          name: "ExploredFeatureTests",
          dependencies: [
            "ExploredFeature", .product(name: "ChronicleTesting", package: "Chronicle"),
            .product(name: "ChronicleClocks", package: "Chronicle"),
          ]),
      ]
    )

    """
  }

  /// The fixture's todo list, public, its fix chosen by the environment of the test process.
  private func featureSource() throws -> String {
    let fixtures = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent()
      .appendingPathComponent("ExplorationFixtures.swift")
    let text = try String(contentsOf: fixtures, encoding: .utf8)
    let start = try #require(text.range(of: "struct ExampleTodos: Reducer {"))
    let end = try #require(text.range(of: "  static let titles"))
    return "import ChronicleStore\nimport Foundation\n\n"
      + String(text[start.lowerBound..<end.lowerBound])
      .replacingOccurrences(
        of: "struct ExampleTodos: Reducer {", with: "public struct ExampleTodos: Reducer {"
      )
      .replacingOccurrences(of: "  struct ", with: "  public struct ")
      .replacingOccurrences(of: "  enum Action", with: "  public enum Action")
      .replacingOccurrences(of: "    var ", with: "    public var ")
      .replacingOccurrences(of: "    static func", with: "    public static func")
      .replacingOccurrences(of: "  func reduce", with: "  public func reduce")
      .replacingOccurrences(
        of: "@TaskLocal static var isFixed = true",
        with: #"static let isFixed = ProcessInfo.processInfo.environment["TODOS_FIXED"] == "1""#
      )
      .replacingOccurrences(
        of: "  var isFixed = ExampleTodos.isFixed",
        with: "  public init() {}\n  var isFixed = ExampleTodos.isFixed")
      + "}\n"
  }

  private func swiftTest(_ package: URL, fixed: Bool) throws -> (status: Int32, log: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift", "test", "--package-path", package.path]
    var environment = ProcessInfo.processInfo.environment
    environment["TODOS_FIXED"] = fixed ? "1" : "0"
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let log = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, log)
  }
}
