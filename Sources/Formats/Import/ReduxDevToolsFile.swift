import ChronicleJSON
import ChronicleStore
import ChronicleTracer

/// The one reader of a Redux DevTools import file's structure, in either form
/// (docs/formats/redux-devtools.md), shared by `Journal(reduxDevTools:reducer:)` and
/// `JournalFile` so that both check the same things and throw the same errors with the same
/// paths.
///
/// Creating it checks the envelope and finds the base state; ``nextAction(rejectingUnreplayable:)``
/// then walks the actions in order, checking each one's fields and sequence number. What each
/// loader builds from them is its own.
struct ReduxDevToolsFile {
  /// The state before the first action, as JSON.
  let baseState: JSONValue
  /// Where ``baseState`` is in the file.
  let baseStatePath: FieldPath
  private let limits: JournalImportLimits
  private let form: Form
  /// The next element of `payload` (custom form) or `stagedActionIds` (lifted form) to read.
  private var position = 0
  private var ordinal = 0
  private var previousSequence: UInt64 = 0
  private var seenIDs = Set<Int>()

  private enum Form {
    /// The actions of `payload`, a JSON text in the file.
    case custom([JSONValue])
    case lifted(actionsById: FieldReader, staged: [JSONValue], skipped: Set<Int>, computed: [JSONValue])
  }

  /// Whether the file is in the lifted form, which holds the state after each action.
  var isLifted: Bool {
    if case .lifted = form { return true }
    return false
  }

