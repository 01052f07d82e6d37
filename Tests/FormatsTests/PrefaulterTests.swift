import ChronicleTestSupport
import Foundation
import Testing

@testable import ChronicleFormats

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `MappedFile`'s prefaulter: the pages ahead of the lines are made writable on a queue of the
/// file, and the bytes written are exactly the lines.
@Suite struct PrefaulterTests {
  private func withFile<R>(_ body: (Int32, String) throws -> R) throws -> R {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("chronicle-prefault-\(UUID())")
      .path
    let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o644)
    try #require(descriptor >= 0)
    defer {
      close(descriptor)
      unlink(path)
    }
    return try body(descriptor, path)
  }

  /// Line `index`: its number and a run of letters whose length varies, with its newline.
  private static func line(_ index: Int) -> [UInt8] {
    Array("\(index) \(String(repeating: "abcdefgh", count: 1 + index % 37))\n".utf8)
  }

  /// Lines across hundreds of small windows — each replaced while the prefaulter may be working
  /// on it — come out whole and in order, and nothing else.
  @Test(arguments: [4_096, 12_288, 1 << 16])
  func everyLineIsKeptWhileWindowsAreReplaced(chunkBytes: Int) throws {
    try withFile { descriptor, path in
      let file = MappedFile(descriptor: descriptor, chunkBytes: chunkBytes)
      var expected: [UInt8] = []
      var lines = 0
      for index in 0..<20_000 {
        let line = Self.line(index)
        expected += line
        try line.withUnsafeBytes { bytes in try file.append(bytes, lineCount: 1, lines: &lines) }
      }
      file.close()
      #expect(lines == 20_000)
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(expected))
    }
  }

  #if os(Linux)
    /// The minor page faults the calling thread has taken.
    private static func threadFaults() -> Int {
      var usage = rusage()
      // RUSAGE_THREAD, which Glibc names only under _GNU_SOURCE.
      getrusage(__rusage_who_t(1), &usage)
      return usage.ru_minflt
    }

    /// Faults the writing thread takes copying 192 KiB of lines into a fresh window, after the
    /// prefaulter (when there is one) has done what the first line asked of it.
    private func faultsWritingAhead(prefaulting: Bool) throws -> Int {
      try withFile { descriptor, _ in
        let file = MappedFile(descriptor: descriptor, chunkBytes: 1 << 20, prefaulting: prefaulting)
        defer { file.close() }
        var lines = 0
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 255) + [UInt8(ascii: "\n")]
        try line.withUnsafeBytes { try file.append($0, lineCount: 1, lines: &lines) }
        file.prefaulter?.waitUntilDone()
        return try line.withUnsafeBytes { bytes in
          let before = Self.threadFaults()
          for _ in 0..<(192 << 10) / line.count { try file.append(bytes, lineCount: 1, lines: &lines) }
          return Self.threadFaults() - before
        }
      }
    }

    /// 48 pages written: one fault each without a prefaulter; none with it (measured: 0), unless
    /// the kernel writes pages back meanwhile and so makes them fault again — allowed for a few.
    /// Not under a sanitizer, whose shadow memory takes faults of its own as lines are written.
    @Test(.enabled(if: Prefaulter.isAvailable && !Sanitizers.any))
    func theWritingThreadTakesNoFaultOnPagesFaultedInAhead() throws {
      #expect(try faultsWritingAhead(prefaulting: false) >= 48)
      #expect(try faultsWritingAhead(prefaulting: true) < 12)
    }
  #endif
}
