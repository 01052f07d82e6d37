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
  /// on it, and unmapped on its queue — come out whole and in order, and nothing else; while the
  /// file is open, it is never more than a chunk past its lines, rounded up to a whole page.
  @Test(arguments: [(4_096, 4_096), (12_288, 16_384), (1 << 16, 1 << 16), (1 << 16, 1 << 18)])
  func everyLineIsKeptWhileWindowsAreReplaced(chunkBytes: Int, reservedBytes: Int) throws {
    try withFile { descriptor, path in
      let file = MappedFile(descriptor: descriptor, chunkBytes: chunkBytes, reservedBytes: reservedBytes)
      var expected: [UInt8] = []
      var lines = 0
      var status = stat()
      for index in 0..<20_000 {
        let line = Self.line(index)
        expected += line
        try line.withUnsafeBytes { bytes in try file.append(bytes, lineCount: 1, lines: &lines) }
        if index % 97 == 0 {
          #expect(fstat(descriptor, &status) == 0)
          #expect(Int(status.st_size) >= file.end)
          let page = MappedFile.pageSize
          #expect(Int(status.st_size) <= (file.end + chunkBytes + page - 1) / page * page)
        }
      }
      file.close()
      #expect(lines == 20_000)
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(expected))
    }
  }

  /// A reservation no address space can hold (2^50 bytes, past the 47 bits of a Linux process):
  /// each window is mapped to the file's end instead, and every line is kept.
  @Test func aReservationTheAddressSpaceCannotHoldFallsBackToTheFilesEnd() throws {
    try withFile { descriptor, path in
      let file = MappedFile(descriptor: descriptor, chunkBytes: 8_192, reservedBytes: 1 << 50)
      var expected: [UInt8] = []
      var lines = 0
      for index in 0..<2_000 {
        let line = Self.line(index)
        expected += line
        try line.withUnsafeBytes { bytes in try file.append(bytes, lineCount: 1, lines: &lines) }
      }
      file.close()
      #expect(lines == 2_000)
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

    /// Faults the writing thread takes copying `bytes` of lines into a file grown 1 MiB at a time,
    /// through windows of `reservedBytes`, waiting after each line until the prefaulter has done
    /// what was asked of it.
    private func faultsWritingAcrossWindows(bytes: Int, reservedBytes: Int) throws -> Int {
      try withFile { descriptor, _ in
        let file = MappedFile(descriptor: descriptor, chunkBytes: 1 << 20, reservedBytes: reservedBytes)
        defer { file.close() }
        var lines = 0
        // 251 bytes: lines end at every offset within a page, as a sink's lines do.
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 250) + [UInt8(ascii: "\n")]
        return try line.withUnsafeBytes { data in
          let before = Self.threadFaults()
          for _ in 0..<bytes / line.count {
            try file.append(data, lineCount: 1, lines: &lines)
            file.prefaulter?.waitUntilDone()
          }
          return Self.threadFaults() - before
        }
      }
    }

    /// How many of the `count` pages from `address` are present in this process's page tables
    /// (`/proc/self/pagemap`, bit 63 of each page's entry).
    private static func presentPages(_ address: UnsafeMutableRawPointer, count: Int) throws -> Int {
      let map = open("/proc/self/pagemap", O_RDONLY)
      try #require(map >= 0)
      defer { close(map) }
      var entries = [UInt64](repeating: 0, count: count)
      let offset = off_t(UInt(bitPattern: address) / UInt(MappedFile.pageSize) * 8)
      let read = entries.withUnsafeMutableBytes { pread(map, $0.baseAddress, $0.count, offset) }
      try #require(read == count * 8)
      return entries.filter { $0 & (1 << 63) != 0 }.count
    }

    /// A file prepared before its first line, as a mapped sink prepares it when it is created:
    /// its first ``Prefaulter/headStart`` bytes are made writable there, the pages after them by
    /// the prefaulter. A window mapped by a line instead leaves the pages after the line's to the
    /// writing thread, up to the head start: the prefaulter never faults in a page the lines are
    /// being copied into (which made the writing thread wait on it, or the prefaulter on the
    /// writing thread).
    @Test(.enabled(if: Prefaulter.isAvailable))
    func theFirstPagesOfAWindowAreTheWritingThreads() throws {
      let headPages = MappedFile.pageRounded(Prefaulter.headStart) / MappedFile.pageSize
      try withFile { descriptor, _ in
        let file = MappedFile(descriptor: descriptor, chunkBytes: 1 << 20)
        defer { file.close() }
        file.prepare()
        file.prefaulter?.waitUntilDone()
        let window = try #require(file.windowAddress)
        #expect(try Self.presentPages(window, count: headPages) == headPages)
        #expect(try Self.presentPages(window + headPages * MappedFile.pageSize, count: 16) == 16)
      }
      try withFile { descriptor, _ in
        let file = MappedFile(descriptor: descriptor, chunkBytes: 1 << 20)
        defer { file.close() }
        var lines = 0
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 99) + [UInt8(ascii: "\n")]
        try line.withUnsafeBytes { try file.append($0, lineCount: 1, lines: &lines) }
        file.prefaulter?.waitUntilDone()
        let window = try #require(file.windowAddress)
        // The line's page, written; the rest of the head start, not yet.
        #expect(try Self.presentPages(window, count: headPages) == 1)
        #expect(try Self.presentPages(window + headPages * MappedFile.pageSize, count: 16) == 16)
      }
    }

    /// 4 MiB of lines (1,024 pages), four chunks: the prefaulter keeps ahead of the lines to the
    /// end, in one window of the default reservation and through four windows of 1 MiB, where the
    /// first page or two of a window, written as soon as it is mapped, may fault (measured: 0 to 4
    /// either way). A step that ended inside a page once made the next `madvise` fail
    /// (`EINVAL`) and the prefaulter give up on the rest of each window (measured: 754 and 755).
    @Test(.enabled(if: Prefaulter.isAvailable && !Sanitizers.any), arguments: [64 << 20, 1 << 20])
    func thePrefaulterKeepsAheadThroughEveryWindow(reservedBytes: Int) throws {
      #expect(try faultsWritingAcrossWindows(bytes: 4 << 20, reservedBytes: reservedBytes) < 24)
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
