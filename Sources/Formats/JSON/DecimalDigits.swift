/// Decimal text of integers without going through `String(_:radix:)`, which formats through a
/// generic path several times slower: exports write an integer or more per entry.
enum DecimalDigits {
  /// The most bytes a 64-bit integer's text needs: a sign and 20 digits.
  static let maxCount = 21

  /// Writes the decimal text of `value` at the end of `buffer` and returns where it starts.
  @inline(__always)
  static func write(_ value: some BinaryInteger, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    var position = buffer.count
    let negative = value < 0
    // The magnitude as UInt64: every fixed-width integer the encoder meets fits.
    var magnitude = UInt64(truncatingIfNeeded: value.magnitude)
    repeat {
      let (quotient, digit) = magnitude.quotientAndRemainder(dividingBy: 10)
      position -= 1
      buffer[position] = UInt8(truncatingIfNeeded: digit) &+ UInt8(ascii: "0")
      magnitude = quotient
    } while magnitude != 0
    if negative {
      position -= 1
      buffer[position] = UInt8(ascii: "-")
    }
    return position
  }

  /// The decimal text of `value`, as `String(value)` writes it.
  static func string(_ value: some BinaryInteger) -> String {
    guard value.bitWidth <= 64 || (value.magnitude >> 63) == 0 else { return String(value) }
    return withUnsafeTemporaryAllocation(byteCount: maxCount, alignment: 1) { buffer in
      let start = write(value, into: buffer)
      return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
    }
  }
}
