import ChronicleInspection
import Testing

@testable import ChronicleJSON

/// `JSONWriter`'s memory: it grows as it is written, and a copy keeps what it held.
@Suite struct JSONWriterTests {
  private func text(_ writer: JSONWriter) -> String {
    String(decoding: writer.bytes, as: UTF8.self)
  }

  @Test func writingPastTheFirstCapacityKeepsEveryByte() {
    var writer = JSONWriter(capacity: 4)
    var expected = ""
    for number in 0..<1_000 {
      writer.raw(",")
      writer.integer(number)
      writer.string("item \(number)")
      expected += #",\#(number)"item \#(number)""#
    }
    #expect(text(writer) == expected)
    #expect(writer.count == expected.utf8.count)
  }

  @Test func integersWrittenIntoReservedRoomAreTheirDecimalText() {
    var writer = JSONWriter(capacity: 4)
    writer.raw("[")
    writer.reserve(5 * DecimalDigits.maxCount + 8)
    writer.integerReserved(Int64.min)
    writer.rawReserved(",")
    writer.integerReserved(UInt64.max)
    writer.rawReserved(",")
    writer.integerReserved(0)
    writer.rawReserved(",")
    writer.integerReserved(-7)
    writer.rawReserved(",")
    writer.integerReserved(Int32.max)
    writer.rawReserved("]")
    #expect(text(writer) == "[-9223372036854775808,18446744073709551615,0,-7,2147483647]")
  }

  @Test func reservingRoomInACopyLeavesTheOriginalsBytes() {
    var writer = JSONWriter()
    writer.raw("[1")
    let copy = writer
    writer.reserve(DecimalDigits.maxCount + 1)
    writer.rawReserved(",")
    writer.integerReserved(22)
    #expect(text(copy) == "[1")
    #expect(text(writer) == "[1,22")
  }

  @Test(arguments: [
    ("", #""""#),
    ("plain text past the first capacity, é 🎉", #""plain text past the first capacity, é 🎉""#),
    ("\"first", #""\"first""#),
    ("last\\", #""last\\""#),
    ("a\nb\tc\u{1}d\u{1f}", #""a\nb\tc\u0001d\u001f""#),
  ])
  func stringsAreWrittenQuotedWithWhatMustBeEscapedEscaped(text: String, json: String) {
    var writer = JSONWriter(capacity: 4)
    writer.raw("[")
    writer.string(text)
    writer.raw("]")
    #expect(self.text(writer) == "[" + json + "]")
  }

  @Test func aStringWrittenIntoACopyLeavesTheOriginalsBytes() {
    var writer = JSONWriter()
    writer.raw("[")
    let copy = writer
    writer.string("x")
    #expect(text(copy) == "[")
    #expect(text(writer) == #"["x""#)
  }

  @Test func aCopyKeepsItsBytesWhenTheOriginalIsClearedAndWrittenAgain() {
    var writer = JSONWriter()
    writer.string("first")
    let copy = writer
    writer.removeAll()
    writer.string("second")
    #expect(text(copy) == #""first""#)
    #expect(text(writer) == #""second""#)
  }

  @Test func removingASuffixKeepsTheBytesBeforeIt() {
    var writer = JSONWriter()
    writer.raw(#"{"a":"#)
    let end = writer.count
    writer.string("dropped")
    writer.removeSuffix(from: end)
    writer.raw("1}")
    #expect(text(writer) == #"{"a":1}"#)
  }

  @Test func appendingAWriterWritesItsBytes() {
    var scratch = JSONWriter()
    scratch.string("tab\there")
    var writer = JSONWriter()
    writer.raw(#"{"s":"#)
    writer.append(scratch)
    writer.raw("}")
    #expect(text(writer) == #"{"s":"tab\there"}"#)
  }
}
