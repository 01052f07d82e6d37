import ChronicleJSON
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
/// export holds at most a buffer's worth of output in memory, however long the journal; they end
/// with ``finish()``.
///
/// A file export is written to a new file beside the target and renamed over it by
/// ``finish()``: the target is replaced whole or not at all (a failed export leaves it as it
/// was), and a symbolic link at the target is replaced, never followed.
///
/// Usable from inlinable code: a Journal JSON export writes its entries in the client, with code
/// specialized for the client's types (see ``JournalJSONEntries``).
@usableFromInline
struct ExportStream: ~Copyable {
  @usableFromInline var writer = JSONWriter(capacity: 1 << 16)
  /// The temporary file being written, and the path it replaces when finished.
  private let file: (descriptor: Int32, temporaryPath: String, path: String)?
  private var finished = false
  private(set) var data = Data()
  @usableFromInline static var threshold: Int { 1 << 16 }
  /// The bytes already written out of ``writer``.
  private var flushedCount = 0

  /// The bytes of output so far, written or still in ``writer``.
  var byteCount: Int { flushedCount + writer.count }

  /// A stream that keeps its output in ``data``.
  init() {
    file = nil
  }

  /// A stream that replaces the file at `url` when finished.
  init(creating url: URL) throws(JournalExportError) {
    let path = url.path
    let directory = url.deletingLastPathComponent().path
    // mkstemp(3) replaces the template's last six characters, which must be "X", with a unique
    // suffix.
    let suffix = String(repeating: "X", count: 6)
    var template = Array("\(directory)/.\(url.lastPathComponent).\(suffix)".utf8CString)
    // The template is never empty (it ends with the suffix and a NUL), so it has an address.
    let descriptor = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkstemp($0) } ?? -1
    }
    guard descriptor >= 0 else { throw .cannotOpen(path: path, errno: errno) }
    // mkstemp creates the file readable by its owner only; an export is an ordinary file.
    _ = fchmod(descriptor, 0o644)
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    file = (
      descriptor, String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self), path
    )
  }

  deinit {
    if let file {
      close(file.descriptor)
      if !finished { unlink(file.temporaryPath) }
    }
  }

  /// Writes what is left and puts the file in place of the target.
  mutating func finish() throws(JournalExportError) {
    try flush()
    guard let file else { return }
    guard fsync(file.descriptor) == 0 else { throw .writeFailed(path: file.path, errno: errno) }
    guard rename(file.temporaryPath, file.path) == 0 else { throw .cannotOpen(path: file.path, errno: errno) }
    finished = true
  }

  @inlinable
  mutating func flushIfNeeded() throws(JournalExportError) {
    if writer.count >= Self.threshold { try flush() }
  }

  /// Whether `<` is written as `\u003c`: for JSON inside an HTML `<script>` element, where
  /// `</script>` in a string would end the element. `<` occurs only inside JSON strings, where
  /// the escape means the same.
  var escapesLessThan = false

  @usableFromInline
  mutating func flush() throws(JournalExportError) {
    if escapesLessThan, writer.withUnsafeBytes({ $0.contains(UInt8(ascii: "<")) }) {
      var escaped: [UInt8] = []
      escaped.reserveCapacity(writer.count + 64)
      writer.withUnsafeBytes { bytes in
        for byte in bytes {
          if byte == UInt8(ascii: "<") {
            escaped.append(contentsOf: #"\u003c"#.utf8)
          } else {
            escaped.append(byte)
          }
        }
      }
      writer.removeAll()
      writer.append(escaped)
    }
    flushedCount += writer.count
    defer { writer.removeAll() }
    guard let file else {
      writer.withUnsafeBytes { data.append(contentsOf: $0) }
      return
    }
    try Self.write(writer, to: file.descriptor, path: file.path)
  }

  /// Writes all of `writer`'s bytes, retrying partial writes and interruptions.
  static func write(_ writer: JSONWriter, to descriptor: Int32, path: String) throws(JournalExportError) {
    var written = 0
    try write(writer, to: descriptor, path: path, written: &written)
  }

  /// Writes all of `writer`'s bytes, retrying partial writes and interruptions; `written` is
  /// the number of bytes that reached the file, all of them unless it throws.
  static func write(
    _ writer: JSONWriter, to descriptor: Int32, path: String, written: inout Int
  ) throws(JournalExportError) {
    written = 0
    guard writer.count > 0 else { return }
    var failure: Int32 = 0
    var offset = 0
    writer.withUnsafeBytes { buffer in
      // Not empty (checked above), so the buffer has an address.
      guard let start = buffer.baseAddress else { return }
      while offset < buffer.count {
        let count = systemWrite(descriptor, start + offset, buffer.count - offset)
        if count < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        offset += count
      }
    }
    written = offset
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
