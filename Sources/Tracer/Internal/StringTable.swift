/// Interned strings: each distinct string is stored once and entries refer to it by a `UInt32`.
///
/// Code `0` stands for "no string". Context labels and cause labels repeat across thousands of
/// entries; interning keeps an entry free of heap references.
///
/// The table shrinks with the journal: each string remembers the last journal position (entry
/// index) known to refer to it, and ``release(before:)``, called when entries are committed,
/// frees the strings no remaining entry or event can refer to and recycles their codes. So a
/// journal of ever new labels (ids in labels, timestamps) stays within its byte cap.
@usableFromInline
struct StringTable: Sendable {
  /// The strings by code - 1; a freed slot holds "".
  @usableFromInline var strings: [String] = []
  @usableFromInline var codes: [String: UInt32] = [:]
  /// By code - 1: the latest position known to refer to the string, or `freed`. Updated only
  /// when a string stops being ``last`` (or is looked up while not being it), so that the common
  /// case, the previous entry's label again, costs one comparison.
  @usableFromInline var lastUse: [Int] = []
  /// Codes free for reuse.
  @usableFromInline var freeCodes: [UInt32] = []
  /// The last string interned and its code: most entries repeat the previous entry's label, and
  /// comparing with it is cheaper than hashing. Never freed while it is the last.
  @usableFromInline var last: (string: String, code: UInt32)?
  /// The UTF-8 bytes held, for the journal's size estimate.
  @usableFromInline var byteCount = 0

  @usableFromInline static var freed: Int { .min }

  /// The number of strings held.
  var count: Int { codes.count }

  @usableFromInline init() {}

  /// The code of `string`, interning it; 0 for `nil`. The `nil` case, which most entries' labels
  /// are, is always inlined, so that the tracer does not call out for it.
  ///
  /// - Parameter position: The entry index of the entry (or the position of the effect event)
  ///   that refers to the string. An importer that does not track positions passes `Int.max`,
  ///   which keeps the string for the journal's life.
  @inlinable @inline(__always)
  mutating func code(for string: String?, at position: Int) -> UInt32 {
    guard let string else { return 0 }
    return code(interning: string, at: position)
  }

  @inlinable
  mutating func code(interning string: String, at position: Int) -> UInt32 {
    if let last, last.string == string { return last.code }
    return code(switchingTo: string, at: position)
  }

  @usableFromInline
  mutating func code(switchingTo string: String, at position: Int) -> UInt32 {
    // The string that was last is referred to up to here at most.
    if let last { lastUse[Int(last.code) - 1] = max(lastUse[Int(last.code) - 1], position) }
    let code: UInt32
    if let existing = codes[string] {
      code = existing
      lastUse[Int(code) - 1] = max(lastUse[Int(code) - 1], position)
    } else {
      if let reused = freeCodes.popLast() {
        code = reused
        strings[Int(code) - 1] = string
        lastUse[Int(code) - 1] = position
      } else {
        strings.append(string)
        lastUse.append(position)
        code = UInt32(strings.count)
      }
      codes[string] = code
      byteCount += string.utf8.count + 16
    }
    last = (string, code)
    return code
  }

  @usableFromInline func string(for code: UInt32) -> String? {
    code == 0 ? nil : strings[Int(code) - 1]
  }

  /// Frees the strings last referred to before `start`, the journal's first remaining position.
  ///
  /// Costs one pass over the table, so it runs when entries are committed (a sixteenth of the
  /// entry cap, or a checkpoint segment, at a time), never per action.
  mutating func release(before start: Int) {
    guard !codes.isEmpty else { return }
    for slot in lastUse.indices where lastUse[slot] < start && lastUse[slot] != Self.freed {
      let code = UInt32(slot + 1)
      if code == last?.code { continue }
      codes[strings[slot]] = nil
      byteCount -= strings[slot].utf8.count + 16
      strings[slot] = ""
      lastUse[slot] = Self.freed
      freeCodes.append(code)
    }
    // With nothing left in use, start afresh: the arrays' capacity goes too.
    if codes.isEmpty {
      self = StringTable()
    }
  }
}
