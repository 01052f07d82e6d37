import ChronicleStore

extension JournalDocument {
  /// A document read from a Redux DevTools import file in either form (docs/formats/redux-devtools.md),
  /// checked as `Journal(reduxDevTools:reducer:)` checks it, with the same errors and field paths,
  /// but keeping actions and states as JSON.
  ///
  /// The custom form holds the base state and the actions; the lifted form also holds the state
  /// after every action, which becomes each entry's state. Neither holds monotonic times or
  /// durations: an entry's time is its wall-clock time (lifted form) since the first one, or 0.
  static func reduxDevTools(
    _ root: FieldReader, limits: JournalImportLimits
  ) throws(JournalImportError)
    -> JournalDocument
  {
    var reader = ReduxDevToolsDocumentReader(limits: limits)
    if root.contains("payload") {
      try reader.readCustom(root)
    } else {
      try reader.readLifted(root)
    }
    let meta = JSONValue.object([
      JSONMember("origin", .object([JSONMember("wallTime", .integer(reader.originWallNanos))])),
      JSONMember("checkpointInterval", .integer(100)),
      JSONMember("firstIndex", .integer(0)),
      JSONMember("entryCount", .integer(reader.entries.count)),
      JSONMember("effectCount", .integer(0)),
    ])
    var document = try JournalDocument(
      meta: meta, baseState: reader.baseState, entries: reader.entries, effects: [])
    document.listsRedactedChanges = false
    return document
  }
}

/// Turns the actions of a Redux DevTools file into entry objects of the Journal JSON shape.
private struct ReduxDevToolsDocumentReader {
  let limits: JournalImportLimits
  var baseState = JSONValue.null
  var originWallNanos: Int64 = 0
  var entries: [JSONValue] = []
  private var previous: UInt64 = 0

  init(limits: JournalImportLimits) { self.limits = limits }

  private func parse(_ text: String, path: FieldPath) throws(JournalImportError) -> JSONValue {
    let bytes = Array(text.utf8)
    guard bytes.count <= limits.maxBytes else {
      throw .tooLarge(entry: nil, field: path.description, limit: limits.maxBytes)
    }
    do throws(JSONParser.Failure) {
      return try JSONParser.parse(bytes, limits: limits.parser, path: path)
    } catch {
      throw JournalImportError(error)
    }
  }

  mutating func readCustom(_ root: FieldReader) throws(JournalImportError) {
    let actions = try parse(root.string("payload"), path: FieldPath([.key("payload")]))
    guard case .array(let list) = actions else {
      throw .wrongType(entry: nil, field: "payload", expected: "array", found: actions.typeName)
    }
    guard let preloaded = try root.optionalString("preloadedState") else {
      throw .missingField(entry: nil, field: "preloadedState")
    }
    baseState = try parse(preloaded, path: FieldPath([.key("preloadedState")]))
    for (offset, value) in list.enumerated() {
      let path = FieldPath([.key("payload"), .index(offset)], entry: offset)
      try append(FieldReader(value, path: path), wallTime: nil, skipped: false, state: nil)
    }
  }

  mutating func readLifted(_ root: FieldReader) throws(JournalImportError) {
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
    if let committed = root.optional("committedState"), committed != .null {
      baseState = committed
    } else if let first = computed.first {
      baseState = try FieldReader(first, path: FieldPath([.key("computedStates"), .index(0)])).required(
        "state")
    } else {
      throw .missingField(entry: nil, field: "committedState")
    }
    var seenIDs = Set<Int>()
    for (position, idValue) in staged.enumerated() {
      let id: Int = try FieldReader.integer(
        idValue, path: FieldPath([.key("stagedActionIds"), .index(position)]))
      guard seenIDs.insert(id).inserted else {
        throw .invalidValue(
          entry: nil, field: "stagedActionIds[\(position)]", reason: "action id \(id) is staged twice")
      }
      let ordinal = entries.count
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
      if ordinal == 0, let wall { originWallNanos = wall }
      // computedStates[k] is the state after stagedActionIds[k].
      var state: JSONValue?
      if position < computed.count {
        state = try FieldReader(
          computed[position], path: FieldPath([.key("computedStates"), .index(position)], entry: ordinal)
        ).required("state")
      }
      try append(action, wallTime: wall, skipped: skipped.contains(id), state: state)
    }
  }

  /// Appends one Flux Standard Action as an entry object.
  private mutating func append(
    _ flux: FieldReader, wallTime: Int64?, skipped: Bool, state: JSONValue?
  ) throws(JournalImportError) {
    let ordinal = entries.count
    guard ordinal < limits.maxEntries else {
      throw .tooLarge(entry: ordinal, field: flux.path.description, limit: limits.maxEntries)
    }
    let type = try flux.string("type")
    var sequence = previous + 1
    var context: String?
    var cause = JSONValue.object([JSONMember("kind", .string("user"))])
    var stopped = skipped
    var replayable = true
    if flux.contains("meta") {
      let meta = try flux.object("meta")
      if let value = meta.optional("replayable"), value == .bool(false) { replayable = false }
      if let seq = try meta.optionalInteger("seq", in: JournalNumberRange.sequences) { sequence = seq }
      context = try meta.optionalString("context")
      if meta.contains("cause") {
        let reader = try meta.object("cause")
        _ = try EntryFields.cause(reader, sequence: sequence)
        cause = try meta.required("cause")
      }
      if try meta.optionalString("outcome") == "stopped" { stopped = true }
    }
    if sequence == previous { throw .duplicateSequence(entry: ordinal, sequence: sequence) }
    if sequence < previous {
      throw .sequenceOutOfOrder(entry: ordinal, sequence: sequence, previous: previous)
    }
    previous = sequence
    let wall = wallTime ?? originWallNanos
    var members = [
      JSONMember("index", .integer(ordinal)), JSONMember("seq", .integer(sequence)),
      JSONMember("time", .integer(wall &- originWallNanos)), JSONMember("wallTime", .integer(wall)),
    ]
    if let context { members.append(JSONMember("context", .string(context))) }
    members += [
      JSONMember("cause", cause), JSONMember("type", .string(type)),
      JSONMember("action", try flux.required("payload")), JSONMember("replayable", .bool(replayable)),
      JSONMember("outcome", .string(stopped ? "stopped" : "reduced")),
      JSONMember("durations", .object([JSONMember("chain", .integer(0))])),
    ]
    if let state { members.append(JSONMember("state", state)) }
    entries.append(.object(members))
  }
}
