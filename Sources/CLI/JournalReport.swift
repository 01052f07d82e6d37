import ChronicleFormats
import ChronicleStore
import Foundation

/// The text the `chronicle` commands print.
enum JournalReport {
  static func summary(_ summary: JournalSummary) -> String {
    var lines = ["\(summary.entryCount) entries, \(summary.effectCount) effect events"]
    lines.append("state: \(summary.stateType)")
    lines.append("action: \(summary.actionType)")
    if let origin = summary.origin { lines.append("origin: \(origin)") }
    if let first = summary.first, let last = summary.last {
      lines.append(
        "entries \(first.index)…\(last.index), seq #\(first.sequence)…#\(last.sequence), over "
          + duration(last.time - first.time))
    }
    func counts(_ title: String, _ values: [String: Int]) {
      let sorted = values.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
      lines.append("\(title): " + sorted.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }
    counts("contexts", summary.contexts.reduce(into: [:]) { $0[$1.key ?? "(none)", default: 0] += $1.value })
    counts("causes", summary.causes)
    counts("actions", summary.types)
    lines.append("slowest:")
    for entry in summary.slowest { lines.append("  " + row(entry)) }
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
    if let site = entry.site { lines.insert("sent from: \(Self.location(site))", at: 3) }
    if let site = entry.effectSite { lines.insert("effect created at: \(Self.location(site))", at: 4) }
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

  /// Whether the entry at `position` of `document` is of `context` (any when `nil`) and its
  /// action or state after contains `text` (ignoring case; any when `nil`). The action is matched
  /// with its case name, as JSON; the cause and the context are not matched, so `--text user`
  /// finds what the user typed, not every action the user sent.
  ///
  /// With `site` (`File.swift`, `Module/File.swift`, either with `:LINE`), the entry must also
  /// have been sent from there, or by an effect, thunk or timer created there.
  static func matches(
    _ document: JournalFile, at position: Int, context: String?, text: String?, site: String? = nil
  ) -> Bool {
    let entry = document.entries[position]
    if let context, entry.context != context { return false }
    if let site, !Self.site(entry.site, matches: site), !Self.site(entry.effectSite, matches: site) {
      return false
    }
    guard let needle = text?.lowercased() else { return true }
    if "\(entry.type) \(entry.actionJSON)".lowercased().contains(needle) { return true }
    return document.stateJSON(after: position)?.lowercased().contains(needle) ?? false
  }

  static func filter(total: Int, matches: [JournalFileEntry]) -> String {
    matches.map { row($0) + "\n" }.joined() + "\(matches.count) of \(total) entries\n"
  }

  /// One entry on one line: `3 #4 loaded [Todos] thunk "load" ← #2 (1.2 ms)`, followed by
  /// `stopped` when a middleware kept the action from the reducer.
  static func row(_ entry: JournalFileEntry) -> String {
    "\(entry.index) #\(entry.sequence) \(entry.type)" + (entry.context.map { " [\($0)]" } ?? "")
      + " \(entry.causeDescription) (\(duration(entry.duration)))"
      + (entry.outcome == "reduced" ? "" : " \(entry.outcome)")
  }

  /// `Module/File.swift:42 in body`.
  static func location(_ site: RecordedCallSite) -> String {
    "\(site.fileID):\(site.line) in \(site.function)"
  }

  /// Whether `site` is in the file `pattern` names (its `fileID` or its file name) and, when
  /// `pattern` ends with `:LINE`, on that line.
  static func site(_ site: RecordedCallSite?, matches pattern: String) -> Bool {
    guard let site else { return false }
    var file = Substring(pattern)
    if let colon = pattern.lastIndex(of: ":"), let line = Int(pattern[pattern.index(after: colon)...]) {
      guard site.line == line else { return false }
      file = pattern[..<colon]
    }
    return site.fileID == file || site.fileName == file
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
