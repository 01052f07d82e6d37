import ChronicleInspection
import Testing

@testable import ChronicleJSON

/// `DecimalDigits`: the integer text every writer writes.
@Suite struct DecimalDigitsTests {
  @Test func writesWhatStringWritesAtEveryNumberOfDigits() {
    var values: [Int64] = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1_000, .max, .min, .min + 1]
    var power: Int64 = 1
    for _ in 0..<18 {
      power *= 10
      values += [power - 1, power, power + 1, -(power - 1), -power, -(power + 1)]
    }
    for value in values {
      #expect(DecimalDigits.string(value) == String(value))
      var writer = JSONWriter()
      writer.integer(value)
      #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
    }
    #expect(DecimalDigits.string(UInt64.max) == "18446744073709551615")
    #expect(DecimalDigits.string(Int8.min) == "-128")
  }
}
