import ChronicleJSON
import ChronicleStore
import ChronicleTracer

extension JournalFile {
  /// A document read from a Redux DevTools import file in either form (docs/formats/redux-devtools.md),
  /// read by the same ``ReduxDevToolsFile`` as `Journal(reduxDevTools:reducer:)`, so with the same
  /// errors and field paths, but keeping actions and states as JSON.
  ///
  /// The custom form holds the base state and the actions; the lifted form also holds the state
  /// after every action, which becomes each entry's state. Neither holds monotonic times or
  /// durations: an entry's time is its wall-clock time (lifted form) since the first one, or 0.
  static func reduxDevTools(
    _ root: FieldReader, limits: JournalImportLimits
  ) throws(JournalImportError)
    -> JournalFile
  {
    var file = try ReduxDevToolsFile(root, limits: limits)
    var originWallNanos: Int64 = 0
    var entries: [JSONValue] = []
    while let action = try file.nextAction(rejectingUnreplayable: false) {
      if action.ordinal == 0, let wall = action.wallTime { originWallNanos = wall }
      // computedStates[k] is the state after stagedActionIds[k].
      var state: (value: JSONValue, path: FieldPath)?
      if let position = action.stagedPosition {
        state = try file.computedState(at: position, entry: action.ordinal)
      }
      let wall = action.wallTime ?? originWallNanos
      var members = [
        JSONMember("index", .integer(action.ordinal)), JSONMember("seq", .integer(action.sequence)),
        JSONMember("time", .integer(wall &- originWallNanos)), JSONMember("wallTime", .integer(wall)),
      ]
      if let context = action.context { members.append(JSONMember("context", .string(context))) }
      members += [
        JSONMember("cause", action.causeJSON), JSONMember("type", .string(action.type)),
        JSONMember("action", try action.payload()), JSONMember("replayable", .bool(action.replayable)),
        JSONMember("outcome", .string(action.stopped ? "stopped" : "reduced")),
        JSONMember("durations", .object([JSONMember("chain", .integer(0))])),
      ]
      if let state { members.append(JSONMember("state", state.value)) }
      entries.append(.object(members))
    }
    let meta = JSONValue.object([
      JSONMember("origin", .object([JSONMember("wallTime", .integer(originWallNanos))])),
      JSONMember("checkpointInterval", .integer(100)),
      JSONMember("firstIndex", .integer(0)),
      JSONMember("entryCount", .integer(entries.count)),
      JSONMember("effectCount", .integer(0)),
    ])
    var document = try JournalFile(meta: meta, baseState: file.baseState, entries: entries, effects: [])
    document.listsRedactedChanges = false
    return document
  }
}