  /// Reads the envelope of the file whose root object is `root`.
  init(_ root: FieldReader, limits: JournalImportLimits) throws(JournalImportError) {
    self.limits = limits
    if root.contains("payload") {
      let actions = try Self.parse(root.string("payload"), path: FieldPath([.key("payload")]), limits: limits)
      guard case .array(let list) = actions else {
        throw .wrongType(entry: nil, field: "payload", expected: "array", found: actions.typeName)
      }
      guard let preloaded = try root.optionalString("preloadedState") else {
        throw .missingField(entry: nil, field: "preloadedState")
      }
      baseStatePath = FieldPath([.key("preloadedState")])
      baseState = try Self.parse(preloaded, path: baseStatePath, limits: limits)
      form = .custom(list)
    } else if root.contains("actionsById") {
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
        baseStatePath = FieldPath([.key("committedState")])
        baseState = committed
      } else if let first = computed.first {
        baseStatePath = FieldPath([.key("computedStates"), .index(0), .key("state")])
        baseState = try FieldReader(first, path: FieldPath([.key("computedStates"), .index(0)])).required(
          "state")
      } else {
        throw .missingField(entry: nil, field: "committedState")
      }
      form = .lifted(actionsById: actionsById, staged: staged, skipped: skipped, computed: computed)
    } else {
      throw .wrongFormat(expected: "Redux DevTools import file", found: nil)
    }
  }

  private static func parse(
    _ text: String, path: FieldPath, limits: JournalImportLimits
  ) throws(JournalImportError) -> JSONValue {
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

  /// The next action of the file, `nil` after the last; the lifted form's `@@` actions (the
  /// extension's own, such as `@@INIT`) are passed over.
  ///
  /// With `rejectingUnreplayable`, an action whose `meta` says it is not replayable throws
  /// ``JournalImportError/notReplayable(entry:field:)``: a journal must be able to reduce it.
  mutating func nextAction(rejectingUnreplayable: Bool) throws(JournalImportError) -> ReduxDevToolsAction? {
    switch form {
    case .custom(let list):
      guard position < list.count else { return nil }
      let path = FieldPath([.key("payload"), .index(position)], entry: ordinal)
      try checkCount(path: path)
      position += 1
      return try action(
        FieldReader(list[position - 1], path: path), stagedPosition: nil, wallTime: nil, skipped: false,
        rejectingUnreplayable: rejectingUnreplayable)
    case .lifted(let actionsById, let staged, let skipped, _):
      while position < staged.count {
        let current = position
        position += 1
        let id: Int = try FieldReader.integer(
          staged[current], path: FieldPath([.key("stagedActionIds"), .index(current)]))
        guard seenIDs.insert(id).inserted else {
          throw .invalidValue(
            entry: nil, field: "stagedActionIds[\(current)]", reason: "action id \(id) is staged twice")
        }
        let liftedPath = FieldPath([.key("actionsById"), .key(String(id))], entry: ordinal)
        guard let lifted = actionsById.optional(named: String(id)) else {
          throw .missingField(entry: ordinal, field: liftedPath.description)
        }
        let liftedReader = try FieldReader(lifted, path: liftedPath)
        let flux = try liftedReader.object("action")
        if try flux.string("type").hasPrefix("@@") { continue }
        // Milliseconds: within the range of wall times once in nanoseconds.
        let timestamp = try liftedReader.optionalInteger(
          "timestamp",
          in: -(JournalNumberRange.maxTime / 1_000_000)...(JournalNumberRange.maxTime / 1_000_000))
        try checkCount(path: flux.path)
        return try action(
          flux, stagedPosition: current, wallTime: timestamp.map { $0 * 1_000_000 },
          skipped: skipped.contains(id), rejectingUnreplayable: rejectingUnreplayable)
      }
      return nil
    }
  }

  /// The state the extension computed after the action at `stagedPosition` of `stagedActionIds`,
  /// and where it is; `nil` when the file holds none (custom form, or fewer computed states).
  /// `entry` is the entry an error names.
  func computedState(
    at stagedPosition: Int, entry: Int
  ) throws(JournalImportError) -> (value: JSONValue, path: FieldPath)? {
    guard case .lifted(_, _, _, let computed) = form, stagedPosition >= 0, stagedPosition < computed.count
    else { return nil }
    let path = FieldPath([.key("computedStates"), .index(stagedPosition)], entry: entry)
    return (try FieldReader(computed[stagedPosition], path: path).required("state"), path.appending("state"))
  }

  private func checkCount(path: FieldPath) throws(JournalImportError) {
    guard ordinal < limits.maxEntries else {
      throw .tooLarge(entry: ordinal, field: path.description, limit: limits.maxEntries)
    }
  }

  /// Reads one Flux Standard Action and the journal fields its `meta` restores.
  private mutating func action(
    _ flux: FieldReader, stagedPosition: Int?, wallTime: Int64?, skipped: Bool, rejectingUnreplayable: Bool
  ) throws(JournalImportError) -> ReduxDevToolsAction {
    let type = try flux.string("type")
    var sequence = previousSequence + 1
    var context: String?
    var cause = Cause.user
    var causeJSON = JSONValue.object([JSONMember("kind", .string("user"))])
    var stopped = skipped
    var replayable = true
    var site: RecordedCallSite?
    var effectSite: RecordedCallSite?
    if flux.contains("meta") {
      let meta = try flux.object("meta")
      if let value = meta.optional("replayable"), value == .bool(false) {
        if rejectingUnreplayable {
          throw .notReplayable(entry: ordinal, field: flux.path.appending("payload").description)
        }
        replayable = false
      }
      if let seq = try meta.optionalInteger("seq", in: JournalNumberRange.sequences) { sequence = seq }
      context = try meta.optionalString("context")
      if meta.contains("cause") {
        cause = try EntryFields.cause(meta.object("cause"), sequence: sequence)
        causeJSON = try meta.required("cause")
      }
      if try meta.optionalString("outcome") == "stopped" { stopped = true }
      if meta.contains("site") { site = try EntryFields.site(meta.object("site")) }
      if meta.contains("effectSite") { effectSite = try EntryFields.site(meta.object("effectSite")) }
    }
    if sequence == previousSequence { throw .duplicateSequence(entry: ordinal, sequence: sequence) }
    if sequence < previousSequence {
      throw .sequenceOutOfOrder(entry: ordinal, sequence: sequence, previous: previousSequence)
    }
    previousSequence = sequence
    let action = ReduxDevToolsAction(
      ordinal: ordinal, stagedPosition: stagedPosition, flux: flux, type: type, sequence: sequence,
      context: context, cause: cause, causeJSON: causeJSON, wallTime: wallTime, replayable: replayable,
      stopped: stopped, site: site, effectSite: effectSite)
    ordinal += 1
    return action
  }
}

/// One action of a Redux DevTools file, checked, with the journal fields it carries.
struct ReduxDevToolsAction {
  /// Its index among the actions read (the `@@` ones left out): its entry's ordinal.
  let ordinal: Int
  /// Its place in `stagedActionIds` (lifted form); `nil` in the custom form.
  let stagedPosition: Int?
  /// The Flux Standard Action: `type`, `payload`, `meta`.
  let flux: FieldReader
  let type: String
  let sequence: UInt64
  let context: String?
  let cause: Cause
  /// ``cause`` as the file writes it.
  let causeJSON: JSONValue
  /// Its wall-clock time in nanoseconds, when the file holds one (lifted form).
  let wallTime: Int64?
  let replayable: Bool
  /// Skipped in the extension, or recorded as stopped.
  let stopped: Bool
  /// Where it was sent and where the effect that sent it was created, from `meta`.
  let site: RecordedCallSite?
  let effectSite: RecordedCallSite?

  /// The action itself, as JSON.
  func payload() throws(JournalImportError) -> JSONValue { try flux.required("payload") }
}
