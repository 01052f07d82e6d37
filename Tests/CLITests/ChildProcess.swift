import Foundation

/// A `chronicle` run whose output is read line by line while it runs, so that a test can wait for
/// what it prints instead of sleeping.
final class ChildProcess {
  private let process = Process()
  private let output = Pipe()
  private let errors = Pipe()
  private var buffer: [UInt8] = []
  private var errorBuffer: [UInt8] = []
  /// Ends a child that never finishes, so that a broken `follow` fails its test instead of hanging
  /// it: after a minute, far longer than any of these runs takes.
  private let watchdog: DispatchWorkItem

  init(_ arguments: String...) throws {
    process.executableURL = CLIRunner.products.appendingPathComponent("chronicle")
    process.arguments = arguments
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let pid = process.processIdentifier
    watchdog = DispatchWorkItem { kill(pid, SIGTERM) }
    DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
  }

  /// The next line the process prints, without its newline; `nil` once its output ends.
  func nextLine() -> String? {
    while true {
      if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeSubrange(...end)
        return line
      }
      let data = output.fileHandleForReading.availableData
      if data.isEmpty { return nil }
      buffer += data
    }
  }

  /// The next line the process prints on standard error, without its newline; `nil` once it ends.
  func nextErrorLine() -> String? {
    while true {
      if let end = errorBuffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: errorBuffer[..<end], as: UTF8.self)
        errorBuffer.removeSubrange(...end)
        return line
      }
      let data = errors.fileHandleForReading.availableData
      if data.isEmpty { return nil }
      errorBuffer += data
    }
  }

  /// Sends SIGINT, as Ctrl-C does.
  func interrupt() { process.interrupt() }

  /// Waits for the process to end and returns its exit status and anything it printed after the
  /// lines already read.
  func waitForExit() -> (status: Int32, rest: String) {
    let rest = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    return (process.terminationStatus, String(decoding: buffer + rest, as: UTF8.self))
  }
}
