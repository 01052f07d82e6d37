import ChronicleLocks
import ChronicleTracer
import Dispatch
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
/// Only a window from the page of the lines' end is mapped, so the address space used does not
/// grow with the file.
///
/// On Linux, a ``Prefaulter`` makes the window's pages writable ahead of the lines, on a thread
/// of its own: the first write to each page of a shared file mapping is a page fault in which
/// the file system marks the page dirty, most of a line's cost when the thread that copies it
/// takes it (BENCHMARKS.md, "sink/ndjson-mapped"). There, the window reserves ``reservedBytes``
/// of address space past the file's end (Linux maps pages past the end, and a page becomes
/// usable once the file grows over it): the file grows a chunk ahead of the lines within the
/// window, so that the prefaulter always has pages to make ready, and the window is replaced
/// only when the lines reach its end, the old one unmapped on the prefaulter's queue. Without a
/// prefaulter (Apple platforms, older kernels) the window ends at the file's end and is replaced
/// each time the file grows.
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
  /// Where the window is mapped (for tests).
  var windowAddress: UnsafeMutableRawPointer? { window }
  /// The window's offset in the file (a multiple of the page size) and its length.
  private var windowOffset = 0
  private var windowLength = 0
  static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
  /// Faults the window's pages in ahead of the lines; `nil` where the system cannot.
  let prefaulter: Prefaulter?
  /// The address space a window reserves past the file's end, with a prefaulter.
  private let reservedBytes: Int
  /// The end of the lines past which the prefaulter is asked to go further.
  private var nextPrefault = 0

  /// Takes the open descriptor of an empty regular file, opened for reading and writing.
  /// `prefaulting` is `false` to leave every page's first write to the thread that copies a line
  /// (for measuring what the prefaulter saves). `reservedBytes` is the address space a window
  /// reserves when there is a prefaulter (smaller in tests, to replace windows often).
  init(
    descriptor: Int32, chunkBytes: Int, growth: Growth = .allocating, prefaulting: Bool = true,
    reservedBytes: Int = 64 << 20
  ) {
    self.descriptor = descriptor
    self.chunkBytes = max(Self.pageSize, chunkBytes)
    self.growth = growth
    self.prefaulter = prefaulting && Prefaulter.isAvailable ? Prefaulter() : nil
    self.reservedBytes = Self.pageRounded(max(Self.pageSize, reservedBytes))
  }

  /// Grows the empty file by its first chunk and maps it, before the first line: the work the
  /// first line would otherwise do on the thread that sends it (a new sink's first `send`:
  /// 115–128 µs before, 49–60 µs after; `sink/ndjson-mapped-first-send` in BENCHMARKS.md). With
  /// a prefaulter, the window's first ``Prefaulter/headStart`` bytes are made writable here and
  /// the pages after them on its queue. Best effort: what fails here is done again, and its
  /// error reported, by the first line. Until then the file holds NUL bytes only (see
  /// docs/formats/journal-ndjson.md).
  func prepare() {
    guard window == nil, end == 0 else { return }
    do throws(Errno) {
      try makeRoom(for: 1)
    } catch {
      return
    }
    #if os(Linux)
      if prefaulter != nil, let window {
        _ = madvise(
          window, min(Self.pageRounded(Prefaulter.headStart), windowLength, size), Prefaulter.populateWrite)
      }
    #endif
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
    if end + line.count > min(size, windowOffset + windowLength) { try makeRoom(for: line.count) }
    guard let window else { return }
    let target = window + (end - windowOffset)
    target.copyMemory(from: source, byteCount: line.count - 1)
    // The line's bytes before its newline, for the compiler and for other processors: a kill
    // between the two leaves a line without its newline (torn), and a reader that sees the
    // newline sees the line.
    atomicMemoryFence(ordering: .releasing)
    target.storeBytes(of: line[line.count - 1], toByteOffset: line.count - 1, as: UInt8.self)
    end += line.count
    if end >= nextPrefault { askPrefaulter() }
  }

  /// Asks the prefaulter for the pages ahead of the lines' end, and when to ask again. With a
  /// window reserved past the file's end, first grows the file to a chunk past the lines when
  /// less than half a chunk is left, so that the prefaulter has pages to make ready before the
  /// lines reach them (the file stays at most a chunk, in whole pages, past its lines).
  private func askPrefaulter() {
    guard let prefaulter else { return }
    nextPrefault = end + Prefaulter.askEvery
    let windowEnd = windowOffset + windowLength
    if size - end < chunkBytes / 2 && size < windowEnd {
      // Best effort: a growth that fails here is tried again when a line needs it, and its
      // error reported then.
      try? grow(to: min(Self.pageRounded(end + chunkBytes), windowEnd))
    }
    // As far ahead as the lines have come, up to `ahead`: a file closed early (a short session, a
    // test) is not made ready far past its lines. At least a step further than the next request:
    // asked only when the lines reached the end of what it had made ready, the prefaulter started
    // on the very pages they were being copied into.
    let ahead = min(Prefaulter.ahead, max(Prefaulter.askEvery + Prefaulter.step, end))
    prefaulter.request(upTo: min(end + ahead, windowEnd, size))
  }

  /// Makes room for `count` more bytes after ``end``: grows the file (by a chunk; by what the
  /// line needs when a chunk does not fit), and maps a new window when the line passes this one.
  private func makeRoom(for count: Int) throws(Errno) {
    let offset = end - end % Self.pageSize
    let needed = end + count
    if needed > size {
      do throws(Errno) {
        try grow(to: offset + Self.pageRounded(max(chunkBytes, needed - offset)))
      } catch {
        // Near a file size limit or a full disk: as much as this line needs, if that fits.
        try grow(to: needed)
      }
    }
    if needed > windowOffset + windowLength || window == nil { try remap() }
  }

  /// `count` rounded up to a whole number of pages.
  static func pageRounded(_ count: Int) -> Int {
    (count + pageSize - 1) / pageSize * pageSize
  }

  /// Maps a window from the page of ``end``: to the file's end, or ``reservedBytes`` past it with
  /// a prefaulter. The window replaced is unmapped on the prefaulter's queue, off this thread.
  private func remap() throws(Errno) {
    let offset = end - end % Self.pageSize
    retireWindow()
    var length = prefaulter == nil ? size - offset : max(size - offset, reservedBytes)
    #if os(Linux)
      // Without a prefaulter, the window's pages are read in at once (zeros, from allocated
      // blocks) rather than one fault each as lines reach them; a prefaulter makes them
      // writable, which reads them in too.
      let flags = prefaulter == nil ? MAP_SHARED | MAP_POPULATE : MAP_SHARED
    #else
      let flags = MAP_SHARED
    #endif
    var mapped = mmap(nil, length, PROT_READ | PROT_WRITE, flags, descriptor, off_t(offset))
    if mapped == UnsafeMutableRawPointer(bitPattern: -1) && length > size - offset {
      // Address space too tight for the reservation (a limit on it, a 32-bit process): the
      // window ends at the file's end, as without a prefaulter.
      length = size - offset
      mapped = mmap(nil, length, PROT_READ | PROT_WRITE, flags, descriptor, off_t(offset))
    }
    guard let mapped, mapped != UnsafeMutableRawPointer(bitPattern: -1) else { throw Errno(errno) }
    #if os(Linux)
      // No read-ahead on a fault in the window: a page the lines reach before the prefaulter
      // does is read in alone. With read-ahead, the copying thread's fault read in (zero-filled)
      // the pages around it up to the device's read-ahead size, the whole new chunk on the
      // machine measured (most of a new file's first lines' cost, Benchmarks/HISTORY.md), work
      // the prefaulter does off that thread.
      if prefaulter != nil { _ = madvise(mapped, length, MADV_RANDOM) }
    #endif
    window = mapped
    windowOffset = offset
    windowLength = length
    prefaulter?.start(window: mapped, offset: offset, length: length, from: end)
    askPrefaulter()
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

  /// Lets go of the window: unmapped on the prefaulter's queue when there is one, here otherwise.
  private func retireWindow() {
    // The prefaulter lets go of the window before it is unmapped, never during a call on it.
    prefaulter?.stop()
    if let window {
      if let prefaulter {
        prefaulter.unmap(window, length: windowLength)
      } else {
        munmap(window, windowLength)
      }
    }
    window = nil
    windowLength = 0
  }

  /// Unmaps the window, and waits until every window retired is unmapped.
  private func unmap() {
    retireWindow()
    prefaulter?.waitUntilDone()
  }

  /// Unmaps the file and cuts it at its lines (the descriptor stays open).
  func close() {
    unmap()
    while ftruncate(descriptor, off_t(end)) != 0 && errno == EINTR {}
    size = end
  }

  deinit {
    unmap()
  }
}

