import ChronicleStore
import Foundation

/// Builds a journal's content from the parts of an imported file, validating each one; shared by
/// the Journal JSON, NDJSON and Redux DevTools importers.
///
/// Nothing is applied anywhere until ``content`` is complete: an import that throws leaves no
/// trace.
struct JournalBuilder<State: Decodable & Sendable, Action: Decodable & Sendable> {
  private(set) var content: JournalContent<State, Action>
  private let decoder = TypedDecoder()
  private let limits: JournalImportLimits
  private let stateSize: (State) -> Int
  private var fileStateShape: String?
  private var previousSequence: UInt64?
  private var previousTime: Int64?
  private var nextIndex: Int?
  private(set) var entryCount = 0
  private(set) var eventCount = 0

  init(
    originWallNanos: Int64, checkpointInterval: Int, limits: JournalImportLimits,
    stateSize: @escaping (State) -> Int
  ) {
    let now = MonotonicClock.now()
    let wallNow = Int64((Date().timeIntervalSince1970 * 1e9).rounded())
    // Times recorded after the import continue the file's clock, approximately.
    content = JournalContent(
      originWallNanos: originWallNanos, originMonotonic: now &- (wallNow &- originWallNanos),
      checkpointInterval: checkpointInterval, chunkCapacity: 1024)
    self.limits = limits
    self.stateSize = stateSize
  }

  // MARK: Header

  /// Reads `meta` (state and action fingerprints, origin, interval) and refuses other types.
  static func readMeta(
    _ meta: FieldReader
  ) throws(JournalImportError) -> (
    originWallNanos: Int64, checkpointInterval: Int, stateShape: String?
  ) {
    let state = try meta.object("state")
    let action = try meta.object("action")
    try checkType(state, role: .state, expected: TypeFingerprint.qualifiedName(of: State.self))
    try checkType(action, role: .action, expected: TypeFingerprint.qualifiedName(of: Action.self))
    let origin = try meta.object("origin")
    let wall: Int64 = try origin.integer("wallTime")
    let interval: Int = try meta.integer("checkpointInterval")
    guard interval >= 1 else {
      throw .invalidValue(
        entry: nil, field: "meta.checkpointInterval", reason: "must be at least 1, found \(interval)")
    }
    return (wall, interval, try state.optionalString("shape"))
  }

  private static func checkType(
    _ reader: FieldReader, role: JournalImportError.TypeRole, expected: String
  )
    throws(JournalImportError)
  {
    let found = try reader.string("type")
    if let difference = TypeFingerprint(name: expected).difference(from: TypeFingerprint(name: found)) {
      throw .typeMismatch(role, expected: expected, found: found, difference: difference)
    }
    if try !reader.bool("encodable") {
      throw .notReplayable(entry: nil, field: reader.path.appending("encodable").description)
    }
  }

  /// Requires the first entry to have position `index`.
  mutating func expectFirstIndex(_ index: Int) {
    nextIndex = index
    content.entries.reset(startingAt: index)
  }

  mutating func expectStateShape(_ shape: String?) {
    fileStateShape = shape
    content.stateShape = shape
  }

  // MARK: States

  func decodeState(_ value: JSONValue, path: FieldPath) throws(JournalImportError) -> State {
    try decoder.decode(State.self, from: value, path: path)
  }

  /// Sets the state before the entry at `index`: the base state, or a checkpoint.
  mutating func addCheckpoint(
    _ state: State, index: Int, kind: JournalCheckpoint<State>.Kind, path: FieldPath
  )
    throws(JournalImportError)
  {
    if content.checkpoints.last == nil, let fileStateShape {
      let found = TypeFingerprint(name: TypeFingerprint.qualifiedName(of: State.self), shape: fileStateShape)
      let expected = TypeFingerprint.of(value: state)
      if let difference = expected.difference(from: found) {
        throw .typeMismatch(
          .state, expected: expected.description, found: found.description, difference: difference)
      }
    }
    if content.stateShape == nil { content.stateShape = TypeFingerprint.shape(of: state) }
    if let last = content.checkpoints.last, last.index > index {
      throw .invalidValue(entry: path.entryIndex, field: path.description, reason: "checkpoint out of order")
    }
    content.checkpoints.append(
      JournalCheckpoint(index: index, kind: kind, state: state), size: stateSize(state))
  }

  // MARK: Entries

