#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The NUL bytes that end a stream a mapped sink was writing when it was killed (see
/// ``MappedFile``): found by the readers after the last newline. No JSON text holds a NUL, and
/// the sink stores a line's newline after its other bytes, so a kill leaves none after the
/// first NUL: a newline there is a corrupt file.
enum UnwrittenTail {
  /// The index in `bytes` of its first NUL byte, if any.
  static func start(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let base = bytes.baseAddress, let found = memchr(base, 0, bytes.count) else { return nil }
    return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
  }

  /// Whether `bytes` hold a newline.
  static func hasNewline(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return false }
    return memchr(base, Int32(UInt8(ascii: "\n")), bytes.count) != nil
  }

  /// The error for a newline found after the first NUL, at `byteOffset`.
  static func lineAfterTail(lineNumber: Int, byteOffset: Int) -> JournalImportError {
    .malformed(
      entry: nil, field: "line \(lineNumber)", byteOffset: byteOffset,
      reason: "a line ends after NUL bytes, which only a mapped sink's unwritten tail holds")
  }
}
