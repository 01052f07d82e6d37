/// A last line that the writer did not finish: the stream ends without its newline.
///
/// A file left by a killed mapped sink (``NDJSONFileSink/Writing/mapped(chunkBytes:)``) ends with
/// NUL bytes it had set aside for lines: the torn line is what precedes the first of them (none,
/// when the writer was killed between two lines), and ``unwrittenByteCount`` counts them.
public struct TornLine: Sendable, Hashable {
  /// Its line number, counting from 1 (the header is line 1).
  public let lineNumber: Int
  /// The offset of its first byte in the stream.
  public let byteOffset: Int
  /// The number of bytes written of it.
  public let byteCount: Int
  /// The bytes after it that a mapped sink had set aside and not written (NUL bytes, and any
  /// bytes of the torn line stored after one of them); 0 for a file written with `write(2)`.
  public let unwrittenByteCount: Int

  /// Creates a description of a torn line.
  public init(lineNumber: Int, byteOffset: Int, byteCount: Int, unwrittenByteCount: Int = 0) {
    self.lineNumber = lineNumber
    self.byteOffset = byteOffset
    self.byteCount = byteCount
    self.unwrittenByteCount = unwrittenByteCount
  }
}
