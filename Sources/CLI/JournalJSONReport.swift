import ChronicleFormats
import ChronicleStore

/// What `summary`, `show` and `filter` print with `--json`: one JSON object on one line, its
/// shape documented in the ChronicleFormats article "The chronicle tool". Members are always
/// present (`null` when the file does not say), in the order written here.
enum JournalJSONReport {
  static func summary(_ summary: JournalSummary) -> String {
    /// Most frequent first, then by name (entries without a context last among equals).
    func counts(_ values: [String?: Int]) -> JSONOutput {
      let sorted = values.sorted {
        $0.value != $1.value ? $0.value > $1.value : ($0.key ?? "\u{10FFFF}") < ($1.key ?? "\u{10FFFF}")
      }
      return .array(
        sorted.map { .object([("name", .optional($0.key)), ("count", .integer(Int64($0.value)))]) })
    }
    let first = summary.first
    let last = summary.last
    return line(
      .object([
        ("entries", .integer(Int64(summary.entryCount))),
        ("effectEvents", .integer(Int64(summary.effectCount))),
        ("stateType", .string(summary.stateType)),
        ("actionType", .string(summary.actionType)),
        ("origin", .optional(summary.origin)),
        ("firstIndex", first.map { .integer(Int64($0.index)) } ?? .null),
        ("lastIndex", last.map { .integer(Int64($0.index)) } ?? .null),
        ("firstSeq", first.map { .integer(Int64($0.sequence)) } ?? .null),
        ("lastSeq", last.map { .integer(Int64($0.sequence)) } ?? .null),
        ("spanNanoseconds", first.flatMap { first in last.map { .integer($0.time - first.time) } } ?? .null),
        ("contexts", counts(summary.contexts)),
        ("causes", counts(summary.causes.reduce(into: [:]) { $0[$1.key] = $1.value })),
        ("actions", counts(summary.types.reduce(into: [:]) { $0[$1.key] = $1.value })),
        ("slowest", .array(summary.slowest.map(entry))),
      ]))
  }

  static func show(_ document: JournalFile, position: Int) -> String {
    let changes = document.stateChanges(from: position, to: position)
    return line(
      .object([
        ("entry", entry(document.entries[position])),
        ("action", .raw(document.entries[position].actionJSON)),
        ("changes", changes.map { .array($0.map { .string($0) }) } ?? .null),
        ("stateAfter", document.stateJSON(after: position).map { .raw($0) } ?? .null),
      ]))
  }

  static func filter(total: Int, matches: [JournalFileEntry]) -> String {
    line(
      .object([
        ("entries", .array(matches.map(entry))), ("matched", .integer(Int64(matches.count))),
        ("total", .integer(Int64(total))),
      ]))
  }

  /// An entry without its action and states: what a row of the text output shows.
  static func entry(_ entry: JournalFileEntry) -> JSONOutput {
    .object(
      [
        ("index", .integer(Int64(entry.index))), ("seq", .integer(Int64(entry.sequence))),
        ("type", .string(entry.type)), ("context", .optional(entry.context)),
        (
          "cause",
          .object([
            ("kind", .string(entry.causeKind)), ("label", .optional(entry.causeLabel)),
            ("parent", entry.causeParent.map { .integer(Int64($0)) } ?? .null),
          ])
        ),
        ("durationNanoseconds", .integer(entry.duration)), ("outcome", .string(entry.outcome)),
      ] + sites(entry))
  }

  /// The entry's `site` and `effectSite`, when it has them.
  static func sites(_ entry: JournalFileEntry) -> [(String, JSONOutput)] {
    func object(_ site: RecordedCallSite) -> JSONOutput {
      .object([
        ("fileID", .string(site.fileID)), ("line", .integer(Int64(site.line))),
        ("function", .string(site.function)),
      ])
    }
    var members: [(String, JSONOutput)] = []
    if let site = entry.site { members.append(("site", object(site))) }
    if let site = entry.effectSite { members.append(("effectSite", object(site))) }
    return members
  }

  private static func line(_ value: JSONOutput) -> String { value.text + "\n" }
}
