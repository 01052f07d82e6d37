import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Writes files so that a crash leaves either the old content or the new, never a mix, and reads
/// them back without blocking on what is not a regular file.
enum AtomicFile {
  /// Writes `data` to a temporary file next to `url`, flushes it to disk, and renames it over `url`.
  ///
  /// The temporary file is named `.<name>.<pid>.<random>.tmp`; ``removeAbandonedTemporaries(of:)``
  /// relies on that shape to find the ones a killed process left behind.
  static func write(_ data: Data, to url: URL) throws(PersistenceError) {
    let directory = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw PersistenceError(reason: .io("cannot create \(directory.path): \(error)"), file: url)
    }
    removeAbandonedTemporaries(of: url)
    let temporary = directory.appendingPathComponent(
      ".\(url.lastPathComponent).\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw failure("open", temporary, url) }
    var written = 0
    let ok = data.withUnsafeBytes { buffer -> Bool in
      // Only empty data has no address, and then there is nothing to write.
      guard let start = buffer.baseAddress else { return true }
      while written < buffer.count {
        let result = Foundation.write(descriptor, start + written, buffer.count - written)
        if result < 0 {
          if errno == EINTR { continue }
          return false
        }
        written += result
      }
      return true
    }
    let synced = ok && fsync(descriptor) == 0
    close(descriptor)
    guard synced else {
      unlink(temporary.path)
      throw failure("write", temporary, url)
    }
    guard rename(temporary.path, url.path) == 0 else {
      unlink(temporary.path)
      throw failure("rename", temporary, url)
    }
  }

  /// Deletes the temporary files of `url` whose writer process no longer exists (it was killed
  /// mid-write). Files of a live process, this one included, may be a write in progress and are
  /// kept, as is every file whose name does not have the exact shape ``write(_:to:)`` gives.
  static func removeAbandonedTemporaries(of url: URL) {
    let directory = url.deletingLastPathComponent()
    let prefix = ".\(url.lastPathComponent)."
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
    for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
      let middle = name.dropFirst(prefix.count).dropLast(".tmp".count).split(
        separator: ".", omittingEmptySubsequences: false)
      guard middle.count == 2, let pid = pid_t(middle[0]), pid > 0, UInt64(middle[1]) != nil,
        pid != getpid(), !processExists(pid)
      else { continue }
      unlink(directory.appendingPathComponent(name).path)
    }
  }

  private static func processExists(_ pid: pid_t) -> Bool {
    kill(pid, 0) == 0 || errno == EPERM
  }

  /// What ``read(_:limit:)`` found.
  enum Contents {
    case missing
    case data(Data)
  }

  /// Reads the whole file at `url`, checking before reading anything that it is a regular file
  /// of at most `limit` bytes. Opening never blocks: a FIFO is opened non-blocking and refused.
  static func read(_ url: URL, limit: Int) throws(PersistenceError.Reason) -> Contents {
    let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      switch errno {
      case ENOENT: return .missing
      case ELOOP: throw .symbolicLinkLoop
      case let code: throw .io("open: \(String(cString: strerror(code)))")
      }
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw .io("fstat: \(String(cString: strerror(errno)))") }
    let kind = status.st_mode & S_IFMT
    guard kind == S_IFREG else { throw .notARegularFile(describe(kind)) }
    let size = Int(status.st_size)
    guard size <= limit else { throw .tooLarge(bytes: size, limit: limit) }
    var data = Data(count: size)
    var total = 0
    let failed: Int32? = data.withUnsafeMutableBytes { buffer in
      // Only an empty file gives a buffer without an address, and then there is nothing to read.
      guard let start = buffer.baseAddress else { return nil }
      while total < size {
        let result = Foundation.read(descriptor, start + total, size - total)
        if result < 0 {
          if errno == EINTR { continue }
          return errno
        }
        if result == 0 { break }
        total += result
      }
      return nil
    }
    if let failed { throw .io("read: \(String(cString: strerror(failed)))") }
    // The file shrank while it was read; what was read is all there is.
    if total < size { data.removeSubrange(total..<size) }
    return .data(data)
  }

  private static func describe(_ kind: mode_t) -> String {
    switch kind {
    case S_IFIFO: "FIFO"
    case S_IFDIR: "directory"
    case S_IFCHR: "character device"
    case S_IFBLK: "block device"
    case S_IFSOCK: "socket"
    default: "file of type \(String(kind, radix: 8))"
    }
  }

  private static func failure(_ operation: String, _ temporary: URL, _ url: URL) -> PersistenceError {
    PersistenceError(
      reason: .io("\(operation) \(temporary.lastPathComponent): \(String(cString: strerror(errno)))"),
      file: url)
  }
}
