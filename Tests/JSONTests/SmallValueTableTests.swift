import Foundation
import Testing

@testable import ChronicleJSON

/// The key of a value's bytes, as the export makes it.
private func key<Value>(_ value: Value) -> SmallValueBytes {
  withUnsafeBytes(of: value) { SmallValueBytes($0) }
}

@Suite("Small value table")
struct SmallValueTableTests {
  @Test func addedValuesAreFoundWithTheirPayloadAndOthersAreNot() {
    var table = SmallValueTable<String>()
    table.add(key(7), "seven")
    table.add(key(-7), "minus seven")
    #expect(table.position(of: key(7)).map { table.payloads[$0] } == "seven")
    #expect(table.position(of: key(-7)).map { table.payloads[$0] } == "minus seven")
    #expect(table.position(of: key(8)) == nil)
    #expect(table.count == 2)
  }

  @Test func keysDifferingInOneBitAnywhereAreDifferentValues() {
    var table = SmallValueTable<Int>()
    let base = SmallValueBytes(low: 0x0123_4567_89AB_CDEF, high: 0xFEDC_BA98_7654_3210)
    table.add(base, -1)
    for bit in 0..<128 {
      var changed = base
      if bit < 64 { changed.low ^= 1 << UInt64(bit) } else { changed.high ^= 1 << UInt64(bit - 64) }
      #expect(table.position(of: changed) == nil, "bit \(bit)")
      table.add(changed, bit)
    }
    #expect(table.position(of: base).map { table.payloads[$0] } == -1)
    for bit in 0..<128 {
      var changed = base
      if bit < 64 { changed.low ^= 1 << UInt64(bit) } else { changed.high ^= 1 << UInt64(bit - 64) }
      #expect(table.position(of: changed).map { table.payloads[$0] } == bit, "bit \(bit)")
    }
  }

  @Test func aFullTableFindsEveryValueAndAddsNoMore() {
    var table = SmallValueTable<Int>()
    // Counting integers and values that differ only in their second word: the slots they
    // hash to collide often in 2,048, and each must still be found.
    for n in 0..<SmallValueTable<Int>.limit {
      table.add(n.isMultiple(of: 2) ? key(n) : SmallValueBytes(low: 0, high: UInt64(n)), n)
    }
    #expect(table.isFull)
    var wrong = 0
    for n in 0..<SmallValueTable<Int>.limit {
      let found = table.position(of: n.isMultiple(of: 2) ? key(n) : SmallValueBytes(low: 0, high: UInt64(n)))
      if found.map({ table.payloads[$0] }) != n { wrong += 1 }
    }
    #expect(wrong == 0)
    table.add(key(5_000), 5_000)
    #expect(table.count == SmallValueTable<Int>.limit)
    #expect(table.position(of: key(5_000)) == nil)
  }

  @Test func fewerThanSixteenBytesArePaddedWithZeros() {
    let short = key(UInt8(0xAB))
    #expect(short == SmallValueBytes(low: 0xAB, high: 0))
    #expect(key((UInt64(1), UInt32(2))) == SmallValueBytes(low: 1, high: 2))
  }
}
