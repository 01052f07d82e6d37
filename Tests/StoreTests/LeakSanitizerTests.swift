import ChronicleTestSupport
import Foundation
import Testing

/// The repository's LeakSanitizer suppressions, which CI passes to `swift test --sanitize=address`.
private let suppressionsFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".ci/lsan-suppressions.txt")

/// The patterns of the suppressions file, in order.
private func suppressionPatterns() throws -> [String] {
  let text = try String(contentsOf: suppressionsFile, encoding: .utf8)
  return text.split(separator: "\n").compactMap { line in
    line.hasPrefix("leak:") ? String(line.dropFirst("leak:".count)) : nil
  }
}

/// The probe built next to this test binary (`swift build` builds every target), under the same
/// sanitizer.
private func probeURL() throws -> URL {
  var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    .deletingLastPathComponent()
  for _ in 0..<5 {
    let candidate = directory.appendingPathComponent("LeakProbe")
    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    directory.deleteLastPathComponent()
  }
  throw ProbeError.notBuilt
}

private enum ProbeError: Error {
  case notBuilt
}

/// Runs the probe with LeakSanitizer on, with the suppressions given; returns its exit status
/// and what it wrote to standard error.
private func runProbe(_ mode: String, suppressions: Bool) throws -> (status: Int32, errors: String) {
  let process = Process()
  process.executableURL = try probeURL()
  process.arguments = [mode]
  var environment = ProcessInfo.processInfo.environment
  environment["ASAN_OPTIONS"] = "detect_leaks=1"
  environment["LSAN_OPTIONS"] = suppressions ? "suppressions=\(suppressionsFile.path)" : ""
  process.environment = environment
  let errors = Pipe()
  process.standardError = errors
  process.standardOutput = Pipe()
  try process.run()
  let data = errors.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

@Suite struct LeakSanitizerTests {
  @Test func theSuppressionsNameTheToolchainsTablesAndNothingOfChronicles() throws {
    let patterns = try suppressionPatterns()
    #expect(patterns == ["libXCTest.so", "Foundation7ProcessC3run", "formWeakReference"])
    #expect(!patterns.contains { $0.contains("Chronicle") || $0.contains("Store") })
  }

  @Test(.enabled(if: Sanitizers.address))
  func aStoreAliveAtExitIsReportedOnlyForTheRuntimesWeakReferenceTable() throws {
    let (status, errors) = try runProbe("alive", suppressions: false)
    #expect(status != 0)
    #expect(errors.contains("SUMMARY: AddressSanitizer: 32 byte(s) leaked in 1 allocation(s)."))
    #expect(errors.contains("formWeakReference"))
  }

  @Test(.enabled(if: Sanitizers.address))
  func theSuppressionsCoverAStoreAliveAtExit() throws {
    let (status, errors) = try runProbe("alive", suppressions: true)
    #expect(status == 0, "\(errors)")
  }

  @Test(.enabled(if: Sanitizers.address))
  func aReleasedStoreLeavesNothingWithoutSuppressions() throws {
    let (status, errors) = try runProbe("released", suppressions: false)
    #expect(status == 0, "\(errors)")
  }

  @Test func theProbeRunsItsEffect() throws {
    let process = Process()
    process.executableURL = try probeURL()
    process.arguments = ["released"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(String(decoding: data, as: UTF8.self) == "1\n")
  }
}
