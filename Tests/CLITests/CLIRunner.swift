import ChronicleTestSupport
import Foundation

/// What a run of one of the package's executables did.
struct CLIResult {
  var status: Int32
  var output: String
  var errors: String
}

/// Runs the package's executables (built next to the test bundle) in child processes.
enum CLIRunner {
  /// The folder the build put the executables in: the test bundle's own folder or one above it.
  static let products: URL = {
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    while !FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("chronicle").path),
      url.pathComponents.count > 1
    {
      url.deleteLastPathComponent()
    }
    return url
  }()

  static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil
  ) throws -> CLIResult {
    let process = Process()
    process.executableURL = products.appendingPathComponent(executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    // Errors go to a file, so that neither pipe can fill up while the other is read.
    let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent(
      "chronicle-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errorFile) }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: errorFile)
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CLIResult(
      status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
      // Read through a handle: `Data(contentsOf:)` of an empty file leaks a buffer in this
      // toolchain's Foundation, which fails the AddressSanitizer run.
      errors: String(
        decoding: try FileHandle(forReadingFrom: errorFile).readToEnd() ?? Data(), as: UTF8.self))
  }

  /// `chronicle` with `arguments`.
  static func chronicle(_ arguments: String...) throws -> CLIResult { try run("chronicle", arguments) }

  /// A new empty folder under the temporary directory, removed when the tests' process exits.
  static func temporaryFolder() throws -> URL {
    try TemporaryFolders.make(prefix: "chronicle-cli")
  }
}
