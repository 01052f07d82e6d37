/// Checks JSON text (RFC 8259) without building anything: the inspector stores and forwards an
/// app's entry, effect, state and gap lines as received, so it only needs to know that each is
/// one JSON object of one member whose value is an object. Foundation's parser, which builds
/// every value, stays for the few lines the inspector reads (hello, results, the page's lines).
struct JSONSyntax {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var index = 0
  /// How deep values may nest, as the formats' parsers allow.
  static let maxDepth = 512

  private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// The member's name when `line` is `{"NAME":{…}}` (whitespace allowed between tokens) and
  /// valid JSON throughout; `nil` otherwise.
  static func singleObjectMember(_ line: Substring) -> Substring? {
    // Scanned in place: a line of a native string is contiguous, and is not copied.
    let found =
      line.utf8.withContiguousStorageIfAvailable(memberName)
      ?? Array(line.utf8).withUnsafeBufferPointer(memberName)
    guard let name = found else { return nil }
    let utf8 = line.utf8
    let start = utf8.index(utf8.startIndex, offsetBy: name.lowerBound)
    let end = utf8.index(utf8.startIndex, offsetBy: name.upperBound)
    return line[start..<end]
  }

  /// The byte offsets of the member's name, as ``singleObjectMember(_:)`` checks.
  private static func memberName(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
    var scanner = JSONSyntax(bytes)
    scanner.skipWhitespace()
    guard scanner.take(UInt8(ascii: "{")) else { return nil }
    scanner.skipWhitespace()
    let nameStart = scanner.index + 1
    guard scanner.string() else { return nil }
    let nameEnd = scanner.index - 1
    scanner.skipWhitespace()
    guard scanner.take(UInt8(ascii: ":")) else { return nil }
    scanner.skipWhitespace()
    guard scanner.peek == UInt8(ascii: "{"), scanner.value(depth: 1) else { return nil }
    scanner.skipWhitespace()
    guard scanner.take(UInt8(ascii: "}")) else { return nil }
    scanner.skipWhitespace()
    guard scanner.index == scanner.bytes.count else { return nil }
    return nameStart..<nameEnd
  }

  private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

  private mutating func take(_ byte: UInt8) -> Bool {
    guard peek == byte else { return false }
    index += 1
    return true
  }

  private mutating func skipWhitespace() {
    while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
  }

  private mutating func value(depth: Int) -> Bool {
    guard depth <= Self.maxDepth, let byte = peek else { return false }
    switch byte {
    case UInt8(ascii: "{"):
      index += 1
      skipWhitespace()
      if take(UInt8(ascii: "}")) { return true }
      while true {
        skipWhitespace()
        guard string() else { return false }
        skipWhitespace()
        guard take(UInt8(ascii: ":")) else { return false }
        skipWhitespace()
        guard value(depth: depth + 1) else { return false }
        skipWhitespace()
        if take(UInt8(ascii: "}")) { return true }
        guard take(UInt8(ascii: ",")) else { return false }
      }
    case UInt8(ascii: "["):
      index += 1
      skipWhitespace()
      if take(UInt8(ascii: "]")) { return true }
      while true {
        skipWhitespace()
        guard value(depth: depth + 1) else { return false }
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return true }
        guard take(UInt8(ascii: ",")) else { return false }
      }
    case UInt8(ascii: "\""): return string()
    case UInt8(ascii: "t"): return literal("true")
    case UInt8(ascii: "f"): return literal("false")
    case UInt8(ascii: "n"): return literal("null")
    default: return number()
    }
  }

  private mutating func literal(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { return false }
    for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
    index += count
    return true
  }

  private mutating func digits() -> Int {
    let start = index
    while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
    return index - start
  }

  private mutating func number() -> Bool {
    _ = take(UInt8(ascii: "-"))
    if take(UInt8(ascii: "0")) {
      // No leading zeros.
    } else if digits() == 0 {
      return false
    }
    if take(UInt8(ascii: ".")), digits() == 0 { return false }
    if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
      index += 1
      if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
      if digits() == 0 { return false }
    }
    return true
  }

  /// A string; the text was already checked to be UTF-8, so only escapes and control
  /// characters are checked here.
  private mutating func string() -> Bool {
    guard take(UInt8(ascii: "\"")) else { return false }
    while let byte = peek {
      index += 1
      switch byte {
      case UInt8(ascii: "\""): return true
      case UInt8(ascii: "\\"):
        guard let escaped = peek else { return false }
        index += 1
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
          UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          continue
        case UInt8(ascii: "u"):
          for _ in 0..<4 {
            guard let hex = peek, isHexDigit(hex) else { return false }
            index += 1
          }
        default: return false
        }
      default:
        if byte < 0x20 { return false }
      }
    }
    return false
  }

  private func isHexDigit(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
      || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
      || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
  }
}
