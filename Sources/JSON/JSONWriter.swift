import Foundation

/// Writes compact JSON into a byte buffer, which exporters drain to a file or `Data` as it grows.
///
/// Strings are escaped as RFC 8259 requires (quote, backslash, control characters) and otherwise
/// written as UTF-8, so the output is valid UTF-8 JSON whatever the input strings hold.
///
/// Usable from inlinable code: the NDJSON sink formats its lines in code specialized in the client.
///
/// The bytes are kept in memory of its own rather than in an array: appending a few bytes to an
/// array went through its generic sequence path (a tenth of a sink's time for a line's couple of
/// dozen appends), where this is a capacity check and a copy. A copy of a writer shares that
/// memory until one of them writes, which then writes to memory of its own first.
@usableFromInline
package struct JSONWriter {
  /// Owns the memory ``start`` points to.
  @usableFromInline package var storage: JSONWriterStorage
  @usableFromInline package var start: UnsafeMutablePointer<UInt8>
  @usableFromInline package var capacity: Int
  /// The number of bytes written.
  @usableFromInline package var count = 0

  @usableFromInline
  package init(capacity: Int = 0) {
    storage = JSONWriterStorage(capacity: Swift.max(capacity, 32))
    start = storage.start
    self.capacity = storage.capacity
  }

  /// The bytes written, as an array (a copy).
  package var bytes: [UInt8] {
    withUnsafeBytes { Array($0) }
  }

  /// Drops what was written, keeping the memory.
  @inlinable
  package mutating func removeAll() {
    count = 0
  }

  /// Drops what was written from `position` on.
  package mutating func removeSuffix(from position: Int) {
    precondition(position >= 0 && position <= count, "JSONWriter: position out of range")
    count = position
  }

  /// Calls `body` with the bytes written.
  package func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
    try withExtendedLifetime(storage) { try body(UnsafeRawBufferPointer(start: start, count: count)) }
  }

  /// Makes room for `extra` more bytes in memory this writer alone holds.
  @inlinable @inline(__always)
  package mutating func reserve(_ extra: Int) {
    if _slowPath(extra > capacity &- count || !isKnownUniquelyReferenced(&storage)) { grow(extra) }
  }

  @usableFromInline
  package mutating func grow(_ extra: Int) {
    let needed = count + extra
    let newCapacity = needed <= capacity ? capacity : Swift.max(needed, capacity * 2)
    let new = JSONWriterStorage(capacity: newCapacity)
    new.start.initialize(from: start, count: count)
    storage = new
    start = new.start
    capacity = newCapacity
  }

  /// Writes one byte.
  @inlinable @inline(__always)
  package mutating func append(_ byte: UInt8) {
    reserve(1)
    start[count] = byte
    count &+= 1
  }

  /// Writes `source`'s bytes.
  @inlinable @inline(__always)
  package mutating func append(_ source: UnsafeRawBufferPointer) {
    let length = source.count
    guard length > 0, let base = source.baseAddress else { return }
    reserve(length)
    UnsafeMutableRawPointer(start + count).copyMemory(from: base, byteCount: length)
    count &+= length
  }

  /// Writes `bytes`.
  package mutating func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { append($0) }
  }

  /// Writes what `other` holds.
  @inlinable
  package mutating func append(_ other: JSONWriter) {
    withExtendedLifetime(other.storage) {
      append(UnsafeRawBufferPointer(start: other.start, count: other.count))
    }
  }

  /// Writes `value`.
  package mutating func write(_ value: JSONValue) {
    switch value {
    case .null: raw("null")
    case .bool(let flag): raw(flag ? "true" : "false")
    case .number(let text): utf8(text)
    case .string(let text): string(text)
    case .array(let elements):
      append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { append(UInt8(ascii: ",")) }
        write(element)
      }
      append(UInt8(ascii: "]"))
    case .object(let members):
      append(UInt8(ascii: "{"))
      for (index, member) in members.enumerated() {
        if index > 0 { append(UInt8(ascii: ",")) }
        string(member.key)
        append(UInt8(ascii: ":"))
        write(member.value)
      }
      append(UInt8(ascii: "}"))
    }
  }

  /// Writes ASCII punctuation or a literal, such as `{"entries":[`.
  ///
  /// Always inlined, so that the literal's length is a constant where it is written and its
  /// copy a few stores: called, it was a call and a `memcpy` of a length known only at run time,
  /// for each of the dozen literals of a sink's line.
  @inlinable @inline(__always)
  package mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { append(UnsafeRawBufferPointer($0)) }
  }

  /// Writes ASCII punctuation or a literal into room made by ``reserve(_:)``: a line's fixed
  /// members make their room once, where checking it per member was a tenth of a sink's line.
  @inlinable @inline(__always)
  package mutating func rawReserved(_ text: StaticString) {
    let length = text.utf8CodeUnitCount
    UnsafeMutableRawPointer(start + count).copyMemory(from: text.utf8Start, byteCount: length)
    count &+= length
  }

  /// Writes an integer of at most 64 bits into room made by ``reserve(_:)``: at most
  /// `DecimalDigits.maxCount` bytes.
  @inlinable @inline(__always)
  package mutating func integerReserved(_ value: some FixedWidthInteger) {
    let base = UnsafeMutableRawPointer(start + count)
    let first = DecimalDigits.write(
      value, into: UnsafeMutableRawBufferPointer(start: base, count: DecimalDigits.maxCount))
    let length = DecimalDigits.maxCount &- first
    if first > 0 { base.copyMemory(from: base + first, byteCount: length) }
    count &+= length
  }

  /// Writes `key` as an object key followed by `:`.
  package mutating func key(_ key: String) {
    string(key)
    append(UInt8(ascii: ":"))
  }

  /// Writes an integer.
  @inlinable
  package mutating func integer(_ value: some BinaryInteger) {
    guard value.bitWidth <= 64 || (value.magnitude >> 63) == 0 else { return utf8(String(value)) }
    withUnsafeTemporaryAllocation(byteCount: DecimalDigits.maxCount, alignment: 1) { buffer in
      let first = DecimalDigits.write(value, into: buffer)
      append(UnsafeRawBufferPointer(rebasing: buffer[first...]))
    }
  }

  /// Writes a finite number as the encoders write it (its `description`, a leading `0` before a
  /// leading `.`); writes nothing and returns `false` for an infinity or a NaN, which JSON cannot hold.
  @usableFromInline
  package mutating func floating<F: BinaryFloatingPoint & LosslessStringConvertible>(_ number: F) -> Bool {
    guard number.isFinite else { return false }
    let text = number.description
    if text.hasPrefix(".") { append(UInt8(ascii: "0")) }
    utf8(text)
    return true
  }

  /// Writes `value` if it is one of the types the encoders write directly (strings, integers,
  /// `Bool`, `Double`, `Float`, `Data` as Base64, `URL` as its absolute string, `Decimal`), told
  /// apart by their type compared as a pointer (folded away where the caller is specialized):
  /// `nil`, having written nothing, for any other type; `false`, having written nothing, for a
  /// number JSON cannot hold (an infinity, a NaN).
  @inlinable
  package mutating func scalar<T>(_ value: T) -> Bool? {
    func `is`<U>(_ type: U.Type) -> Bool { T.self == U.self }
    func `as`<U>(_ type: U.Type) -> U { unsafeBitCast(value, to: U.self) }
    if `is`(String.self) {
      string(`as`(String.self))
    } else if `is`(Int.self) {
      integer(`as`(Int.self))
    } else if `is`(Bool.self) {
      raw(`as`(Bool.self) ? "true" : "false")
    } else if `is`(Double.self) {
      return floating(`as`(Double.self))
    } else if `is`(Int64.self) {
      integer(`as`(Int64.self))
    } else if `is`(UInt64.self) {
      integer(`as`(UInt64.self))
    } else if `is`(Int32.self) {
      integer(`as`(Int32.self))
    } else if `is`(UInt32.self) {
      integer(`as`(UInt32.self))
    } else if `is`(UInt.self) {
      integer(`as`(UInt.self))
    } else if `is`(Int16.self) {
      integer(`as`(Int16.self))
    } else if `is`(UInt16.self) {
      integer(`as`(UInt16.self))
    } else if `is`(Int8.self) {
      integer(`as`(Int8.self))
    } else if `is`(UInt8.self) {
      integer(`as`(UInt8.self))
    } else if `is`(Float.self) {
      return floating(`as`(Float.self))
    } else if `is`(Data.self) {
      string(`as`(Data.self).base64EncodedString())
    } else if `is`(URL.self) {
      string(`as`(URL.self).absoluteString)
    } else if `is`(Decimal.self) {
      let decimal = `as`(Decimal.self)
      guard decimal.isFinite else { return false }
      utf8(decimal.description)
    } else {
      return nil
    }
    return true
  }

  /// Writes `text` as is: it must already be valid JSON, such as a number's text.
  @usableFromInline
  package mutating func utf8(_ text: String) {
    var text = text
    text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
  }

  /// Writes `text` as a JSON string.
  @usableFromInline
  package mutating func string(_ text: String) {
    // A native or small string's bytes are read where they are; only another (bridged) string
    // is copied first. `withUTF8` alone needed a mutable copy: a retain and a release, each an
    // atomic operation, for every string of every line.
    if text.utf8.withContiguousStorageIfAvailable({ string(utf8: $0) }) != nil { return }
    var text = text
    text.withUTF8 { string(utf8: $0) }
  }

  /// Writes the UTF-8 bytes `utf8` as a JSON string.
  private mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
    // Most strings (keys, case names) need no escape: their room is made once and they are
    // copied whole, where each append checked its room (a twentieth of a sink's line).
    let length = utf8.count
    reserve(length &+ 2)
    var index = 0
    while index < length {
      let byte = utf8[index]
      if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { break }
      index &+= 1
    }
    guard index < length else {
      start[count] = UInt8(ascii: "\"")
      if let base = utf8.baseAddress { (start + count + 1).update(from: base, count: length) }
      start[count &+ 1 &+ length] = UInt8(ascii: "\"")
      count &+= length &+ 2
      return
    }
    escaped(utf8, plainUpTo: index)
  }

  /// Writes `utf8` as a JSON string, escaping what must be; its first `plainCount` bytes, already
  /// scanned, need no escape.
  private mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>, plainUpTo plainCount: Int) {
    append(UInt8(ascii: "\""))
    var plain = 0
    for index in plainCount..<utf8.count {
      let byte = utf8[index]
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
      append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8[plain..<index])))
      plain = index + 1
      append(UInt8(ascii: "\\"))
      switch byte {
      case UInt8(ascii: "\""): append(UInt8(ascii: "\""))
      case UInt8(ascii: "\\"): append(UInt8(ascii: "\\"))
      case 0x0A: append(UInt8(ascii: "n"))
      case 0x0D: append(UInt8(ascii: "r"))
      case 0x09: append(UInt8(ascii: "t"))
      case 0x08: append(UInt8(ascii: "b"))
      case 0x0C: append(UInt8(ascii: "f"))
      default:
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        append([UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
      }
    }
    append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8[plain..<utf8.count])))
    append(UInt8(ascii: "\""))
  }

  /// The compact JSON text of `value`.
  package static func serialize(_ value: JSONValue) -> [UInt8] {
    var writer = JSONWriter()
    writer.write(value)
    return writer.bytes
  }
}

/// The memory a ``JSONWriter`` writes to, released with the last writer that holds it.
@usableFromInline
package final class JSONWriterStorage {
  @usableFromInline package let start: UnsafeMutablePointer<UInt8>
  @usableFromInline package let capacity: Int

  package init(capacity: Int) {
    start = UnsafeMutablePointer.allocate(capacity: capacity)
    self.capacity = capacity
  }

  deinit {
    start.deallocate()
  }
}
