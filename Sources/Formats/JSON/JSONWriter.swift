/// Writes compact JSON into a byte buffer, which exporters drain to a file or `Data` as it grows.
///
/// Strings are escaped as RFC 8259 requires (quote, backslash, control characters) and otherwise
/// written as UTF-8, so the output is valid UTF-8 JSON whatever the input strings hold.
///
/// Usable from inlinable code: the NDJSON sink formats its lines in code specialized in the client.
@usableFromInline
struct JSONWriter {
  @usableFromInline var bytes: [UInt8] = []

  @usableFromInline
  init(capacity: Int = 0) {
    bytes.reserveCapacity(capacity)
  }

  /// Writes `value`.
  mutating func write(_ value: JSONValue) {
    switch value {
    case .null: raw("null")
    case .bool(let flag): raw(flag ? "true" : "false")
    case .number(let text): utf8(text)
    case .string(let text): string(text)
    case .array(let elements):
      bytes.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        write(element)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let members):
      bytes.append(UInt8(ascii: "{"))
      for (index, member) in members.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        string(member.key)
        bytes.append(UInt8(ascii: ":"))
        write(member.value)
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }

  /// The number of bytes written.
  var count: Int { bytes.count }

  /// Drops what was written, keeping the buffer.
  @inlinable
  mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
  }

  /// Calls `body` with the bytes written.
  func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    bytes.withUnsafeBytes(body)
  }

  /// Writes what `other` holds.
  @inlinable
  mutating func append(_ other: JSONWriter) {
    bytes.append(contentsOf: other.bytes)
  }

  /// Writes ASCII punctuation or a literal, such as `{"entries":[`.
  @inlinable
  mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Writes `key` as an object key followed by `:`.
  mutating func key(_ key: String) {
    string(key)
    bytes.append(UInt8(ascii: ":"))
  }

  /// Writes an integer.
  @inlinable
  mutating func integer(_ value: some BinaryInteger) {
    guard value.bitWidth <= 64 || (value.magnitude >> 63) == 0 else { return utf8(String(value)) }
    // Appended as typed bytes: appending raw bytes took a slower, element by element, path.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DecimalDigits.maxCount) { buffer in
      let start = DecimalDigits.write(value, into: UnsafeMutableRawBufferPointer(buffer))
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start...]))
    }
  }

  /// Writes `text` as is: it must already be valid JSON, such as a number's text.
  @usableFromInline
  mutating func utf8(_ text: String) {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  /// Writes `text` as a JSON string.
  @usableFromInline
  mutating func string(_ text: String) {
    bytes.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { utf8 in
      var start = 0
      for index in 0..<utf8.count {
        let byte = utf8[index]
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
        start = index + 1
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
          let hex: [UInt8] = Array("0123456789abcdef".utf8)
          bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        }
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// The compact JSON text of `value`.
  static func serialize(_ value: JSONValue) -> [UInt8] {
    var writer = JSONWriter()
    writer.write(value)
    return writer.bytes
  }
}
