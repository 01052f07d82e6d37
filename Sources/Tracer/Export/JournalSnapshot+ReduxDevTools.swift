import ChronicleStore
import Foundation

/// The two import files of the Redux DevTools extension (see docs/formats/redux-devtools.md).
public enum ReduxDevToolsForm: Sendable, Hashable {
  /// `{"payload": "<JSON of the actions>", "preloadedState": "<JSON of the base state>"}`: the
  /// extension replays the actions with the page's reducer.
  case custom
  /// The extension's lifted state (`actionsById`, `computedStates`, `stagedActionIds`,
  /// `skippedActionIds`, `committedState`, `currentStateIndex`, `nextActionId`, `isLocked`,
  /// `isPaused`), with every state computed: it opens without a reducer.
  case liftedState
}

extension JournalSnapshot {
  /// The journal as a file for the Redux DevTools extension's import button.
  ///
  /// Each action becomes a Flux Standard Action: `{"type": "add", "payload": <the action>,
  /// "meta": {"seq", "index", "context", "cause", "replayable", "outcome"}}`, where `type` is the
  /// case name. Actions that are not `Encodable` are written by description with
  /// `"replayable": false`. Unlike the extension's own exports, states and actions pass through
  /// `options.redaction`.
  public func reduxDevTools(_ form: ReduxDevToolsForm, options: ExportOptions = ExportOptions()) -> Data {
    var stream = ExportStream()
    try? writeReduxDevTools(form, into: &stream, options: options)
    return stream.data
  }

  /// Writes the Redux DevTools import file to `url`, replacing it.
  ///
  /// The export is written to a new file beside `url` and renamed over it: a symbolic link at
  /// `url` is replaced rather than followed, and a failed export leaves the old file as it was.
  public func writeReduxDevTools(
    _ form: ReduxDevToolsForm, to url: URL, options: ExportOptions = ExportOptions()
  )
    throws(JournalExportError)
  {
    var stream = try ExportStream(creating: url)
    try writeReduxDevTools(form, into: &stream, options: options)
  }

  func writeReduxDevTools(
    _ form: ReduxDevToolsForm, into stream: inout ExportStream, options: ExportOptions
  )
    throws(JournalExportError)
  {
    let objects = JournalObjectWriter<State, Action>(redaction: options.redaction)
    let base = baseState.map(objects.state) ?? .null
    switch form {
    case .custom:
      // Both members are strings holding JSON: build them, then write them as strings.
      var payload = JSONWriter()
      payload.raw("[")
      for entry in entries {
        if entry.index > indices.lowerBound { payload.raw(",") }
        payload.write(fluxAction(entry, objects: objects))
      }
      payload.raw("]")
      stream.writer.raw(#"{"payload":"#)
      stream.writer.string(String(decoding: payload.bytes, as: UTF8.self))
      stream.writer.raw(#","preloadedState":"#)
      stream.writer.string(String(decoding: JSONWriter.serialize(base), as: UTF8.self))
      stream.writer.raw("}")
    case .liftedState:
      let count = self.count
      stream.writer.raw(#"{"actionsById":{"0":"#)
      stream.writer.write(
        liftedAction(.object([JSONMember("type", .string("@@INIT"))]), timestamp: metadata.origin))
      for entry in entries {
        stream.writer.raw(",")
        stream.writer.string(String(entry.index - indices.lowerBound + 1))
        stream.writer.raw(":")
        stream.writer.write(liftedAction(fluxAction(entry, objects: objects), timestamp: entry.wallTime))
        try stream.flushIfNeeded()
      }
      stream.writer.raw(#"},"computedStates":["#)
      stream.writer.write(.object([JSONMember("state", base)]))
      try forEachState { (_, state) throws(JournalExportError) in
        stream.writer.raw(",")
        stream.writer.write(.object([JSONMember("state", objects.state(state))]))
        try stream.flushIfNeeded()
      }
      stream.writer.raw(#"],"stagedActionIds":["#)
      for id in 0...count {
        if id > 0 { stream.writer.raw(",") }
        stream.writer.integer(id)
      }
      stream.writer.raw(#"],"skippedActionIds":[],"committedState":"#)
      stream.writer.write(base)
      stream.writer.raw(#","currentStateIndex":"#)
      stream.writer.integer(count)
      stream.writer.raw(#","nextActionId":"#)
      stream.writer.integer(count + 1)
      stream.writer.raw(#","isLocked":false,"isPaused":false}"#)
    }
    try stream.finish()
  }

  private func fluxAction(
    _ entry: JournalEntry<Action>, objects: JournalObjectWriter<State, Action>
  ) -> JSONValue {
    let (payload, replayable, name) = objects.action(entry.action)
    var meta: [JSONMember] = [
      JSONMember("seq", .integer(entry.sequence)), JSONMember("index", .integer(entry.index)),
    ]
    if let context = entry.context { meta.append(JSONMember("context", .string(context))) }
    meta.append(JSONMember("cause", objects.cause(entry.cause)))
    meta.append(JSONMember("replayable", .bool(replayable)))
    meta.append(JSONMember("outcome", .string(entry.outcome.rawValue)))
    return .object([
      JSONMember("type", .string(name)), JSONMember("payload", payload),
      JSONMember("meta", .object(meta)),
    ])
  }

  private func liftedAction(_ action: JSONValue, timestamp: Date) -> JSONValue {
    .object([
      JSONMember("type", .string("PERFORM_ACTION")), JSONMember("action", action),
      JSONMember("timestamp", .integer(Int64((timestamp.timeIntervalSince1970 * 1000).rounded()))),
    ])
  }
}
