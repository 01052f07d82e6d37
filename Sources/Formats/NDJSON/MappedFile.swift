import ChronicleTracer
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A file appended to through a `MAP_SHARED` mapping: what a mapped ``NDJSONFileSink`` writes its
/// lines into (see docs/formats/journal-ndjson.md, "Mapped writing").
///
/// The file is grown ahead of the lines in chunks whose blocks are allocated when they are added
/// (`posix_fallocate`, or zeros written where the system has no such call), so a full disk or a
/// file size limit is an error of the growth, not a `SIGBUS` at the first touch of a page. The
/// bytes not yet written are NUL, which no JSON text holds: the lines stop at the first of them.
/// A line is copied without its newline, then the newline is stored: a process killed in
/// between leaves a last line without a newline (torn), never a complete line with NULs in it.
/// ``close()`` cuts the file at its lines.
///
/// Only the window from the page of the lines' end to the file's end is mapped, so the address
/// space used does not grow with the file.
///
/// Not thread-safe: its sink's file uses it under its lock.
final class MappedFile {
  /// How the file is grown.
  enum Growth {
    /// `posix_fallocate` where the system has it, zeros written elsewhere.
    case allocating
    /// Zeros written with `pwrite`: what Apple platforms do, tested on Linux too.
    case writingZeros
  }

  let descriptor: Int32
  /// The most bytes the file grows by at once (beyond a line longer than that).
  private let chunkBytes: Int
  private let growth: Growth
  /// The bytes of the lines written.
  private(set) var end = 0
  /// The file's size: the lines, then NUL bytes.
  private var size = 0
  private var window: UnsafeMutableRawPointer?
  /// The window's offset in the file (a multiple of the page size) and its length.
  private var windowOffset = 0
  private var windowLength = 0
  private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

  /// Takes the open descriptor of an empty regular file, opened for reading and writing.
  init(descriptor: Int32, chunkBytes: Int, growth: Growth = .allocating) {
    self.descriptor = descriptor
    self.chunkBytes = max(Self.pageSize, chunkBytes)
    self.growth = growth
  }

  /// Appends the lines of `bytes` (each ending with its newline), one after the other, counting
  /// them in `lines`. Throws the `errno` of a growth that failed, after the lines before the one
  /// that did not fit.
  /// `lineCount` is the number of lines in `bytes`: one line (most calls) is copied without
  /// looking for its newline.
  func append(_ bytes: UnsafeRawBufferPointer, lineCount: Int, lines: inout Int) throws(Errno) {
    if lineCount == 1 {
      try appendLine(bytes)
      lines += 1
      return
    }
    var start = 0
    while start < bytes.count, let base = bytes.baseAddress {
      let end =
        memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
        .map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) + 1 } ?? bytes.count
      try appendLine(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
      lines += 1
      start = end
    }
  }

  /// Copies the line, its newline stored last.
  private func appendLine(_ line: UnsafeRawBufferPointer) throws(Errno) {
    guard let source = line.baseAddress, line.count > 0 else { return }
    if end + line.count > windowOffset + windowLength { try remap(toHold: line.count) }
    guard let window else { return }
    let target = window + (end - windowOffset)
    target.copyMemory(from: source, byteCount: line.count - 1)
    // The line's bytes before its newline, for the compiler and for other processors: a kill
    // between the two leaves a line without its newline (torn), and a reader that sees the
    // newline sees the line.
    atomicMemoryFence(ordering: .releasing)
    target.storeBytes(of: line[line.count - 1], toByteOffset: line.count - 1, as: UInt8.self)
    end += line.count
  }

  /// Maps a window from the page of ``end`` that holds `count` more bytes, growing the file first
  /// (by a chunk; by what the line needs when a chunk does not fit).
  private func remap(toHold count: Int) throws(Errno) {
    let offset = end - end % Self.pageSize
    let needed = end + count
    if needed > size {
      let chunk = max(chunkBytes, needed - offset)
      let target = offset + (chunk + Self.pageSize - 1) / Self.pageSize * Self.pageSize
      do throws(Errno) {
        try grow(to: target)
      } catch {
        // Near a file size limit or a full disk: as much as this line needs, if that fits.
        try grow(to: needed)
      }
    }
    unmap()
    let length = size - offset
    #if os(Linux)
      // The window's pages read in at once (zeros, from allocated blocks) rather than one fault
      // each as lines reach them.
      let flags = MAP_SHARED | MAP_POPULATE
    #else
      let flags = MAP_SHARED
    #endif
    let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, flags, descriptor, off_t(offset))
    guard let mapped, mapped != UnsafeMutableRawPointer(bitPattern: -1) else { throw Errno(errno) }
    window = mapped
    windowOffset = offset
    windowLength = length
  }

  /// Grows the file to `target` bytes, with blocks allocated for them.
  private func grow(to target: Int) throws(Errno) {
    guard target > size else { return }
    #if canImport(Glibc) || canImport(Musl)
      if growth == .allocating {
        let result = posix_fallocate(descriptor, off_t(size), off_t(target - size))
        if result == 0 {
          size = target
          return
        }
        // A file system without the call: zeros written, as on Apple platforms.
        guard result == EOPNOTSUPP || result == ENOSYS else { throw Errno(result) }
      }
    #endif
    try writeZeros(to: target)
  }

  /// Writes NUL bytes from the file's end to `target`; the size follows what was written.
  private func writeZeros(to target: Int) throws(Errno) {
    let zeros = [UInt8](repeating: 0, count: min(target - size, 1 << 16))
    while size < target {
      let written = zeros.withUnsafeBytes { bytes in
        pwrite(descriptor, bytes.baseAddress, min(bytes.count, target - size), off_t(size))
      }
      if written < 0 {
        if errno == EINTR { continue }
        throw Errno(errno)
      }
      size += written
    }
  }

  private func unmap() {
    if let window { munmap(window, windowLength) }
    window = nil
    windowLength = 0
  }

  /// Unmaps the file and cuts it at its lines (the descriptor stays open).
  func close() {
    unmap()
    while ftruncate(descriptor, off_t(end)) != 0 && errno == EINTR {}
    size = end
  }

  deinit {
    if let window { munmap(window, windowLength) }
  }
}

/// An `errno` value, as a typed error.
struct Errno: Error {
  let code: Int32
  init(_ code: Int32) { self.code = code }
}