/// Makes the pages of a ``MappedFile``'s window writable in the page tables ahead of its lines, on
/// a queue of its own, so that the thread copying a line in rarely takes a page fault.
///
/// `MADV_POPULATE_WRITE` (Linux 5.14) faults pages in as a write would, without changing a byte,
/// so it may run on a page a line is being copied into. It runs under the window's lock, which
/// ``stop()`` takes before the window is unmapped: never on an address no longer mapped.
///
/// Where the system has no such call (Apple platforms, older kernels), there is no prefaulter and
/// the writing thread takes each page's first write itself.
final class Prefaulter: Sendable {
  /// How far ahead of the lines pages are faulted in at most (within the file: a default chunk);
  /// no further than the lines have come from the file's start, nor less than ``askEvery`` and a
  /// ``step``.
  static let ahead = 1 << 20
  /// How far the lines move before they ask again. Each request that finds the prefaulter idle
  /// wakes its thread, which costs the writing thread a system call (measured: about 80 ns a line
  /// when it asked every 64 KiB).
  static let askEvery = 256 << 10
  /// How much is faulted in by one call: what ``MappedFile``'s unmapping may wait for.
  static let step = 64 << 10
  /// The bytes of a new window, from the page of the lines' end, left to the writing thread:
  /// the prefaulter starts after them. Started at the lines' page, it faulted in the pages the
  /// lines were being copied into at the same time, and each thread's fault there waited for
  /// the other's (profiled in a new file's first lines: the writing thread waiting on a locked
  /// page, and switched out; Benchmarks/HISTORY.md, session 20).
  static let headStart = 16 << 10

