import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Writes files so that a crash leaves either the old content or the new, never a mix.
enum AtomicFile {
  /// Writes `data` to a temporary file next to `url`, flushes it to disk, and renames it over `url`.
  static func write(_ data: Data, to url: URL) throws(PersistenceError) {
    let directory = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw PersistenceError(reason: .io("cannot create \(directory.path): \(error)"), file: url)
    }
    let temporary = directory.appendingPathComponent(
      ".\(url.lastPathComponent).\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
    guard descriptor >= 0 else { throw failure("open", temporary, url) }
    var written = 0
    let ok = data.withUnsafeBytes { buffer -> Bool in
      while written < buffer.count {
        let result = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
        if result < 0 { return false }
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

  private static func failure(_ operation: String, _ temporary: URL, _ url: URL) -> PersistenceError {
    PersistenceError(
      reason: .io("\(operation) \(temporary.lastPathComponent): \(String(cString: strerror(errno)))"),
      file: url)
  }
}
