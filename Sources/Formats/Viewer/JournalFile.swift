import ChronicleJSON
import ChronicleTracer
import Foundation

/// An exported journal read without the app's types: what the HTML viewer and the `chronicle`
/// command-line tool work on.
///
/// It reads Journal JSON (`chronicle.journal`), NDJSON streams (`chronicle.journal.ndjson`) and
/// Redux DevTools import files (custom and lifted-state forms), keeps states and actions as JSON, and knows the state after an entry when the file holds it:
/// files exported with `ExportOptions(states: .everyEntry)` hold every state; others hold the
/// checkpoints only, from which the app's reducer would replay.
public struct JournalFile: Sendable {
  /// The `meta` object, as JSON.
  var meta: JSONValue
  /// The state before the first entry, as JSON (`null` when unknown).
  var baseState: JSONValue
  /// The entry objects, as the file holds them.
  var entryObjects: [JSONValue]
  /// The effect event objects.
  var effectObjects: [JSONValue]
  /// The entries, decoded.
  public internal(set) var entries: [JournalFileEntry]
  /// The line of an NDJSON stream that was left out because the writer was killed while writing
  /// it, if any.
  public internal(set) var tornLine: TornLine?
  /// Whether the file's format lists the redacted values each entry changed (`redactedChanges`,
  /// on entries written with their `state`): Chronicle's formats do, Redux DevTools files do not.
  var listsRedactedChanges = true

  /// A document of entries checked by the loader: `fields` are the envelopes read from
  /// `entries`, one for one.
  init(
    meta: JSONValue, baseState: JSONValue, entries: [JSONValue], fields: [EntryFields], effects: [JSONValue]
  )
    throws(JournalImportError)
  {
    self.meta = meta
    self.baseState = baseState
    self.entryObjects = entries
    self.effectObjects = effects
    var decoded: [JournalFileEntry] = []
    decoded.reserveCapacity(entries.count)
    for (position, object) in entries.enumerated() {
      decoded.append(try JournalFileEntry(object, fields: fields[position], position: position))
    }
    self.entries = decoded
  }

  /// A document of `entries`, whose envelopes are read (and checked one by one) here.
  init(
    meta: JSONValue, baseState: JSONValue, entries: [JSONValue], effects: [JSONValue]
  )
    throws(JournalImportError)
  {
    var fields: [EntryFields] = []
    for (position, entry) in entries.enumerated() {
      fields.append(
        try EntryFields(FieldReader(entry, path: FieldPath([.key("entries"), .index(position)]))))
    }
    try self.init(meta: meta, baseState: baseState, entries: entries, fields: fields, effects: effects)
  }

  /// A document without entries.
  init(emptyWithMeta meta: JSONValue) {
    self.meta = meta
    baseState = .null
    entryObjects = []
    effectObjects = []
    entries = []
  }

  /// The number of entries.
  public var count: Int { entries.count }

  /// The number of effect lifecycle events.
  public var effectCount: Int { effectObjects.count }

  /// The state type's name recorded in the file.
  public var stateType: String { meta["state"]?["type"]?.stringValue ?? "?" }

  /// The action type's name recorded in the file.
  public var actionType: String { meta["action"]?["type"]?.stringValue ?? "?" }

  /// The origin's wall-clock time as ISO 8601 text, when the file records it.
  public var originISO8601: String? { meta["origin"]?["iso8601"]?.stringValue }

  /// The journal index of the entry with sequence number `sequence` (such as a cause's parent),
  /// if the file holds it: the same number ``/ChronicleTracer/JournalSnapshot/index(ofSequence:)``
  /// answers for the journal the file was exported from, and that entry's ``JournalFileEntry/index``.
  ///
  /// After commits the journal's indices do not start at 0: use ``position(ofSequence:)`` for the
  /// entry's place in ``entries``.
  public func index(ofSequence sequence: UInt64) -> Int? {
    position(ofSequence: sequence).map { entries[$0].index }
  }

  /// The position in ``entries`` (0 for the file's first entry) of the entry with sequence number
  /// `sequence`, if the file holds it. Methods that take a `position`, such as
  /// ``actionText(at:)``, take this number.
  public func position(ofSequence sequence: UInt64) -> Int? {
    var low = 0
    var high = entries.count
    while low < high {
      let middle = (low + high) / 2
      if entries[middle].sequence < sequence { low = middle + 1 } else { high = middle }
    }
    return low < entries.count && entries[low].sequence == sequence ? low : nil
  }

  /// The state after the entry at `position` (0-based, in the document's order) as JSON, or
  /// `nil` when the file does not hold it.
  func state(after position: Int) -> JSONValue? {
    guard entries.indices.contains(position) else { return nil }
    if let state = entryObjects[position]["state"] { return state }
    if position + 1 < entryObjects.count, let next = entryObjects[position + 1]["checkpoint"]?["state"] {
      return next
    }
    return nil
  }

  /// The state before the entry at `position` as JSON, or `nil` when the file does not hold it.
  func state(before position: Int) -> JSONValue? {
    guard entries.indices.contains(position) else { return nil }
    if let checkpoint = entryObjects[position]["checkpoint"]?["state"] { return checkpoint }
    if position == 0 { return baseState == .null ? nil : baseState }
    return state(after: position - 1)
  }

  /// The state after the entry at `position`, as indented JSON text, or `nil` when the file does
  /// not hold it.
  public func stateText(after position: Int) -> String? {
    state(after: position).map { JSONText.pretty($0) }
  }

  /// What changed in the state from before entry `from` to after entry `to` (both positions),
  /// one line per changed value: `todos[2].done: false → true`. `nil` when the file does not
  /// hold those states.
  ///
  /// A redacted value that changed is listed too, `password: "<redacted>" → "<redacted>"`, when
  /// the file says so (`redactedChanges`): its JSON is the same on both sides.
  public func stateChanges(from: Int, to: Int) -> [String]? {
    guard let before = state(before: from), let after = state(after: to) else { return nil }
    return StatePatch.descriptions(
      of: statePatches(from: from, to: to, before: before, after: after), from: before)
  }

  /// The patches from `before`, the state before entry `from`, to `after`, the state after
  /// entry `to`: the JSON's differences, then one for each redacted value the entries changed
  /// that is still in `after` and not already patched, which sets it to itself (`"<redacted>"`).
  func statePatches(from: Int, to: Int, before: JSONValue, after: JSONValue) -> [StatePatch] {
    let patches = StatePatch.between(before, after)
    guard from <= to else { return patches }
    return StatePatch.adding(
      redactedChanges: (from...to).flatMap { entries[$0].redactedChanges }, in: after, to: patches)
  }

  /// The action of the entry at `position`, as indented JSON text.
  public func actionText(at position: Int) -> String {
    JSONText.pretty(entryObjects[position]["action"] ?? .null)
  }
}
