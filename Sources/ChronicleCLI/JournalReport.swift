import ChronicleFormats
import Foundation

/// The text the `chronicle` commands print.
enum JournalReport {
  static func summary(_ document: JournalFile) -> String {
    var lines = ["\(document.count) entries, \(document.effectCount) effect events"]
    lines.append("state: \(document.stateType)")
    lines.append("action: \(document.actionType)")
    if let origin = document.originISO8601 { lines.append("origin: \(origin)") }
    if let first = document.entries.first, let last = document.entries.last {
      lines.append(
        "entries \(first.index)…\(last.index), seq #\(first.sequence)…#\(last.sequence), over "
          + duration(last.time - first.time))
    }
    var contexts: [String: Int] = [:]
    var causes: [String: Int] = [:]
    var types: [String: Int] = [:]
    for entry in document.entries {
      contexts[entry.context ?? "(none)", default: 0] += 1
      causes[entry.causeKind, default: 0] += 1
      types[entry.type, default: 0] += 1
    }
    func counts(_ title: String, _ values: [String: Int]) {
      let sorted = values.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
      lines.append("\(title): " + sorted.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }
    counts("contexts", contexts)
    counts("causes", causes)
    counts("actions", types)
    let slowest = document.entries.sorted {
      $0.duration != $1.duration ? $0.duration > $1.duration : $0.index < $1.index
    }
    lines.append("slowest:")
    for entry in slowest.prefix(5) { lines.append("  " + row(entry)) }
    return lines.joined(separator: "\n") + "\n"
  }

  static func show(_ document: JournalFile, position: Int) -> String {
    let entry = document.entries[position]
    var lines = [
      "entry \(entry.index) (#\(entry.sequence)) \(entry.type)", "context: \(entry.context ?? "(none)")",
      "cause: \(entry.causeDescription)", "duration: \(duration(entry.duration))",
      "outcome: \(entry.outcome)",
      "action: \(document.actionText(at: position))",
    ]
    if let changes = document.stateChanges(from: position, to: position) {
      lines.append("changes:" + (changes.isEmpty ? " none" : ""))
      lines += changes.map { "  " + $0 }
    }
    lines.append("state after: " + (document.stateText(after: position) ?? "(not in this file)"))
    return lines.joined(separator: "\n") + "\n"
  }

  static func diff(_ document: JournalFile, from: Int, to: Int) -> String {
    let (low, high) = (min(from, to), max(from, to))
    guard let changes = document.stateChanges(from: low, to: high) else {
      return "the file does not hold the states of entries \(document.entries[low].index)…"
        + "\(document.entries[high].index) (export with ExportOptions(states: .everyEntry))\n"
    }
    let header =
      "from before entry \(document.entries[low].index) to after entry \(document.entries[high].index):"
    return ([header] + (changes.isEmpty ? ["  no change"] : changes.map { "  " + $0 })).joined(
      separator: "\n") + "\n"
  }

  /// The entries of `context` (all when `nil`) whose action or state after contains `text`
  /// (ignoring case; all when `nil`). The action is matched with its case name, as JSON; the
  /// cause and the context are not matched, so `--text user` finds what the user typed, not every
  /// action the user sent.
  static func matches(_ document: JournalFile, context: String?, text: String?) -> [JournalFileEntry] {
    let needle = text?.lowercased()
    return document.entries.enumerated().filter { position, entry in
      if let context, entry.context != context { return false }
      guard let needle else { return true }
      if "\(entry.type) \(entry.actionJSON)".lowercased().contains(needle) { return true }
      return document.stateJSON(after: position)?.lowercased().contains(needle) ?? false
    }.map(\.element)
  }

  static func filter(_ document: JournalFile, matches: [JournalFileEntry]) -> String {
    matches.map { row($0) + "\n" }.joined() + "\(matches.count) of \(document.count) entries\n"
  }

  /// The contexts of the journal's entries, sorted.
  static func contexts(of document: JournalFile) -> [String] {
    Set(document.entries.compactMap(\.context)).sorted()
  }

  /// One entry on one line: `3 #4 loaded [Todos] thunk "load" ← #2 (1.2 ms)`, followed by
  /// `stopped` when a middleware kept the action from the reducer.
  static func row(_ entry: JournalFileEntry) -> String {
    "\(entry.index) #\(entry.sequence) \(entry.type)" + (entry.context.map { " [\($0)]" } ?? "")
      + " \(entry.causeDescription) (\(duration(entry.duration)))"
      + (entry.outcome == "reduced" ? "" : " \(entry.outcome)")
  }

  /// Nanoseconds for people: `850 ns`, `12.5 µs`, `3.2 ms`, `1.50 s`.
  static func duration(_ nanoseconds: Int64) -> String {
    let value = Double(nanoseconds)
    if nanoseconds >= 1_000_000_000 { return String(format: "%.2f s", value / 1e9) }
    if nanoseconds >= 1_000_000 { return String(format: "%.1f ms", value / 1e6) }
    if nanoseconds >= 1_000 { return String(format: "%.1f µs", value / 1e3) }
    return "\(nanoseconds) ns"
  }
}
