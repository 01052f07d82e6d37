import ChronicleStore
import Foundation

extension Journal where State: Decodable, Action: Decodable {
  /// Imports a Redux DevTools file in either form written by
  /// ``JournalSnapshot/reduxDevTools(_:options:)`` (see docs/formats/redux-devtools.md).
  ///
  /// Each action's `payload` is decoded as an `Action` and the base state (`preloadedState`, or
  /// `committedState`) as a `State`; the `meta` of each action, when present, restores its
  /// sequence number, context and cause. In the lifted form, skipped actions are imported as
  /// ``JournalEntry/Outcome/stopped`` and the computed states become checkpoints. Times are not
  /// part of these files: entries get their timestamp (lifted form) or none.
  public convenience init<R: Reducer>(
    reduxDevTools data: Data, reducer: R,
    configuration: Configuration = Configuration(maxEntries: nil, maxBytes: nil),
    limits: JournalImportLimits = .default
  ) throws(JournalImportError) where R.State == State, R.Action == Action {
    let importer = ReduxDevToolsImporter<State, Action>(limits: limits, configuration: configuration)
    let content = try importer.content(from: data)
    self.init(content: content, configuration: configuration) { reducer.reduce(into: &$0, action: $1) }
  }
}

/// Reads both Redux DevTools forms into journal content.
struct ReduxDevToolsImporter<State: Decodable & Sendable, Action: Decodable & Sendable> {
  let limits: JournalImportLimits
  let configuration: Journal<State, Action>.Configuration
  private let decoder = TypedDecoder()

  init(limits: JournalImportLimits, configuration: Journal<State, Action>.Configuration) {
    self.limits = limits
    self.configuration = configuration
  }

  private func parse(_ bytes: [UInt8], path: FieldPath) throws(JournalImportError) -> JSONValue {
    guard bytes.count <= limits.maxBytes else {
      throw .tooLarge(entry: nil, field: path.description, limit: limits.maxBytes)
    }
    do throws(JSONParser.Failure) {
      return try JSONParser.parse(bytes, limits: limits.parser, path: path)
    } catch {
      throw JournalImportError(error)
    }
  }

  func content(from data: Data) throws(JournalImportError) -> JournalContent<State, Action> {
    let root = try FieldReader(parse(Array(data), path: FieldPath()), path: FieldPath())
    var content = JournalContent<State, Action>(
      originWallNanos: 0, originMonotonic: 0, checkpointInterval: configuration.effectiveCheckpointInterval,
      chunkCapacity: 1024)
    if root.contains("payload") {
      try readCustom(root, into: &content)
    } else if root.contains("actionsById") {
      try readLifted(root, into: &content)
    } else {
      throw .wrongFormat(expected: "Redux DevTools import file", found: nil)
    }
    let now = MonotonicClock.now()
    let wallNow = Int64((Date().timeIntervalSince1970 * 1e9).rounded())
    content.originMonotonic = now &- (wallNow &- content.originWallNanos)
    return content
  }

  private func readCustom(
    _ root: FieldReader, into content: inout JournalContent<State, Action>
  )
    throws(JournalImportError)
  {
    let payloadPath = FieldPath([.key("payload")])
    let actions = try parse(Array(root.string("payload").utf8), path: payloadPath)
    guard case .array(let list) = actions else {
      throw .wrongType(entry: nil, field: "payload", expected: "array", found: actions.typeName)
    }
    guard let preloaded = try root.optionalString("preloadedState") else {
      throw .missingField(entry: nil, field: "preloadedState")
    }
    let statePath = FieldPath([.key("preloadedState")])
    let base = try decoder.decode(
      State.self, from: parse(Array(preloaded.utf8), path: statePath), path: statePath)
    content.checkpoints.append(
      JournalCheckpoint(index: 0, kind: .resync, state: base), size: configuration.stateSize(base))
    content.stateShape = TypeFingerprint.shape(of: base)
    var previous: UInt64 = 0
    for (offset, value) in list.enumerated() {
      let path = FieldPath([.key("payload"), .index(offset)], entry: offset)
      previous = try append(
        value, path: path, ordinal: offset, previous: previous, wallTime: nil, skipped: false, into: &content)
    }
  }