  /// Reads one entry object: `path` is where it sits (`entries[n]`).
  ///
  /// - Parameters:
  ///   - checkpointRequired: Whether the first entry must carry the base state (streams).
  ///   - branches: Whether an entry with a resync checkpoint may go back to an earlier index (the
  ///     journal was truncated to start a branch: the entries from there on are replaced) or jump
  ///     to another one (the journal was restored or reset: what came before is dropped). NDJSON
  ///     streams record such turns as they happen.
  mutating func addEntry(
    _ value: JSONValue, path: FieldPath, checkpointRequired: Bool = false, branches: Bool = false
  ) throws(JournalImportError) {
    let ordinal = entryCount
    guard ordinal < limits.maxEntries else {
      throw .tooLarge(entry: ordinal, field: "entries", limit: limits.maxEntries)
    }
    let reader = try FieldReader(value, path: path)
    let index: Int = try reader.integer("index")
    if branches, let nextIndex, index != nextIndex, try Self.hasResyncCheckpoint(reader) {
      if index >= content.entries.startIndex && index < nextIndex {
        content.entries.removeLast(from: index)
        content.checkpoints.removeAll(after: index)
        var firstDropped = content.events.endIndex
        while firstDropped > content.events.startIndex,
          content.events[firstDropped - 1].position > Int64(index)
        {
          firstDropped -= 1
        }
        content.events.removeLast(from: firstDropped)
      } else {
        content.entries.reset(startingAt: index)
        content.checkpoints.removeAll()
        content.events.reset(startingAt: content.events.endIndex)
      }
      self.nextIndex = index
    }
    if let nextIndex, index != nextIndex {
      throw .invalidValue(
        entry: ordinal, field: path.appending("index").description,
        reason: "expected index \(nextIndex) after the previous entry, found \(index)")
    }
    if nextIndex == nil { content.entries.reset(startingAt: index) }
    let sequence: UInt64 = try reader.integer("seq")
    guard sequence >= 1 else {
      throw .numberOutOfRange(entry: ordinal, field: path.appending("seq").description, value: "0")
    }
    if let previousSequence {
      if sequence == previousSequence { throw .duplicateSequence(entry: ordinal, sequence: sequence) }
      if sequence < previousSequence {
        throw .sequenceOutOfOrder(entry: ordinal, sequence: sequence, previous: previousSequence)
      }
    }
    let time: Int64 = try reader.integer("time")
    if let previousTime, time < previousTime {
      throw .invalidValue(
        entry: ordinal, field: path.appending("time").description,
        reason: "monotonic time goes backwards (\(time) after \(previousTime))")
    }
    let wallTime: Int64 = try reader.integer("wallTime")
    let context = try reader.optionalString("context")
    let cause = try readCause(reader.object("cause"), sequence: sequence)
    guard try reader.bool("replayable") else {
      throw .notReplayable(entry: ordinal, field: path.appending("action").description)
    }
    let action = try decoder.decode(
      Action.self, from: reader.required("action"), path: path.appending("action"))
    let outcome = try reader.string("outcome")
    var flags: EntryFlags = []
    switch outcome {
    case "reduced": break
    case "stopped": flags.insert(.stopped)
    default:
      throw .invalidValue(
        entry: ordinal, field: path.appending("outcome").description,
        reason: "expected \"reduced\" or \"stopped\", found \(outcome.debugDescription)")
    }
    let durations = try reader.object("durations")
    let chain = try duration(durations, "chain")
    let reducer =
      try durations.contains("reducer") ? duration(durations, "reducer") : EntryRecord<Action>.unknownDuration
    let offset =
      try durations.contains("reducerOffset")
      ? duration(durations, "reducerOffset") : EntryRecord<Action>.unknownDuration

    if reader.contains("checkpoint") {
      let checkpoint = try reader.object("checkpoint")
      let kindName = try checkpoint.string("kind")
      guard let kind = JournalCheckpoint<State>.Kind(rawValue: kindName) else {
        throw .invalidValue(
          entry: ordinal, field: checkpoint.path.appending("kind").description,
          reason: "expected \"interval\" or \"resync\", found \(kindName.debugDescription)")
      }
      let state = try decodeState(checkpoint.required("state"), path: checkpoint.path.appending("state"))
      try addCheckpoint(state, index: index, kind: kind, path: checkpoint.path)
    } else if checkpointRequired && content.checkpoints.last == nil {
      throw .missingField(entry: ordinal, field: path.appending("checkpoint").description)
    }
    guard content.checkpoints.last != nil else {
      throw .missingField(entry: nil, field: "baseState")
    }

    let record = EntryRecord(
      sequence: sequence, time: time, wallTime: wallTime &- content.originWallNanos,
      parent: cause.parent ?? 0, effect: cause.effect ?? 0,
      chainNanos: chain, reducerNanos: reducer, reducerOffsetNanos: offset,
      context: content.strings.code(for: context, at: content.entries.endIndex),
      causeLabel: content.strings.code(for: cause.label, at: content.entries.endIndex),
      causeKind: cause.kind.code, flags: flags, action: action)
    content.entries.append(record)
    previousSequence = sequence
    previousTime = time
    nextIndex = index + 1
    entryCount += 1
  }

