import ChronicleJSON
import ChronicleStore
import ChronicleTracer
import Foundation

/// Builds a journal's content from the parts of an imported file, validating each one; shared by
/// the Journal JSON, NDJSON and Redux DevTools importers.
///
/// Adds the entry object at token `entry` of a tape to a builder, as
/// ``JournalBuilder/addEntry(tape:at:path:checkpointRequired:branches:)`` does; its path is
/// `key[position]`, and `streamed` says the entry comes from an NDJSON stream (its first entry
/// carries the base state, and it may turn to another branch). Formed by
/// ``JournalBuilder/tapeEntryAdder()`` in an importer's inlinable public entry point, so that the
/// entries are added by code specialized for the app's types.
@usableFromInline
typealias TapeEntryAdder<State: Decodable & Sendable, Action: Decodable & Sendable> = (
  _ builder: inout JournalBuilder<State, Action>, _ tape: JSONTapeView, _ entry: Int, _ key: String,
  _ position: Int, _ streamed: Bool
) throws(JournalImportError) -> Bool

/// Nothing is applied anywhere until ``content`` is complete: an import that throws leaves no
/// trace.
///
/// What an import does per entry read from tokens (``addEntry(tape:at:path:checkpointRequired:branches:)``)
/// is inlinable, for the importers' public initializers to run it specialized for the app's
/// types (see ``TapeEntryAdder``): in generic code, each value of `Action` it makes, keeps or
/// moves looks up type metadata, which cost a tenth of an import.
@usableFromInline
struct JournalBuilder<State: Decodable & Sendable, Action: Decodable & Sendable> {
  @usableFromInline var content: JournalContent<State, Action>
  private let decoder = TypedDecoder()
  @usableFromInline let tapeDecoder = JSONTapeDecoder()
  /// The texts of the actions decoded last, and the actions (see ``decodeAction(_:at:)``).
  @usableFromInline var actionTexts: [[UInt8]] = []
  @usableFromInline var decodedActions: [Action] = []
  @usableFromInline let limits: JournalImportLimits
  private let stateSize: (State) -> Int
  private var fileStateShape: String?
  @usableFromInline var order = EntryOrder()
  @usableFromInline var entryCount = 0
  /// Whether `content` holds a checkpoint: asked for every entry, which the generic content
  /// answers at the cost of a few type metadata look-ups.
  @usableFromInline var hasCheckpoint = false
  /// Whether `Action` holds no references (see ``decodeAction(_:at:)``).
  @usableFromInline let actionsAreValues = _isPOD(Action.self)
  private(set) var eventCount = 0

  init(
    originWallNanos: Int64, checkpointInterval: Int, limits: JournalImportLimits,
    stateSize: @escaping (State) -> Int
  ) {
    content = JournalContent(
      originWallNanos: originWallNanos, originMonotonic: 0, checkpointInterval: checkpointInterval,
      chunkCapacity: 1024)
    content.setOrigin(wallNanos: originWallNanos)
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
    let fields = try MetaFields(meta)
    return (fields.originWallNanos, fields.checkpointInterval, try state.optionalString("shape"))
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
    order.expect(index: index)
    content.startEntries(at: index)
  }

  mutating func expectStateShape(_ shape: String?) {
    fileStateShape = shape
    content.setStateShape(shape)
  }

  // MARK: States

  func decodeState(_ value: JSONValue, path: FieldPath) throws(JournalImportError) -> State {
    try decoder.decode(State.self, from: value, path: path)
  }

  /// Sets the state before the entry at `index`: the base state, or a checkpoint.
  @usableFromInline
  mutating func addCheckpoint(
    _ state: State, index: Int, kind: JournalCheckpoint<State>.Kind, path: FieldPath
  )
    throws(JournalImportError)
  {
    if content.lastCheckpointIndex == nil, let fileStateShape {
      let found = TypeFingerprint(name: TypeFingerprint.qualifiedName(of: State.self), shape: fileStateShape)
      let expected = TypeFingerprint.of(value: state)
      if let difference = expected.difference(from: found) {
        throw .typeMismatch(
          .state, expected: expected.description, found: found.description, difference: difference)
      }
    }
    content.noteStateShape(of: state)
    if let last = content.lastCheckpointIndex, last > index {
      throw .invalidValue(entry: path.entryIndex, field: path.description, reason: "checkpoint out of order")
    }
    content.appendCheckpoint(
      JournalCheckpoint(index: index, kind: kind, state: state), size: stateSize(state))
    hasCheckpoint = true
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
    let fields = try EntryFields(reader)
    try prepare(fields, path: path, branches: branches)
    guard try reader.bool("replayable") else {
      throw .notReplayable(entry: ordinal, field: path.appending("action").description)
    }
    let action = try decoder.decode(
      Action.self, from: reader.required("action"), path: path.appending("action"))
    if let resync = fields.checkpointIsResync {
      let checkpoint = try reader.object("checkpoint")
      let state = try decodeState(checkpoint.required("state"), path: checkpoint.path.appending("state"))
      try addCheckpoint(state, index: fields.index, kind: resync ? .resync : .interval, path: checkpoint.path)
    }
    try finish(fields, action: action, path: path, checkpointRequired: checkpointRequired)
  }

