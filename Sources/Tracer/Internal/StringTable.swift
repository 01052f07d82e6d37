/// Interned strings: each distinct string is stored once and entries refer to it by a `UInt32`.
///
/// Code `0` stands for "no string". Context labels and cause labels repeat across thousands of
/// entries; interning keeps an entry free of heap references.
@usableFromInline
struct StringTable: Sendable {
  @usableFromInline var strings: [String] = []
  @usableFromInline var codes: [String: UInt32] = [:]
  /// The last string interned and its code: most entries repeat the previous entry's label, and
  /// comparing with it is cheaper than hashing.
  @usableFromInline var last: (string: String, code: UInt32)?
  /// The UTF-8 bytes held, for the journal's size estimate.
  @usableFromInline var byteCount = 0

  var count: Int { strings.count }

  @usableFromInline init() {}

  /// The code of `string`, interning it; 0 for `nil`. The `nil` case, which most entries' labels
  /// are, is always inlined, so that the tracer does not call out for it.
  @inlinable @inline(__always)
  mutating func code(for string: String?) -> UInt32 {
    guard let string else { return 0 }
    return code(interning: string)
  }

  @inlinable
  mutating func code(interning string: String) -> UInt32 {
    if let last, last.string == string { return last.code }
    let code: UInt32
    if let existing = codes[string] {
      code = existing
    } else {
      strings.append(string)
      code = UInt32(strings.count)
      codes[string] = code
      byteCount += string.utf8.count + 16
    }
    last = (string, code)
    return code
  }

  func string(for code: UInt32) -> String? {
    code == 0 ? nil : strings[Int(code) - 1]
  }
}
