import ChronicleFormats

/// What `summary` reports of a journal, gathered entry by entry as the file is scanned: counts,
/// the first and last entries and the five slowest, so that memory does not grow with the file.
struct JournalSummary {
  var entryCount = 0
  var effectCount = 0
  var stateType = "?"
  var actionType = "?"
  var origin: String?
  var first: JournalFileEntry?
  var last: JournalFileEntry?
  /// Entries per context (`nil`: none), cause kind and action type.
  var contexts: [String?: Int] = [:]
  var causes: [String: Int] = [:]
  var types: [String: Int] = [:]
  /// The slowest entries, slowest first (equal durations: lower index first), at most five.
  private(set) var slowest: [JournalFileEntry] = []

  /// Counts `entry`, the next one in the file.
  mutating func add(_ entry: JournalFileEntry) {
    if first == nil { first = entry }
    last = entry
    contexts[entry.context, default: 0] += 1
    causes[entry.causeKind, default: 0] += 1
    types[entry.type, default: 0] += 1
    if slowest.count < 5 || entry.duration > slowest[slowest.count - 1].duration {
      let place = slowest.firstIndex { entry.duration > $0.duration } ?? slowest.count
      slowest.insert(entry, at: place)
      if slowest.count > 5 { slowest.removeLast() }
    }
  }

  /// Takes what the scan read besides the entries.
  mutating func finish(_ scan: JournalFile.Scan) {
    entryCount = scan.entryCount
    effectCount = scan.effectCount
    stateType = scan.header.stateType
    actionType = scan.header.actionType
    origin = scan.header.originISO8601
  }
}