  /// Whether the system can fault pages in writable without writing them.
  static let isAvailable: Bool = {
    #if os(Linux)
      let page = MappedFile.pageSize
      guard let probe = mmap(nil, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
        probe != UnsafeMutableRawPointer(bitPattern: -1)
      else { return false }
      defer { munmap(probe, page) }
      return madvise(probe, page, populateWrite) == 0
    #else
      return false
    #endif
  }()

  #if os(Linux)
    /// `MADV_POPULATE_WRITE`, which older C headers do not name.
    static let populateWrite: Int32 = 23
  #endif

  /// The window being faulted in: its address (0 when there is none), its offset and length in
  /// the file, and the file offset up to which its pages are done.
  private struct Window {
    var address: UInt = 0
    var offset = 0
    var length = 0
    var populated = 0

    /// The file offset its pages are wanted up to: `wanted` rounded up to a whole page, within
    /// the window. Whole pages keep ``populated`` on a page boundary, as `madvise` needs its
    /// address to be: a step ending inside a page would make the next call fail (`EINVAL`).
    func target(wanted: Int) -> Int { min(MappedFile.pageRounded(wanted), offset + length) }
  }

  private let window = SanitizerVisibleMutex(Window())
  /// The file offset the lines want faulted in up to.
  private let wanted = Atomic<Int>(0)
  /// Whether a run is queued or running; a request queues one only when there is none.
  private let running = Atomic<Bool>(false)
  private let queue = DispatchQueue(label: "chronicle.ndjson.prefault", qos: .utility)

  /// Faults in a new window (mapped at `address`, `length` bytes from file offset `offset`),
  /// ``headStart`` bytes (in whole pages) past the page of file offset `from`, where the lines are.
  func start(window address: UnsafeMutableRawPointer, offset: Int, length: Int, from: Int) {
    window.withLock { window in
      window = Window(
        address: UInt(bitPattern: address), offset: offset, length: length,
        populated: from - from % MappedFile.pageSize + MappedFile.pageRounded(Self.headStart))
    }
  }

  /// Forgets the window; once this returns, no call on it is under way or will start.
  func stop() {
    window.withLock { $0 = Window() }
  }

  /// Asks for the pages up to file offset `end` to be faulted in. Returns at once: the work is
  /// queued, unless a run is already queued or running (it will see the new offset).
  func request(upTo end: Int) {
    // Sequentially consistent, with `run`'s clearing of `running` and reading of `wanted`: either
    // this request sees `running` cleared and queues a run, or that run sees `end`.
    wanted.store(end, ordering: .sequentiallyConsistent)
    if !running.exchange(true, ordering: .sequentiallyConsistent) {
      queue.async { self.run() }
    }
  }

  private func run() {
    while true {
      if populateNextStep() { continue }
      running.store(false, ordering: .sequentiallyConsistent)
      // A request made after the last step found nothing to do, which saw `running` still set,
      // queued nothing: look again before leaving.
      guard hasWork(), !running.exchange(true, ordering: .sequentiallyConsistent) else { return }
    }
  }

  /// Faults in the next step of the window, if any is wanted; whether it did.
  private func populateNextStep() -> Bool {
    window.withLock { window in
      let target = window.target(wanted: wanted.load(ordering: .sequentiallyConsistent))
      guard window.address != 0, window.populated < target else { return false }
      let count = min(Self.step, target - window.populated)
      #if os(Linux)
        let address = UnsafeMutableRawPointer(
          bitPattern: window.address + UInt(window.populated - window.offset))
        if madvise(address, count, Self.populateWrite) != 0 {
          if errno == EINTR { return true }
          // Memory too tight to fault pages in early: the writing thread will, as they come.
          window.populated = window.offset + window.length
          return false
        }
      #endif
      window.populated += count
      return true
    }
  }

  /// Unmaps a window the prefaulter has let go of (``stop()``), on its queue: unmapping a window
  /// of written pages takes time in proportion to them, which the writing thread does not wait for.
  func unmap(_ address: UnsafeMutableRawPointer, length: Int) {
    let address = UInt(bitPattern: address)
    queue.async { _ = munmap(UnsafeMutableRawPointer(bitPattern: address), length) }
  }

  /// Waits until the work requested so far is done (for ``MappedFile/close()``, and tests).
  func waitUntilDone() {
    queue.sync {}
  }

  private func hasWork() -> Bool {
    window.withLock { window in
      window.address != 0
        && window.populated < window.target(wanted: wanted.load(ordering: .sequentiallyConsistent))
    }
  }
}

/// An `errno` value, as a typed error.
struct Errno: Error {
  let code: Int32
  init(_ code: Int32) { self.code = code }
}