  private func readLifted(
    _ root: FieldReader, into content: inout JournalContent<State, Action>
  )
    throws(JournalImportError)
  {
    let actionsById = try root.object("actionsById")
    let staged = try root.array("stagedActionIds")
    var skipped = Set<Int>()
    if root.contains("skippedActionIds") {
      for (offset, id) in try root.array("skippedActionIds").enumerated() {
        skipped.insert(
          try FieldReader.integer(id, path: FieldPath([.key("skippedActionIds"), .index(offset)])))
      }
    }
    let computed = root.contains("computedStates") ? try root.array("computedStates") : []
    let basePath: FieldPath
    let baseValue: JSONValue
    if let committed = root.optional("committedState"), committed != .null {
      basePath = FieldPath([.key("committedState")])
      baseValue = committed
    } else if let first = computed.first {
      basePath = FieldPath([.key("computedStates"), .index(0), .key("state")])
      baseValue = try FieldReader(first, path: FieldPath([.key("computedStates"), .index(0)])).required(
        "state")
    } else {
      throw .missingField(entry: nil, field: "committedState")
    }
    let base = try decoder.decode(State.self, from: baseValue, path: basePath)
    content.checkpoints.append(
      JournalCheckpoint(index: 0, kind: .resync, state: base), size: configuration.stateSize(base))
    content.stateShape = TypeFingerprint.shape(of: base)
    var previous: UInt64 = 0
    var ordinal = 0
    var seenIDs = Set<Int>()
    for (position, idValue) in staged.enumerated() {
      let id: Int = try FieldReader.integer(
        idValue, path: FieldPath([.key("stagedActionIds"), .index(position)]))
      guard seenIDs.insert(id).inserted else {
        throw .invalidValue(
          entry: nil, field: "stagedActionIds[\(position)]", reason: "action id \(id) is staged twice")
      }
      let liftedPath = FieldPath([.key("actionsById"), .key(String(id))], entry: ordinal)
      guard let lifted = actionsById.optional(String(id)) else {
        throw .missingField(entry: ordinal, field: liftedPath.description)
      }
      let liftedReader = try FieldReader(lifted, path: liftedPath)
      let action = try liftedReader.object("action")
      if try action.string("type").hasPrefix("@@") { continue }
      // Milliseconds: within the range of wall times once in nanoseconds.
      let timestamp = try liftedReader.optionalInteger(
        "timestamp", in: -(JournalNumberRange.maxTime / 1_000_000)...(JournalNumberRange.maxTime / 1_000_000))
      let wall = timestamp.map { $0 * 1_000_000 }
      if ordinal == 0, let wall { content.originWallNanos = wall }
      // States computed by the extension become checkpoints, as a recorded journal keeps them.
      // computedStates[k] is the state after stagedActionIds[k]: the one before this action is
      // at `position - 1`.
      if ordinal > 0, ordinal % content.checkpointInterval == 0, position >= 1, position - 1 < computed.count
      {
        let path = FieldPath([.key("computedStates"), .index(position - 1)], entry: ordinal)
        let state = try decoder.decode(
          State.self, from: FieldReader(computed[position - 1], path: path).required("state"),
          path: path.appending("state"))
        content.checkpoints.append(
          JournalCheckpoint(index: ordinal, kind: .interval, state: state),
          size: configuration.stateSize(state))
      }
      previous = try append(
        lifted, path: liftedPath.appending("action"), ordinal: ordinal, previous: previous, wallTime: wall,
        skipped: skipped.contains(id), into: &content, actionReader: action)
      ordinal += 1
    }
  }

  /// Appends one Flux Standard Action; returns its sequence number.
  private func append(
    _ value: JSONValue, path: FieldPath, ordinal: Int, previous: UInt64, wallTime: Int64?, skipped: Bool,
    into content: inout JournalContent<State, Action>, actionReader: FieldReader? = nil
  ) throws(JournalImportError) -> UInt64 {
    guard ordinal < limits.maxEntries else {
      throw .tooLarge(entry: ordinal, field: path.description, limit: limits.maxEntries)
    }
    let flux: FieldReader
    if let actionReader { flux = actionReader } else { flux = try FieldReader(value, path: path) }
    _ = try flux.string("type")
    var sequence = previous + 1
    var context: String?
    var cause = Cause.user
    var stopped = skipped
    if flux.contains("meta") {
      let meta = try flux.object("meta")
      if let replayable = meta.optional("replayable"), replayable == .bool(false) {
        throw .notReplayable(entry: ordinal, field: flux.path.appending("payload").description)
      }
      if let seq = try meta.optionalInteger("seq", in: JournalNumberRange.sequences) { sequence = seq }
      context = try meta.optionalString("context")
      if meta.contains("cause") {
        let reader = try meta.object("cause")
        cause = try EntryFields.cause(reader, sequence: sequence)
      }
      if try meta.optionalString("outcome") == "stopped" { stopped = true }
    }
    if sequence == previous { throw .duplicateSequence(entry: ordinal, sequence: sequence) }
    if sequence < previous {
      throw .sequenceOutOfOrder(entry: ordinal, sequence: sequence, previous: previous)
    }
    let action = try decoder.decode(
      Action.self, from: flux.required("payload"), path: flux.path.appending("payload"))
    let record = EntryRecord(
      sequence: sequence, time: 0, wallTime: (wallTime ?? content.originWallNanos) &- content.originWallNanos,
      parent: cause.parent ?? 0, effect: cause.effect ?? 0, chainNanos: 0,
      reducerNanos: EntryRecord<Action>.unknownDuration,
      reducerOffsetNanos: EntryRecord<Action>.unknownDuration,
      context: content.strings.code(for: context, at: content.entries.endIndex),
      causeLabel: content.strings.code(for: cause.label, at: content.entries.endIndex),
      causeKind: cause.kind.code, flags: stopped ? .stopped : [], action: action)
    content.entries.append(record)
    return sequence
  }
}
