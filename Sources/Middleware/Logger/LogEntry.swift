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
    var text = message(colored: colored)
    let details = details(colored: colored)
    if collapsed {
      if !details.isEmpty { text += " — " + details.joined(separator: "; ") }
    } else {
      for line in details { text += "\n  " + line }
    }
    return text
  }

  /// `#3 addTodo("Milk") @ 09:30:00.000 (in 12.5 µs) [TodoList] by thunk "load" ← #2`, or for
  /// an effect `thunk "load" failed: offline @ 09:30:00.000 ← #2`.
  func message(colored: Bool) -> String {
    var line = StyledText(colored: colored)
    if let effect {
      line.append(Self.subject(of: effect.cause), effect.phase.isFailure ? .red : nil)
      line.append(" ")
      line.append(Self.describe(effect.phase), effect.phase.isFailure ? .red : nil)
    } else {
      if let sequence { line.append("#\(sequence) ", .dim) }
      line.append(action ?? "", .bold)
    }
    if let timestamp { line.append(" @ " + Self.clockTime(timestamp, in: timeZone), .dim) }
    if let duration { line.append(" (in " + Self.format(duration) + ")", .dim) }
    if let context { line.append(" [\(context)]", .cyan) }
    if effect != nil {
      if let parent = cause.parent { line.append(" ← #\(parent)", .dim) }
    } else if cause.kind != .user {
      line.append(" by \(cause)", .dim)
    }
    return line.text
  }

  /// The lines after the title: the changes, or the states before and after.
  func details(colored: Bool) -> [String] {
    if let changes { return changes.map { Self.describe($0, colored: colored) } }
    guard let stateBefore, let stateAfter else { return [] }
    var before = StyledText(colored: colored)
    before.append("prev state: ", .dim)
    before.append(stateBefore)
    var after = StyledText(colored: colored)
    after.append("next state: ", .dim)
    after.append(stateAfter)
    return [before.text, after.text]
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

  /// `path: old → new`, `path: added new`, `path: removed old`, with the old side red and the
  /// new side green when coloured.
  static func describe(_ change: StateDiff.Change, colored: Bool) -> String {
    guard colored else { return change.description }
    var line = StyledText(colored: true)
    line.append("\(change.path): ")
    switch change.kind {
    case .changed:
      line.append(change.old ?? "nil", .red)
      line.append(" → ")
      line.append(change.new ?? "nil", .green)
    case .added:
      line.append("added " + (change.new ?? "nil"), .green)
    case .removed:
      line.append("removed " + (change.old ?? "nil"), .red)
    }
    return line.text
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
    return "\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(milliseconds % 1000, 3))"
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
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
  }
}

extension EffectEvent.Phase {
  fileprivate var isFailure: Bool {
    if case .failed = self { return true }
    return false
  }
}
