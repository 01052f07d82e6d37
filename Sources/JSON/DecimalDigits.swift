/// Decimal text of integers without going through `String(_:radix:)`, which formats through a
/// generic path several times slower: exports write an integer or more per entry.
@usableFromInline
package enum DecimalDigits {
  /// The most bytes a 64-bit integer's text needs: a sign and 20 digits.
  @usableFromInline package static let maxCount = 21

  /// The two digits of 0 to 99, in order.
  @usableFromInline package static let pairDigits: StaticString = """
    00010203040506070809101112131415161718192021222324252627282930313233343536373839\
    40414243444546474849505152535455565758596061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """

  /// Writes the decimal text of `value` at the end of `buffer` and returns where it starts.
  @inlinable @inline(__always)
  package static func write(_ value: some BinaryInteger, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    var position = buffer.count
    let negative = value < 0
    // The magnitude as UInt64: every fixed-width integer the encoder meets fits.
    var magnitude = UInt64(truncatingIfNeeded: value.magnitude)
    // Two digits per division: a nanosecond time has 19.
    let pairs = pairDigits.utf8Start
    while magnitude >= 100 {
      let (quotient, pair) = magnitude.quotientAndRemainder(dividingBy: 100)
      position -= 2
      buffer[position] = pairs[Int(pair) &* 2]
      buffer[position + 1] = pairs[Int(pair) &* 2 &+ 1]
      magnitude = quotient
    }
    if magnitude >= 10 {
      position -= 2
      buffer[position] = pairs[Int(magnitude) &* 2]
      buffer[position + 1] = pairs[Int(magnitude) &* 2 &+ 1]
    } else {
      position -= 1
      buffer[position] = UInt8(truncatingIfNeeded: magnitude) &+ UInt8(ascii: "0")
    }
    if negative {
      position -= 1
      buffer[position] = UInt8(ascii: "-")
    }
    return position
  }

  /// The decimal text of `value`, as `String(value)` writes it.
  package static func string(_ value: some BinaryInteger) -> String {
    guard value.bitWidth <= 64 || (value.magnitude >> 63) == 0 else { return String(value) }
    return withUnsafeTemporaryAllocation(byteCount: maxCount, alignment: 1) { buffer in
      let start = write(value, into: buffer)
      return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
    }
  }
}
