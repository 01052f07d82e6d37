import Foundation

/// One line of a live-link message: a JSON object with one member, whose name says what it is.
struct LiveLine {
  /// The member's name (`entry`, `hello`, `command`…).
  let kind: String
  /// The member's value.
  let body: Any
  /// The line as received, without its newline.
  let text: Substring

  /// Whether the line is numbered (kept by the app until acknowledged).
  var isNumbered: Bool { Self.numberedKinds.contains(kind) }

  /// Whether the line belongs in the session's `journal.ndjson`.
  var isJournalLine: Bool { kind == "entry" || kind == "effect" }

  static let numberedKinds: Set<String> = ["entry", "effect", "state", "gap"]
}

/// Why a message was refused, with the close code that says so (RFC 6455, section 7.4.1).
struct LiveLineError: Error, Equatable {
  /// 1007: a line that is not JSON (or not UTF-8); 1008: a message of an unknown shape.
  let code: UInt16
  let reason: String

  static func notJSON(_ line: Int, _ why: String) -> Self {
    LiveLineError(code: 1007, reason: "line \(line): not JSON (\(why))")
  }

  static func shape(_ line: Int, _ why: String) -> Self {
    LiveLineError(code: 1008, reason: "line \(line): \(why)")
  }
}

enum LiveMessage {
  /// The lines of a text message, each checked to be a JSON object of one member among `kinds`;
  /// a message is refused whole, so nothing of a bad message is applied.
  static func lines(of text: String, kinds: Set<String>) throws(LiveLineError) -> [LiveLine] {
    guard text.utf8.last == UInt8(ascii: "\n") else { throw .shape(1, "a message ends with a newline") }
    var lines: [LiveLine] = []
    var number = 0
    // Split on the newline byte, found in the text's contiguous bytes: splitting on Characters
    // walks grapheme clusters, and the generic search of a UTF-8 view goes through its indices;
    // either cost more than everything else done with a line.
    var text = text
    text.makeContiguousUTF8()
    let utf8 = text.utf8
    let ends: [Int] =
      utf8.withContiguousStorageIfAvailable { bytes in
        var ends: [Int] = []
        for offset in bytes.indices where bytes[offset] == UInt8(ascii: "\n") { ends.append(offset) }
        return ends
      } ?? []
    var startOffset = 0
    for endOffset in ends {
      let raw = text[
        utf8.index(utf8.startIndex, offsetBy: startOffset)..<utf8.index(utf8.startIndex, offsetBy: endOffset)]
      startOffset = endOffset + 1
      number += 1
      guard !raw.isEmpty else { throw .shape(number, "an empty line") }
      // The lines that are only stored and forwarded are checked, not built.
      if let name = JSONSyntax.singleObjectMember(raw), LiveLine.numberedKinds.contains(String(name)) {
        guard kinds.contains(String(name)) else { throw .shape(number, "unknown line \"\(name)\"") }
        lines.append(LiveLine(kind: String(name), body: [String: Any](), text: raw))
        continue
      }
      let object: Any
      do {
        object = try JSONSerialization.jsonObject(with: Data(raw.utf8), options: [.fragmentsAllowed])
      } catch {
        throw .notJSON(number, "\(raw.prefix(40))")
      }
      guard let members = object as? [String: Any] else { throw .shape(number, "not a JSON object") }
      guard members.count == 1, let (kind, body) = members.first else {
        throw .shape(number, "an object of one member expected, found \(members.count)")
      }
      guard kinds.contains(kind) else { throw .shape(number, "unknown line \"\(kind.prefix(40))\"") }
      lines.append(LiveLine(kind: kind, body: body, text: raw))
    }
    return lines
  }
}

/// JSON text written by hand where the inspector only wraps lines it received.
enum JSONText {
  /// `text` as a JSON string literal.
  static func string(_ text: some StringProtocol) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count + 8)
    appendString(text, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends `text` as a JSON string literal to `bytes`, byte by byte: the inspector wraps every
  /// line it forwards to a page this way. U+2028 and U+2029 are escaped too, as a page's script
  /// may be given the text.
  static func appendString(_ text: some StringProtocol, to bytes: inout [UInt8]) {
    let hex: [UInt8] = Array("0123456789abcdef".utf8)
    bytes.append(UInt8(ascii: "\""))
    var utf8 = text.utf8.makeIterator()
    var pending: [UInt8] = []
    while let byte = utf8.next() {
      switch byte {
      case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
      case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
      case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
      case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
      case UInt8(ascii: "\t"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
      case 0..<0x20:
        bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      case 0xE2:
        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
        pending = [byte]
        if let second = utf8.next() {
          pending.append(second)
          if second == 0x80, let third = utf8.next() {
            if third == 0xA8 || third == 0xA9 {
              bytes += Array((third == 0xA8 ? "\\u2028" : "\\u2029").utf8)
              continue
            }
            pending.append(third)
          }
        }
        bytes += pending
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// A JSON object or array as compact text (sorted keys, so equal values read alike).
  static func encode(_ value: Any) -> String {
    guard JSONSerialization.isValidJSONObject(value),
      let data = try? JSONSerialization.data(
        withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    else { return "null" }
    return String(decoding: data, as: UTF8.self)
  }

  /// `value` as an integer, when it is a JSON number holding one.
  static func integer(_ value: Any?) -> Int? {
    // JSON's true and false come as numbers whose type is a C char; `is Bool` holds for 0 and 1 too.
    guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
    let integer = number.intValue
    return NSNumber(value: integer) == number ? integer : nil
  }
}
