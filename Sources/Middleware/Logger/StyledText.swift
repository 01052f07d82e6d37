/// Text with ANSI styles, or plain when not `colored`.
///
/// It is kept as UTF-8 bytes while it is written: the logger writes one text per action from a
/// dozen parts, and appending them to a `String` one by one costs several times more.
struct StyledText {
  enum Style: String {
    case bold = "1"
    case dim = "2"
    case red = "31"
    case green = "32"
    case cyan = "36"
  }

  let colored: Bool
  private var bytes: [UInt8] = []

  /// Empty text, with room for `capacity` bytes when the final length is roughly known.
  init(colored: Bool, capacity: Int = 0) {
    self.colored = colored
    bytes.reserveCapacity(capacity)
  }

  /// The text written so far.
  var text: String { String(decoding: bytes, as: UTF8.self) }

  mutating func append(_ part: String, _ style: Style? = nil) {
    append(part, "", style)
  }

  /// Appends `first` and `second` in one style, without joining them first.
  mutating func append(_ first: String, _ second: String, _ style: Style?) {
    guard colored, let style else {
      bytes.append(contentsOf: first.utf8)
      bytes.append(contentsOf: second.utf8)
      return
    }
    bytes.append(contentsOf: "\u{1B}[".utf8)
    bytes.append(contentsOf: style.rawValue.utf8)
    bytes.append(UInt8(ascii: "m"))
    bytes.append(contentsOf: first.utf8)
    bytes.append(contentsOf: second.utf8)
    bytes.append(contentsOf: "\u{1B}[0m".utf8)
  }
}
