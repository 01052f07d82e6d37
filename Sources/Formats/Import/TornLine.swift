/// A last line that the writer did not finish: the stream ends without its newline.
public struct TornLine: Sendable, Hashable {
  /// Its line number, counting from 1 (the header is line 1).
  public let lineNumber: Int
  /// The offset of its first byte in the stream.
  public let byteOffset: Int
  /// The number of bytes written of it.
  public let byteCount: Int

  /// Creates a description of a torn line.
  public init(lineNumber: Int, byteOffset: Int, byteCount: Int) {
    self.lineNumber = lineNumber
    self.byteOffset = byteOffset
    self.byteCount = byteCount
  }
}
