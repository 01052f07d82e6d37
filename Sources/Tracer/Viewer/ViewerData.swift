/// The data the viewer page embeds, as one JSON object its script reads.
///
/// `entries` are rows `[index, seq, time, context, causeKind, causeParent, causeLabel, type,
/// duration, action, outcome]` (context as a position in `contexts`, -1 for none; times in
/// nanoseconds; the action as JSON text). States: `base` is the state before the first entry,
/// `full` holds `[position, state]` pairs of states after entries, and `patches[k]` the changes
/// from the state before entry `k` to the state after it (`null` when the file lacks either).
enum ViewerData {
  static func make(_ document: JournalDocument, title: String, interval: Int) -> JSONValue {
    var contexts: [String] = []
    var contextPositions: [String: Int] = [:]
    var rows: [JSONValue] = []
    rows.reserveCapacity(document.count)
    for entry in document.entries {
      var context = -1
      if let name = entry.context {
        if let known = contextPositions[name] {
          context = known
        } else {
          context = contexts.count
          contextPositions[name] = context
          contexts.append(name)
        }
      }
      rows.append(
        .array([
          .integer(entry.index), .integer(entry.sequence), .integer(entry.time), .integer(context),
          .string(entry.causeKind), entry.causeParent.map { .integer($0) } ?? .null,
          entry.causeLabel.map { .string($0) } ?? .null, .string(entry.type), .integer(entry.duration),
          .string(entry.actionJSON), .string(entry.outcome),
        ]))
    }
    let base = document.count > 0 ? document.state(before: 0) : nil
    var full: [JSONValue] = []
    var patches: [JSONValue] = []
    patches.reserveCapacity(document.count)
    var previous = base
    for position in 0..<document.count {
      let before = position == 0 ? previous : (document.state(before: position) ?? previous)
      let after = document.state(after: position)
      if let before, let after {
        patches.append(
          .array(
            document.statePatches(from: position, to: position, before: before, after: after).map(\.json)))
      } else {
        patches.append(.null)
      }
      if let after, position % interval == 0 || before == nil {
        full.append(.array([.integer(position), after]))
      }
      previous = after
    }
    return .object([
      JSONMember("title", .string(title)),
      JSONMember("stateType", .string(document.stateType)),
      JSONMember("actionType", .string(document.actionType)),
      JSONMember("origin", document.originISO8601.map { .string($0) } ?? .null),
      JSONMember("contexts", .array(contexts.map { .string($0) })),
      JSONMember("entries", .array(rows)),
      JSONMember("base", base ?? .null),
      JSONMember("full", .array(full)),
      JSONMember("patches", .array(patches)),
    ])
  }
}
