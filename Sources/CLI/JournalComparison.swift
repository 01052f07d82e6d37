import ChronicleFormats

/// `chronicle compare A B`: the first entry, position by position, where two journals differ in
/// their action or in the state after it, with the differences from A to B as `diff` prints them.
struct JournalComparison {
  /// What `compare` prints.
  private(set) var report: String
  /// Whether the journals hold the same actions and states.
  private(set) var isSame: Bool

  init(
    _ first: JournalFile, named firstName: String, with second: JournalFile, named secondName: String
  ) {
    isSame = false
    if let changes = first.baseStateChanges(comparedWith: second), !changes.isEmpty {
      report = Self.lines(
        "\(firstName) and \(secondName) differ before their first entry:",
        ["state before:"] + Self.indented(changes))
      return
    }
    var statesCompared = true
    for position in 0..<min(first.count, second.count) {
      var details: [String] = []
      let actionChanges = first.actionChanges(at: position, comparedWith: second, at: position)
      let typeDiffers = first.entries[position].type != second.entries[position].type
      if !actionChanges.isEmpty || typeDiffers {
        details.append("action:")
        details += Self.indented(
          actionChanges.isEmpty
            ? ["type: \(first.entries[position].type) → \(second.entries[position].type)"] : actionChanges)
      }
      if let stateChanges = first.stateChanges(after: position, comparedWith: second, after: position) {
        if !stateChanges.isEmpty { details += ["state after:"] + Self.indented(stateChanges) }
      } else {
        statesCompared = false
      }
      if !details.isEmpty {
        report = Self.lines(
          "\(firstName) and \(secondName) differ at entry \(first.entries[position].index):",
          [
            "\(firstName): " + JournalReport.row(first.entries[position]),
            "\(secondName): " + JournalReport.row(second.entries[position]),
          ] + details)
        return
      }
    }
    if first.count != second.count {
      let (longer, name) = first.count > second.count ? (first, firstName) : (second, secondName)
      let extra = longer.entries[min(first.count, second.count)]
      report = Self.lines(
        "\(firstName) and \(secondName) differ at entry \(extra.index): only \(name) has it "
          + "(\(first.count) and \(second.count) entries)",
        ["\(name): " + JournalReport.row(extra)])
      return
    }
    isSame = true
    report =
      "\(firstName) and \(secondName) are the same: \(first.count) entries, the same actions"
      + (statesCompared ? " and states\n" : " (not every state is in both files)\n")
  }

  private static func indented(_ lines: [String]) -> [String] { lines.map { "  " + $0 } }

  private static func lines(_ header: String, _ details: [String]) -> String {
    ([header] + details.map { "  " + $0 }).joined(separator: "\n") + "\n"
  }
}
