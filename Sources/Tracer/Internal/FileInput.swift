import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reads files for the importers, with POSIX calls so that errors carry `errno`.
struct FileInput: ~Copyable {
  let descriptor: Int32
  let path: String

  init(_ url: URL) throws(JournalImportError) {
    path = url.path
    descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .unreadableFile(path: path, errno: errno) }
  }

  deinit { close(descriptor) }

  /// Reads up to `count` bytes; an empty result is the end of the file.
  func read(upTo count: Int) throws(JournalImportError) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: count)
    while true {
      let read = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress!, count) }
      if read < 0 {
        if errno == EINTR { continue }
        throw .unreadableFile(path: path, errno: errno)
      }
      buffer.removeLast(count - read)
      return buffer
    }
  }

  /// The whole file, refusing files larger than `limit`.
  static func read(_ url: URL, limit: Int) throws(JournalImportError) -> Data {
    let file = try FileInput(url)
    var data = Data()
    while true {
      let chunk = try file.read(upTo: 1 << 20)
      if chunk.isEmpty { return data }
      data.append(contentsOf: chunk)
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
