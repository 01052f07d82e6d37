/// Text with ANSI styles, or plain when not `colored`.
struct StyledText {
  enum Style: String {
    case bold = "1"
    case dim = "2"
    case red = "31"
    case green = "32"
    case cyan = "36"
  }

  let colored: Bool
  var text = ""

  init(colored: Bool) { self.colored = colored }

  mutating func append(_ part: String, _ style: Style? = nil) {
    if colored, let style {
      text += "\u{1B}[\(style.rawValue)m" + part + "\u{1B}[0m"
    } else {
      text += part
    }
  }
}
