import ChronicleJSON
import ChronicleStore
import ChronicleTracer
import Foundation

/// Builds a journal's content from the parts of an imported file, validating each one; shared by
/// the Journal JSON, NDJSON and Redux DevTools importers.
///
/// Adds an entry read from tokens to a builder, as
/// ``JournalBuilder/addEntry(tape:at:list:position:checkpointRequired:branches:)`` does, with
/// code formed in the client (see ``ClientSpecialized``).
@usableFromInline
struct EntryAdding<State: Decodable & Sendable, Action: Decodable & Sendable> {
  /// Adds the entry object at token `entry` of `tape`, element `position` of the document's
  /// `list`; `streamed` says it comes from an NDJSON stream (its first entry carries the base
  /// state, and it may turn to another branch).
  @usableFromInline
  typealias Add = (
    _ builder: inout JournalBuilder<State, Action>, _ tape: JSONTapeView, _ entry: Int, _ list: String,
    _ position: Int, _ streamed: Bool
  ) throws(JournalImportError) -> Void

  let add: Add

  @usableFromInline
  init(add: @escaping Add) {
    self.add = add
  }

  @inlinable
  static var specialized: EntryAdding {
    EntryAdding { builder, tape, entry, list, position, streamed throws(JournalImportError) in
      try builder.addEntry(
        tape: tape, at: entry, list: list, position: position, checkpointRequired: streamed,
        branches: streamed)
    }
  }
}

/// Nothing is applied anywhere until ``content`` is complete: an import that throws leaves no
/// trace.
///
/// What an import does per entry read from tokens (``addEntry(tape:at:path:checkpointRequired:branches:)``)
/// is inlinable, for the importers' public initializers to run it specialized for the app's
/// types (see ``EntryAdding``): in generic code, each value of `Action` it makes, keeps or
/// moves looks up type metadata, which cost a tenth of an import.
@usableFromInline
struct JournalBuilder<State: Decodable & Sendable, Action: Decodable & Sendable> {
  @usableFromInline var content: JournalContent<State, Action>
  private let decoder = TypedDecoder()
  /// Where an entry held as a tree is read again (see ``addEntry(_:position:checkpointRequired:branches:)``).
  private let treeTape = JSONTape()
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

  /// Adds one entry object held as a tree, element `position` of `entries`: its text is read
  /// onto a tape and added by ``addEntry(tape:at:list:position:checkpointRequired:branches:)``,
  /// so that an entry is read one way, with the same errors, however it came. Entries come as
  /// trees only where a document puts them before its header, or a line the tape does not take.
  mutating func addEntry(
    _ value: JSONValue, position: Int, checkpointRequired: Bool = false, branches: Bool = false
  ) throws(JournalImportError) {
    try treeTape.reading(tree: value) { view throws(JournalImportError) in
      try addEntry(
        tape: view, at: 0, list: "entries", position: position, checkpointRequired: checkpointRequired,
        branches: branches)
    }
  }

  /// Adds the entry object at token `entry` of `tape`, element `position` of the document's
  /// `list` (`entries[n]`).
  ///
  /// - Parameters:
  ///   - checkpointRequired: Whether the first entry must carry the base state (streams).
  ///   - branches: Whether an entry with a resync checkpoint may go back to an earlier index (the
  ///     journal was truncated to start a branch: the entries from there on are replaced) or jump
  ///     to another one (the journal was restored or reset: what came before is dropped). NDJSON
  ///     streams record such turns as they happen.
  @inlinable
  mutating func addEntry(
    tape: JSONTapeView, at entry: Int, list: String, position: Int, checkpointRequired: Bool = false,
    branches: Bool = false
  ) throws(JournalImportError) {
    let ordinal = entryCount
    guard ordinal < limits.maxEntries else {
      throw .tooLarge(entry: ordinal, field: "entries", limit: limits.maxEntries)
    }
    let read = try EntryFields.TapeEntry(TapeFieldReader(tape, at: entry, list: list, position: position))
    try prepare(read.fields, path: read.path, branches: branches)
    let actionToken = try read.action(ordinal: ordinal)
    guard let action = decodeAction(tape, at: actionToken) else {
      throw decodingError(Action.self, tape, at: actionToken, path: read.path.appending("action"))
    }
    if let token = read.state, let resync = read.fields.checkpointIsResync {
      let path = read.path.appending("checkpoint")
      guard let state = try? tapeDecoder.decode(State.self, from: tape, at: token) else {
        throw decodingError(State.self, tape, at: token, path: path.appending("state"))
      }
      try addCheckpoint(state, index: read.fields.index, kind: resync ? .resync : .interval, path: path)
    }
    try finish(read.fields, action: action, path: read.path, checkpointRequired: checkpointRequired)
  }

  /// Why the value at token `index` of `tape`, which the fast decode refused, does not decode as
  /// `type`: the error that names its field.
  @usableFromInline
  func decodingError<Value: Decodable>(
    _ type: Value.Type, _ tape: JSONTapeView, at index: Int, path: FieldPath
  ) -> JournalImportError {
    do {
      _ = try decoder.decode(type, from: tape, at: index, path: path)
    } catch {
      return error
    }
    return .invalidValue(entry: path.entryIndex, field: path.description, reason: "does not decode")
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
  /// ``addEntry(tape:at:list:position:checkpointRequired:branches:)``): what comes before decoding its action.
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
  /// was expected (see ``addEntry(tape:at:list:position:checkpointRequired:branches:)``).
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