  private static func hasResyncCheckpoint(_ reader: FieldReader) throws(JournalImportError) -> Bool {
    guard reader.contains("checkpoint") else { return false }
    return try reader.object("checkpoint").optionalString("kind") == "resync"
  }

  private func duration(_ reader: FieldReader, _ key: String) throws(JournalImportError) -> UInt32 {
    let value: Int64 = try reader.integer(key)
    guard value >= 0, value < Int64(UInt32.max) else {
      let field = reader.path.appending(key)
      throw .numberOutOfRange(entry: field.entryIndex, field: field.description, value: "\(value)")
    }
    return UInt32(value)
  }

  private func readCause(_ reader: FieldReader, sequence: UInt64?) throws(JournalImportError) -> Cause {
    let kindName = try reader.string("kind")
    guard let kind = Cause.Kind(rawValue: kindName) else {
      let field = reader.path.appending("kind")
      throw .invalidValue(
        entry: field.entryIndex, field: field.description,
        reason: "unknown cause kind \(kindName.debugDescription)")
    }
    let parent: UInt64? = try reader.optionalInteger("parent")
    let effect: UInt64? = try reader.optionalInteger("effect")
    if let parent, parent == 0 || sequence.map({ parent >= $0 }) == true {
      let field = reader.path.appending("parent")
      throw .invalidValue(
        entry: field.entryIndex, field: field.description,
        reason: "a cause's parent must be an earlier sequence number, found \(parent)")
    }
    if effect == 0 {
      let field = reader.path.appending("effect")
      throw .numberOutOfRange(entry: field.entryIndex, field: field.description, value: "0")
    }
    return Cause(kind: kind, parent: parent, effect: effect, label: try reader.optionalString("label"))
  }

  // MARK: Events

  /// Reads one effect event object: `path` is where it sits (`effects[n]`).
  mutating func addEvent(_ value: JSONValue, path: FieldPath) throws(JournalImportError) {
    guard eventCount < limits.maxEntries else {
      throw .tooLarge(entry: nil, field: "effects", limit: limits.maxEntries)
    }
    let reader = try FieldReader(value, path: path)
    let effect: UInt64 = try reader.integer("effect")
    guard effect >= 1 else {
      throw .numberOutOfRange(entry: nil, field: path.appending("effect").description, value: "0")
    }
    let phaseName = try reader.string("phase")
    guard let phase = EventRecord.Phase(name: phaseName) else {
      throw .invalidValue(
        entry: nil, field: path.appending("phase").description,
        reason: "unknown phase \(phaseName.debugDescription)")
    }
    var failure: UInt32 = 0
    let time: Int64 = try reader.integer("time")
    let position: Int64 = try reader.integer("position")
    if phase == .failed { failure = content.strings.code(for: try reader.string("error"), at: Int(position)) }
    let cause = try readCause(reader.object("cause"), sequence: nil)
    let idValues = try reader.array("ids")
    var ids: [String] = []
    for (offset, id) in idValues.enumerated() {
      ids.append(try FieldReader.string(id, path: path.appending("ids").appending(index: offset)))
    }
    content.events.append(
      EventRecord(
        effect: effect, parent: cause.parent ?? 0, time: time, position: position,
        label: content.strings.code(for: cause.label, at: Int(position)),
        ids: content.idLists.code(for: ids, at: Int(position)), failure: failure,
        causeKind: cause.kind.code, phase: phase))
    eventCount += 1
  }
}
