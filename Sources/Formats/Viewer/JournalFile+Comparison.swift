import ChronicleJSON
import ChronicleTracer

extension JournalFile {
  /// The state after the entry at `position` as compact JSON text (one line), or `nil` when the
  /// file does not hold it.
  public func stateJSON(after position: Int) -> String? {
    state(after: position).map { JSONText.compact($0) }
  }

  /// What differs from the base state (the state before the first entry) of this document to that
  /// of `other`, one line per value as ``stateChanges(from:to:)`` prints them; `nil` when either
  /// file does not hold it.
  public func baseStateChanges(comparedWith other: JournalFile) -> [String]? {
    guard baseState != .null, other.baseState != .null else { return nil }
    return Self.changes(from: baseState, to: other.baseState)
  }

  /// What differs from the action of the entry at `position` here to that of the entry at
  /// `otherPosition` in `other`, one line per value (`add._0: "apple" → "pear"`).
  public func actionChanges(
    at position: Int, comparedWith other: JournalFile, at otherPosition: Int
  ) -> [String] {
    Self.changes(
      from: entryObjects[position]["action"] ?? .null,
      to: other.entryObjects[otherPosition]["action"] ?? .null)
  }

  /// What differs from the state after the entry at `position` here to the state after the entry
  /// at `otherPosition` in `other`, one line per value; `nil` when either file does not hold it.
  ///
  /// Redacted values read `"<redacted>"` in both files. One that only one of the two entries
  /// changed (`redactedChanges`) is listed as `password: "<redacted>" → "<redacted>"`, as
  /// ``stateChanges(from:to:)`` lists it, when both files list such changes (Journal JSON and
  /// NDJSON entries written with their state); one that both changed cannot be told apart.
  public func stateChanges(
    after position: Int, comparedWith other: JournalFile, after otherPosition: Int
  ) -> [String]? {
    guard let mine = state(after: position), let theirs = other.state(after: otherPosition) else {
      return nil
    }
    let patches = StatePatch.between(mine, theirs)
    // A file that does not list them says nothing of the redacted values an entry changed.
    guard listsRedactedChanges(at: position), other.listsRedactedChanges(at: otherPosition) else {
      return StatePatch.descriptions(of: patches, from: mine)
    }
    let mineChanged = entries[position].redactedChanges
    let theirsChanged = other.entries[otherPosition].redactedChanges
    let changed = (mineChanged + theirsChanged).filter {
      mineChanged.contains($0) != theirsChanged.contains($0)
    }
    return StatePatch.descriptions(
      of: StatePatch.adding(redactedChanges: changed, in: theirs, to: patches), from: mine)
  }

  /// Whether the entry at `position` lists the redacted values it changed: entries written with
  /// their `state` in Chronicle's formats do (docs/formats/journal-json.md).
  private func listsRedactedChanges(at position: Int) -> Bool {
    listsRedactedChanges && entryObjects[position]["state"] != nil
  }

  private static func changes(from old: JSONValue, to new: JSONValue) -> [String] {
    StatePatch.descriptions(of: StatePatch.between(old, new), from: old)
  }
}
