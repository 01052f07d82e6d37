import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Where an export goes: a file written as it grows, or bytes kept in memory.
///
/// Exporters write into ``writer`` and call ``flushIfNeeded()`` after each item, so a file
/// export holds at most a buffer's worth of output in memory, however long the journal.
struct ExportStream: ~Copyable {
  var writer = JSONWriter(capacity: 1 << 16)
  private let file: (descriptor: Int32, path: String)?
  private(set) var data = Data()
  private static let threshold = 1 << 16

  /// A stream that keeps its output in ``data``.
  init() {
    file = nil
  }

  /// A stream that creates (or truncates) the file at `url` and writes into it.
  init(creating url: URL) throws(JournalExportError) {
    let path = url.path
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw .cannotOpen(path: path, errno: errno) }
    file = (descriptor, path)
  }

  deinit {
    if let file { close(file.descriptor) }
  }

  mutating func flushIfNeeded() throws(JournalExportError) {
    if writer.bytes.count >= Self.threshold { try flush() }
  }

  mutating func flush() throws(JournalExportError) {
    defer { writer.bytes.removeAll(keepingCapacity: true) }
    guard let file else {
      data.append(contentsOf: writer.bytes)
      return
    }
    try Self.write(writer.bytes, to: file.descriptor, path: file.path)
  }

  /// Writes all of `bytes`, retrying partial writes and interruptions.
  static func write(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(JournalExportError) {
    guard !bytes.isEmpty else { return }
    var failure: Int32 = 0
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        offset += written
      }
    }
    if failure != 0 { throw .writeFailed(path: path, errno: failure) }
  }
}

/// `write(2)`, under a name that does not clash with the methods called `write`.
func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Darwin)
    Darwin.write(descriptor, buffer, count)
  #elseif canImport(Glibc)
    Glibc.write(descriptor, buffer, count)
  #else
    Musl.write(descriptor, buffer, count)
  #endif
}