  /// What adds an entry read from tokens (see ``TapeEntryAdder``); specialized for the caller's
  /// types when the caller is.
  @inlinable
  static func tapeEntryAdder() -> TapeEntryAdder<State, Action> {
    { builder, tape, entry, key, position, streamed throws(JournalImportError) in
      try builder.addEntry(
        tape: tape, at: entry, path: FieldPath([.key(key), .index(position)]), checkpointRequired: streamed,
        branches: streamed)
    }
  }

  /// Adds the entry object at token `entry` of `tape` (see ``addEntry(_:path:checkpointRequired:branches:)``)
  /// when every field is as the fast path reads it, and returns `true`. Otherwise it changes
  /// nothing and returns `false`: the caller then adds the entry from its tree, which reports
  /// the exact error, if any.
  @inlinable
  mutating func addEntry(
    tape: JSONTapeView, at entry: Int, path: @autoclosure () -> FieldPath, checkpointRequired: Bool = false,
    branches: Bool = false
  ) throws(JournalImportError) -> Bool {
    guard entryCount < limits.maxEntries, let read = EntryFields.read(tape, at: entry), read.replayable,
      let action = decodeAction(tape, at: read.action)
    else { return false }
    if let token = read.state, let resync = read.fields.checkpointIsResync {
      guard let state = try? tapeDecoder.decode(State.self, from: tape, at: token) else { return false }
      try prepare(read.fields, path: path(), branches: branches)
      try addCheckpoint(
        state, index: read.fields.index, kind: resync ? .resync : .interval,
        path: path().appending("checkpoint"))
    } else {
      try prepare(read.fields, path: path(), branches: branches)
    }
    try finish(read.fields, action: action, path: path(), checkpointRequired: checkpointRequired)
    return true
  }

  /// The action at token `index`, `nil` when it does not decode. An action type without
  /// references (`_isPOD`: payload-free enums, structs of numbers) is decoded once per distinct
  /// text: a copy of such a value is the value, and a journal repeats a few actions a million
  /// times, each of which would otherwise cost a decoder and its containers.
  @inlinable
  mutating func decodeAction(_ tape: JSONTapeView, at index: Int) -> Action? {
    guard actionsAreValues else { return try? tapeDecoder.decode(Action.self, from: tape, at: index) }
    let text = tape.slice(index)
    var slot = 0
    for cached in actionTexts {
      if cached.count == text.count, cached.elementsEqual(text) {
        return decodedActions[slot]
      }
      slot += 1
    }
    guard let action = try? tapeDecoder.decode(Action.self, from: tape, at: index) else { return nil }
    if actionTexts.count < 16 && text.count <= 256 {
      actionTexts.append(Array(text))
      decodedActions.append(action)
    }
    return action
  }

  /// Checks the order of an entry whose envelope is read, after moving to its branch (see
  /// ``addEntry(_:path:checkpointRequired:branches:)``): what comes before decoding its action.
  @inlinable
  mutating func prepare(
    _ fields: EntryFields, path: @autoclosure () -> FieldPath, branches: Bool
  ) throws(JournalImportError) {
    let index = fields.index
    if branches, let nextIndex = order.nextIndex, index != nextIndex, fields.checkpointIsResync == true {
      turn(to: index, from: nextIndex)
    }
    try order.check(fields, ordinal: entryCount, path: path())
    if order.nextIndex == nil { content.startEntries(at: index) }
  }

  /// Moves to the branch of an entry whose resync checkpoint is at `index`, where `nextIndex`
  /// was expected (see ``addEntry(_:path:checkpointRequired:branches:)``).
  @usableFromInline
  mutating func turn(to index: Int, from nextIndex: Int) {
    content.turn(to: index, from: nextIndex)
    hasCheckpoint = content.lastCheckpointIndex != nil
    order.expect(index: index)
  }

  /// Adds an entry whose envelope and action are read, and its checkpoint added.
  @inlinable
  mutating func finish(
    _ fields: EntryFields, action: Action, path: @autoclosure () -> FieldPath, checkpointRequired: Bool
  ) throws(JournalImportError) {
    let ordinal = entryCount
    if fields.checkpointIsResync == nil && checkpointRequired && !hasCheckpoint {
      throw .missingField(entry: ordinal, field: path().appending("checkpoint").description)
    }
    guard hasCheckpoint else {
      throw .missingField(entry: nil, field: "baseState")
    }

    content.appendImportedEntry(
      sequence: fields.sequence, time: fields.time, wallNanos: fields.wallTime, context: fields.context,
      cause: fields.cause, site: fields.site, effectSite: fields.effectSite, stopped: fields.stopped,
      chainNanos: fields.chainNanos, reducerNanos: fields.reducerNanos,
      reducerOffsetNanos: fields.reducerOffsetNanos, action: action)
    order.accept(fields)
    entryCount += 1
  }

  // MARK: Events

  /// Reads one effect event object: `path` is where it sits (`effects[n]`).
  mutating func addEvent(_ value: JSONValue, path: FieldPath) throws(JournalImportError) {
    guard eventCount < limits.maxEntries else {
      throw .tooLarge(entry: nil, field: "effects", limit: limits.maxEntries)
    }
    let fields = try EventFields(FieldReader(value, path: path))
    content.appendImportedEvent(
      effect: fields.effect, phase: fields.phase, failure: fields.error, time: fields.time,
      position: fields.position, cause: fields.cause, ids: fields.ids)
    eventCount += 1
  }
}
