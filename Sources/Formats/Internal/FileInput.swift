import ChronicleTracer
import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reads files for the importers, with POSIX calls so that errors carry `errno`.
///
/// Only regular files are read: a FIFO, a socket or a device would block `open` or `read`
/// forever, or never end. The file is opened with `O_NONBLOCK` (so opening a FIFO with no writer
/// returns at once) and checked with `fstat` before anything is read; its size is known then,
/// so a file above a limit is refused without reading a byte of it.
package struct FileInput: ~Copyable {
  let descriptor: Int32
  let path: String
  /// The file's size when it was opened, in bytes.
  let size: Int

  init(_ url: URL) throws(JournalImportError) {
    path = url.path
    descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { throw .unreadableFile(path: path, errno: errno) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let failure = errno
      close(descriptor)
      throw .unreadableFile(path: path, errno: failure)
    }
    guard (status.st_mode & S_IFMT) == S_IFREG else {
      close(descriptor)
      throw .notARegularFile(path: path)
    }
    size = Int(status.st_size)
  }

  deinit { close(descriptor) }

  /// Refuses the file when it is larger than `limit` bytes.
  func check(limit: Int) throws(JournalImportError) {
    if size > limit { throw .tooLarge(entry: nil, field: "(document)", limit: limit) }
  }

  /// Reads up to `count` bytes; an empty result is the end of the file.
  func read(upTo count: Int) throws(JournalImportError) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: count)
    while true {
      // An empty buffer has no address: reading nothing is the end of nothing.
      let read = buffer.withUnsafeMutableBytes { bytes in
        bytes.baseAddress.map { systemRead(descriptor, $0, count) } ?? 0
      }
      if read < 0 {
        if errno == EINTR { continue }
        throw .unreadableFile(path: path, errno: errno)
      }
      buffer.removeLast(count - read)
      return buffer
    }
  }

  /// The whole file, refusing files larger than `limit` before reading them.
  package static func read(_ url: URL, limit: Int) throws(JournalImportError) -> Data {
    let file = try FileInput(url)
    try file.check(limit: limit)
    // The size is read once; a file that grows meanwhile is still bounded by the limit.
    var data = Data(count: file.size)
    var filled = 0
    var failure: Int32 = 0
    data.withUnsafeMutableBytes { buffer in
      guard let start = buffer.baseAddress else { return }
      while filled < buffer.count {
        let read = systemRead(file.descriptor, start + filled, buffer.count - filled)
        if read < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        if read == 0 { return }
        filled += read
      }
    }
    if failure != 0 { throw .unreadableFile(path: file.path, errno: failure) }
    data.removeSubrange(filled...)
    while true {
      let more = try file.read(upTo: 1 << 16)
      if more.isEmpty { return data }
      data.append(contentsOf: more)
      if data.count > limit { throw .tooLarge(entry: nil, field: "(document)", limit: limit) }
    }
  }
}

/// `read(2)`, under a name that does not clash with the methods called `read`.
func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  #if canImport(Darwin)
    Darwin.read(descriptor, buffer, count)
  #elseif canImport(Glibc)
    Glibc.read(descriptor, buffer, count)
  #else
    Musl.read(descriptor, buffer, count)
  #endif
}
