import ChronicleInspection
import ChronicleStore
import Foundation

/// The parts of one log entry, before they are laid out as text or as a ``LogRecord``.
struct LogEntry {
  var level: LogLevel
  var sequence: UInt64?
  var action: String?
  var effect: EffectEvent?
  var timestamp: Date?
  var timeZone: TimeZone
  var duration: Duration?
  var context: String?
  var cause: Cause
  var changes: [StateDiff.Change]?
  var stateBefore: String?
  var stateAfter: String?
  /// Where the action was sent and where the effect that sent it was created, when the logger
  /// writes sites.
  var site: CallSite? = nil
  var effectSite: CallSite? = nil

  /// The entry as a structured record, without colours.
  var record: LogRecord {
    LogRecord(
      level: level, sequence: sequence, timestamp: timestamp, context: context, cause: cause,
      action: action, effect: effect, duration: duration, changes: changes?.map(\.description),
      stateBefore: stateBefore, stateAfter: stateAfter, message: message(colored: false),
      details: details(colored: false))
  }

  /// The entry as text: the title and one indented line per detail, or with `collapsed`
  /// everything on one line.
  func text(collapsed: Bool, colored: Bool) -> String {
    // One string, written in place: the logger builds one per action, and assembling it from
    // the title and the detail lines would copy every part again.
    var text = StyledText(colored: colored, capacity: 128)
    appendMessage(to: &text)
    for index in 0..<detailCount {
      text.append(collapsed ? (index == 0 ? " — " : "; ") : "\n  ")
      appendDetail(index, to: &text)
    }
    return text.text
  }

  /// `#3 addTodo("Milk") @ 09:30:00.000 (in 12.5 µs) [TodoList] by thunk "load" ← #2`, or for
  /// an effect `thunk "load" failed: offline @ 09:30:00.000 ← #2`.
  func message(colored: Bool) -> String {
    var line = StyledText(colored: colored)
    appendMessage(to: &line)
    return line.text
  }

  /// The lines after the title: the changes, or the states before and after.
  func details(colored: Bool) -> [String] {
    (0..<detailCount).map { index in
      var line = StyledText(colored: colored)
      appendDetail(index, to: &line)
      return line.text
    }
  }

  /// Writes ``message(colored:)``.
  private func appendMessage(to line: inout StyledText) {
    if let effect {
      line.append(Self.subject(of: effect.cause), effect.phase.isFailure ? .red : nil)
      line.append(" ")
      line.append(Self.describe(effect.phase), effect.phase.isFailure ? .red : nil)
    } else {
      if let sequence { line.append("#\(sequence) ", .dim) }
      line.append(action ?? "", .bold)
    }
    if let timestamp { line.append(" @ ", Self.clockTime(timestamp, in: timeZone), .dim) }
    if let duration { line.append(" (in ", Self.format(duration) + ")", .dim) }
    if let context { line.append(" [\(context)]", .cyan) }
    if effect != nil {
      if let parent = cause.parent { line.append(" ← #\(parent)", .dim) }
    } else if cause.kind != .user {
      line.append(" by \(cause)", .dim)
    }
    if let site { line.append(" from \(site)", .dim) }
    if let effectSite { line.append(" (effect at \(effectSite))", .dim) }
  }

  /// How many lines ``details(colored:)`` has.
  private var detailCount: Int {
    if let changes { return changes.count }
    return stateBefore != nil && stateAfter != nil ? 2 : 0
  }

  /// Writes the line at `index` of ``details(colored:)``.
  private func appendDetail(_ index: Int, to line: inout StyledText) {
    if let changes {
      Self.append(changes[index], to: &line)
    } else if let stateBefore, let stateAfter {
      line.append(index == 0 ? "prev state: " : "next state: ", .dim)
      line.append(index == 0 ? stateBefore : stateAfter)
    }
  }

  // MARK: - Parts

  /// `thunk "load"`, `timer "tick"`, `effect`.
  static func subject(of cause: Cause) -> String {
    guard let label = cause.label else { return cause.kind.rawValue }
    return "\(cause.kind.rawValue) \"\(label)\""
  }

  static func describe(_ phase: EffectEvent.Phase) -> String {
    switch phase {
    case .started: "started"
    case .finished: "finished"
    case .cancelled: "cancelled"
    case .failed(let message): "failed: \(message)"
    }
  }

  /// Writes `path: old → new`, `path: added new` or `path: removed old`, the change's
  /// description, with the old side red and the new side green when coloured.
  static func append(_ change: StateDiff.Change, to line: inout StyledText) {
    line.append(change.path.description)
    line.append(": ")
    switch change.kind {
    case .changed:
      line.append(change.old ?? "nil", .red)
      line.append(" → ")
      line.append(change.new ?? "nil", .green)
    case .added:
      line.append("added ", change.new ?? "nil", .green)
    case .removed:
      line.append("removed ", change.old ?? "nil", .red)
    }
  }

  /// `HH:mm:ss.SSS` in `timeZone`, computed directly: no formatter to allocate or lock.
  static func clockTime(_ date: Date, in timeZone: TimeZone) -> String {
    let local = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
    let dayMilliseconds: Int64 = 86_400_000
    // Truncated like a date formatter, after a nudge of half a microsecond that absorbs the
    // binary representation error (86_399.999 is stored as 86_399.998999…).
    var milliseconds = Int64((local * 1000 + 0.000_5).rounded(.down)) % dayMilliseconds
    if milliseconds < 0 { milliseconds += dayMilliseconds }
    let hours = milliseconds / 3_600_000
    let minutes = milliseconds / 60_000 % 60
    let seconds = milliseconds / 1000 % 60
    // Every field has a fixed number of digits: written in place, 12 bytes, no padding to join.
    return String(unsafeUninitializedCapacity: 12) { bytes in
      var end = 0
      func write(_ value: Int64, digits: Int, then separator: Unicode.Scalar?) {
        var rest = value
        for position in (end..<(end + digits)).reversed() {
          bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
          rest /= 10
        }
        end += digits
        if let separator {
          bytes[end] = UInt8(ascii: separator)
          end += 1
        }
      }
      write(hours, digits: 2, then: ":")
      write(minutes, digits: 2, then: ":")
      write(seconds, digits: 2, then: ".")
      write(milliseconds % 1000, digits: 3, then: nil)
      return end
    }
  }

  /// `850 ns`, `12.5 µs`, `3.25 ms`, `1.50 s`.
  static func format(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    if nanoseconds < 1000 { return "\(nanoseconds) ns" }
    if nanoseconds < 1_000_000 { return decimal(nanoseconds, unit: 1000, digits: 1) + " µs" }
    if nanoseconds < 1_000_000_000 { return decimal(nanoseconds, unit: 1_000_000, digits: 2) + " ms" }
    return decimal(nanoseconds, unit: 1_000_000_000, digits: 2) + " s"
  }

  /// `value / unit` rounded half up to `digits` decimals.
  private static func decimal(_ value: Int64, unit: Int64, digits: Int) -> String {
    var scale: Int64 = 1
    for _ in 0..<digits { scale *= 10 }
    let step = unit / scale
    let scaled = (value + step / 2) / step
    return "\(scaled / scale).\(pad(scaled % scale, digits))"
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    // Digits and a sign only: counting bytes counts characters, without the grapheme breaking
    // that `count` does.
    let text = String(value)
    let length = text.utf8.count
    return length >= width ? text : String(repeating: "0", count: width - length) + text
  }
}

extension EffectEvent.Phase {
  fileprivate var isFailure: Bool {
    if case .failed = self { return true }
    return false
  }
}
