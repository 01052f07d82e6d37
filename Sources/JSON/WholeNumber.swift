/// A number's JSON text read as an `Integer`: its value, or why it is none.
///
/// One pass over the bytes: every journal entry has half a dozen integers, and `Integer(text)`
/// after a check of the characters took two.
package enum WholeNumber<Integer: FixedWidthInteger> {
  case value(Integer)
  /// Digits only, beyond `Integer`'s range.
  case outOfRange
  /// A fraction or an exponent.
  case notWhole

  /// The parser's text of a number (validated JSON).
  package init(_ text: String) {
    if let result = text.utf8.withContiguousStorageIfAvailable({ Self($0) }) {
      self = result
    } else if !text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || ($0 >= 0x30 && $0 <= 0x39) }) {
      self = .notWhole
    } else {
      self = Integer(text).map { .value($0) } ?? .outOfRange
    }
  }

  /// The bytes of a number (see ``init(_:)-(String)``).
  // Called for every number of every entry imported, often from code still generic over `Integer`
  // (the schema reader's conversions): unspecialized, it looked up `Integer`'s witnesses for every
  // digit. Specialized for the journal formats' integer types, a generic caller reaches these
  // (`import/*` in callgrind.sh: about 5,000 instructions per entry).
  @_specialize(where Integer == Int)
  @_specialize(where Integer == Int64)
  @_specialize(where Integer == UInt64)
  @_specialize(where Integer == UInt32)
  package init(_ bytes: UnsafeBufferPointer<UInt8>) {
    let negative = bytes.first == UInt8(ascii: "-")
    var value: Integer = 0
    var overflow = false
    for byte in bytes.dropFirst(negative ? 1 : 0) {
      guard byte >= 0x30 && byte <= 0x39 else {
        self = .notWhole
        return
      }
      let digit = Integer(byte &- 0x30)
      let (shifted, overflowMultiplying) = value.multipliedReportingOverflow(by: 10)
      let (next, overflowAdding) =
        negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
      overflow = overflow || overflowMultiplying || overflowAdding
      value = next
    }
    self = overflow ? .outOfRange : .value(value)
  }
}
