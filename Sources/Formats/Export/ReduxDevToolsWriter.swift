import ChronicleJSON
import ChronicleStore
import ChronicleTracer

/// What a Redux DevTools file is written from: a recorded journal (its values redacted as the
/// export says) or a ``JournalFile`` read from a file. One writer lays either out, so the
/// library's export and `chronicle convert --to redux` write the same file.
protocol ReduxDevToolsInput {
  /// The number of entries.
  var entryCount: Int { get }
  /// The entry at a position (0 is the first entry held) as a Flux Standard Action:
  /// `{"type", "payload", "meta": {"seq", "index", "context", "cause", "replayable", "outcome"}}`.
  func fluxAction(at position: Int) -> JSONValue
  /// The entry's wall-clock time, nanoseconds since 1970.
  func wallNanos(at position: Int) -> Int64
  /// Where the entry's action was sent and where the effect that sent it was created, for the
  /// lifted action's `stack`.
  func sites(at position: Int) -> (site: RecordedCallSite?, effectSite: RecordedCallSite?)
  /// The origin's wall-clock time, nanoseconds since 1970.
  var originWallNanos: Int64 { get }
  /// The state before the first entry.
  var baseState: JSONValue { get }
  /// Calls `body` with the state after each entry, in order.
  func forEachState(_ body: (JSONValue) throws(JournalExportError) -> Void) throws(JournalExportError)
}

/// Writes the two Redux DevTools import files (docs/formats/redux-devtools.md), refusing to go
/// past `maxBytes`.
struct ReduxDevToolsWriter<Input: ReduxDevToolsInput> {
  let input: Input
  let maxBytes: Int?

  func write(_ form: ReduxDevToolsForm, into stream: inout ExportStream) throws(JournalExportError) {
    switch form {
    case .custom:
      // Both members are strings holding JSON: build them, then write them as strings.
      var payload = JSONWriter()
      payload.raw("[")
      for position in 0..<input.entryCount {
        if position > 0 { payload.raw(",") }
        payload.write(input.fluxAction(at: position))
        try check(payload.count)
      }
      payload.raw("]")
      stream.writer.raw(#"{"payload":"#)
      stream.writer.string(String(decoding: payload.bytes, as: UTF8.self))
      stream.writer.raw(#","preloadedState":"#)
      stream.writer.string(String(decoding: JSONWriter.serialize(input.baseState), as: UTF8.self))
      stream.writer.raw("}")
      try check(stream.byteCount)
    case .liftedState:
      let count = input.entryCount
      stream.writer.raw(#"{"actionsById":{"0":"#)
      stream.writer.write(
        liftedAction(.object([JSONMember("type", .string("@@INIT"))]), wallNanos: input.originWallNanos))
      for position in 0..<count {
        stream.writer.raw(",")
        stream.writer.string(String(position + 1))
        stream.writer.raw(":")
        stream.writer.write(
          liftedAction(
            input.fluxAction(at: position), wallNanos: input.wallNanos(at: position),
            sites: input.sites(at: position)))
        try next(&stream)
      }
      stream.writer.raw(#"},"computedStates":["#)
      stream.writer.write(.object([JSONMember("state", input.baseState)]))
      try input.forEachState { (state) throws(JournalExportError) in
        stream.writer.raw(",")
        stream.writer.write(.object([JSONMember("state", state)]))
        try next(&stream)
      }
      stream.writer.raw(#"],"stagedActionIds":["#)
      for id in 0...count {
        if id > 0 { stream.writer.raw(",") }
        stream.writer.integer(id)
      }
      stream.writer.raw(#"],"skippedActionIds":[],"committedState":"#)
      stream.writer.write(input.baseState)
      stream.writer.raw(#","currentStateIndex":"#)
      stream.writer.integer(count)
      stream.writer.raw(#","nextActionId":"#)
      stream.writer.integer(count + 1)
      stream.writer.raw(#","isLocked":false,"isPaused":false}"#)
      try check(stream.byteCount)
    }
    try stream.finish()
  }

  private func next(_ stream: inout ExportStream) throws(JournalExportError) {
    try check(stream.byteCount)
    try stream.flushIfNeeded()
  }

  private func check(_ bytes: Int) throws(JournalExportError) {
    if let maxBytes, bytes > maxBytes { throw .tooLarge(format: "Redux DevTools", limit: maxBytes) }
  }

  /// The extension's record of a performed action; `timestamp` is milliseconds since 1970.
  private func liftedAction(
    _ action: JSONValue, wallNanos: Int64,
    sites: (site: RecordedCallSite?, effectSite: RecordedCallSite?) = (nil, nil)
  ) -> JSONValue {
    var members = [
      JSONMember("type", .string("PERFORM_ACTION")), JSONMember("action", action),
      JSONMember("timestamp", .integer(wallNanos.dividedRoundingDown(by: 1_000_000))),
    ]
    if let stack = Self.stack(sites.site, sites.effectSite) {
      members.append(JSONMember("stack", .string(stack)))
    }
    return .object(members)
  }

  /// The `stack` the extension's Trace tab reads: one V8-style frame per site, the `send` first
  /// and the effect that sent it second (`    at body (Counter/CounterView.swift:42)`), which its
  /// parser (react-error-overlay's `parser.ts`) reads as function, file and line.
  static func stack(_ site: RecordedCallSite?, _ effectSite: RecordedCallSite?) -> String? {
    let frames = [site, effectSite].compactMap { $0 }
    if frames.isEmpty { return nil }
    var stack = "Error"
    for frame in frames {
      let function = frame.function.isEmpty ? "<anonymous>" : frame.function.filter { !$0.isWhitespace }
      stack += "\n    at \(function) (\(frame.fileID):\(frame.line))"
    }
    return stack
  }
}

extension Int64 {
  /// The quotient rounded toward negative infinity.
  fileprivate func dividedRoundingDown(by divisor: Int64) -> Int64 {
    let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
    return remainder < 0 ? quotient - 1 : quotient
  }
}
