import ChronicleInspection
import ChronicleJSON
import ChronicleStore
import ChronicleTracer
import Foundation

/// The names and shapes shared by the Journal JSON and NDJSON formats (docs/formats/).
enum JournalWireFormat {
  static let journalFormat = "chronicle.journal"
  static let streamFormat = "chronicle.journal.ndjson"
  static let version = 1
}

/// Builds the JSON objects of the journal formats: meta, entries, effect events.
///
/// Usable from inlinable code: the NDJSON sink forms its line formatting in the client, where
/// ``writeEntry(_:checkpoint:stateAfter:redactedChanges:into:)`` is specialized for the
/// client's types (unspecialized, each generic value it touched looked up its type's metadata).
@usableFromInline
struct JournalObjectWriter<State: Sendable, Action: Sendable> {
  let encoder: ExportEncoder
  @usableFromInline let namer = ActionNamer()
  @usableFromInline let actions: ValueEncoding<Action>
  private let states: ValueEncoding<State>
  /// Where an entry's action is written before its line, which names its case first.
  @usableFromInline let scratch = ScratchWriter()

  init(redaction: Redaction) {
    encoder = ExportEncoder(redaction: redaction)
    actions = encoder.encoding(of: Action.self, selfWriting: JournalJSONWriter.selfWriting(Action.self))
    states = encoder.encoding(of: State.self, selfWriting: JournalJSONWriter.selfWriting(State.self))
  }

  /// The first difference found between the actions' or states' own JSON
  /// (``JournalJSONWritable``) and their `Encodable` conformance's; `nil` while there is none.
  var journalJSONMismatch: JournalJSONMismatch? {
    guard let found = actions.selfWritingCheck?.mismatch ?? states.selfWritingCheck?.mismatch else {
      return nil
    }
    return JournalJSONMismatch(
      offset: found.offset, expected: String(decoding: found.expected, as: UTF8.self), reason: .differs)
  }

  /// The action's encoding (or description), whether it is replayable, and its case name.
  func action(_ action: Action) -> (json: JSONValue, replayable: Bool, name: String) {
    let (json, replayable) = actions.encode(action)
    return (json, replayable, namer.name(of: action, encoded: replayable ? json : nil))
  }

  func meta(_ metadata: JournalMetadata, counts: (firstIndex: Int, entries: Int, effects: Int)?) -> JSONValue
  {
    var members: [JSONMember] = [
      JSONMember("state", fingerprint(metadata.state, encodable: State.self is any Encodable.Type)),
      JSONMember("action", fingerprint(metadata.action, encodable: Action.self is any Encodable.Type)),
      JSONMember(
        "origin",
        .object([
          JSONMember("wallTime", .integer(wallNanoseconds(metadata.origin))),
          JSONMember(
            "iso8601",
            .string(Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(metadata.origin))),
        ])),
      JSONMember("checkpointInterval", .integer(metadata.checkpointInterval)),
    ]
    if let counts {
      members.append(JSONMember("firstIndex", .integer(counts.firstIndex)))
      members.append(JSONMember("entryCount", .integer(counts.entries)))
      members.append(JSONMember("effectCount", .integer(counts.effects)))
    }
    return .object(members)
  }

  private func fingerprint(_ fingerprint: TypeFingerprint, encodable: Bool) -> JSONValue {
    var members = [JSONMember("type", .string(fingerprint.name))]
    if let shape = fingerprint.shape { members.append(JSONMember("shape", .string(shape))) }
    members.append(JSONMember("encodable", .bool(encodable)))
    return .object(members)
  }

  /// Writes ``cause(_:)``'s object.
  @inlinable
  func writeCause(_ cause: Cause, into writer: inout JSONWriter) {
    writer.raw(#"{"kind":"#)
    writer.string(cause.kind.rawValue)
    if let parent = cause.parent {
      writer.raw(#","parent":"#)
      writer.integer(parent)
    }
    if let effect = cause.effect {
      writer.raw(#","effect":"#)
      writer.integer(effect)
    }
    if let label = cause.label {
      writer.raw(#","label":"#)
      writer.string(label)
    }
    writer.raw("}")
  }

  func cause(_ cause: Cause) -> JSONValue {
    var members = [JSONMember("kind", .string(cause.kind.rawValue))]
    if let parent = cause.parent { members.append(JSONMember("parent", .integer(parent))) }
    if let effect = cause.effect { members.append(JSONMember("effect", .integer(effect))) }
    if let label = cause.label { members.append(JSONMember("label", .string(label))) }
    return .object(members)
  }

  func state(_ state: State) -> JSONValue {
    states.encode(state).json
  }

  /// The state's JSON; with a tracker, the state's redacted parts become the ones the next
  /// state is compared with.
  func state(_ state: State, startingChangesOf tracker: RedactedChangeTracker?) -> JSONValue {
    guard let tracker else { return self.state(state) }
    let (json, parts) = encoder.encodeRecordingRedactions(state)
    tracker.start(with: parts)
    return json
  }

  /// Writes an entry object. Written member by member rather than built as a tree: an export
  /// writes a million of them.
  ///
  /// With `redactedChanges`, which saw the state before this entry, an entry written with its
  /// `state` lists the places of the redacted values that changed in `redactedChanges`.
  @inlinable
  func writeEntry(
    _ entry: JournalEntry<Action>, checkpoint: JournalCheckpoint<State>?, stateAfter: State?,
    redactedChanges: RedactedChangeTracker? = nil, into writer: inout JSONWriter
  ) {
    scratch.writer.removeAll()
    let (replayable, singleKey) = actions.write(entry.action, into: &scratch.writer)
    let name = namer.name(of: entry.action, singleKey: replayable ? singleKey : nil)
    // The fixed members make their room once per run of them (see `JSONWriter.rawReserved`).
    writer.reserve(Self.headRoom)
    writer.rawReserved(#"{"index":"#)
    writer.integerReserved(entry.index)
    writer.rawReserved(#","seq":"#)
    writer.integerReserved(entry.sequence)
    writer.rawReserved(#","time":"#)
    writer.integerReserved(nanoseconds(entry.time))
    writer.rawReserved(#","wallTime":"#)
    writer.integerReserved(wallNanoseconds(entry.wallTime))
    if let context = entry.context {
      writer.raw(#","context":"#)
      writer.string(context)
    }
    writer.raw(#","cause":"#)
    writeCause(entry.cause, into: &writer)
    writer.raw(#","type":"#)
    writer.string(name)
    writer.raw(#","action":"#)
    writer.append(scratch.writer)
    switch (replayable, entry.outcome) {
    case (true, .reduced): writer.raw(#","replayable":true,"outcome":"reduced""#)
    case (true, .stopped): writer.raw(#","replayable":true,"outcome":"stopped""#)
    case (false, .reduced): writer.raw(#","replayable":false,"outcome":"reduced""#)
    case (false, .stopped): writer.raw(#","replayable":false,"outcome":"stopped""#)
    }
    writer.reserve(Self.durationsRoom)
    writer.rawReserved(#","durations":{"chain":"#)
    writer.integerReserved(nanoseconds(entry.chainDuration))
    if let reducer = entry.reducerDuration {
      writer.rawReserved(#","reducer":"#)
      writer.integerReserved(nanoseconds(reducer))
    }
    if let offset = entry.reducerOffset {
      writer.rawReserved(#","reducerOffset":"#)
      writer.integerReserved(nanoseconds(offset))
    }
    writer.rawReserved("}")
    if let site = entry.site {
      writer.raw(#","site":"#)
      writeSite(site, remembering: scratch.site, into: &writer)
    }
    if let site = entry.effectSite {
      writer.raw(#","effectSite":"#)
      writeSite(site, remembering: scratch.effectSite, into: &writer)
    }
    if checkpoint != nil || stateAfter != nil {
      writeStates(
        checkpoint: checkpoint, stateAfter: stateAfter, redactedChanges: redactedChanges, into: &writer)
    }
    writer.raw("}")
  }

  /// The most bytes of an entry's members from `{"index":` to its wall time: their names and
  /// four integers.
  @usableFromInline static var headRoom: Int {
    // `{"index":,"seq":,"time":,"wallTime":` is 36 bytes.
    36 + 4 * DecimalDigits.maxCount
  }

  /// The most bytes of an entry's durations: their names, three integers and the closing brace.
  @usableFromInline static var durationsRoom: Int {
    // `,"durations":{"chain":,"reducer":,"reducerOffset":}` is 51 bytes.
    51 + 3 * DecimalDigits.maxCount
  }

  /// Writes an entry's checkpoint and state members: rare in a stream, left out of line.
  @usableFromInline
  func writeStates(
    checkpoint: JournalCheckpoint<State>?, stateAfter: State?, redactedChanges: RedactedChangeTracker?,
    into writer: inout JSONWriter
  ) {
    if let checkpoint {
      writer.raw(#","checkpoint":{"kind":"#)
      writer.string(checkpoint.kind.rawValue)
      writer.raw(#","state":"#)
      writer.write(state(checkpoint.state, startingChangesOf: redactedChanges))
      writer.raw("}")
    }
    if let stateAfter, let redactedChanges {
      let (json, parts) = encoder.encodeRecordingRedactions(stateAfter)
      let changed = redactedChanges.changes(to: parts)
      if !changed.isEmpty {
        writer.raw(#","redactedChanges":"#)
        writer.write(.array(changed.map { StatePatch(path: $0, value: nil).pathJSON }))
      }
      writer.raw(#","state":"#)
      writer.write(json)
    } else if let stateAfter {
      writer.raw(#","state":"#)
      writer.write(state(stateAfter))
    }
  }

  /// A call site object, as ``writeSite(_:into:)`` writes it.
  func site(_ site: RecordedCallSite) -> JSONValue {
    .object([
      JSONMember("fileID", .string(site.fileID)), JSONMember("line", .integer(site.line)),
      JSONMember("function", .string(site.function)),
    ])
  }

  /// Writes a call site object: `{"fileID":"Module/File.swift","line":42,"function":"body"}`.
  @usableFromInline
  func writeSite(_ site: RecordedCallSite, into writer: inout JSONWriter) {
    writer.raw(#"{"fileID":"#)
    writer.string(site.fileID)
    writer.raw(#","line":"#)
    writer.integer(site.line)
    writer.raw(#","function":"#)
    writer.string(site.function)
    writer.raw("}")
  }

  /// Writes ``writeSite(_:into:)``'s object, copying the bytes `recent` kept when it wrote the
  /// same site lately: an app sends most of its actions from a few lines, and a site's strings
  /// (compared by their storage first) need not be scanned and escaped again.
  @usableFromInline
  func writeSite(_ site: RecordedCallSite, remembering recent: RecentSites, into writer: inout JSONWriter) {
    let slot = site.line & (RecentSites.slotCount - 1)
    if let known = recent.sites[slot], known.line == site.line, known.fileID == site.fileID,
      known.function == site.function
    {
      writer.append(recent.objects[slot])
      return
    }
    recent.objects[slot].removeAll()
    writeSite(site, into: &recent.objects[slot])
    recent.sites[slot] = site
    writer.append(recent.objects[slot])
  }

  /// Writes ``event(_:)``'s object.
  @usableFromInline
  func writeEvent(_ event: JournalEffectEvent, into writer: inout JSONWriter) {
    writer.raw(#"{"effect":"#)
    writer.integer(event.effect)
    switch event.phase {
    case .started: writer.raw(#","phase":"started""#)
    case .finished: writer.raw(#","phase":"finished""#)
    case .cancelled: writer.raw(#","phase":"cancelled""#)
    case .failed:
      writer.raw(#","phase":"failed","error":"#)
      writer.string(event.failureDescription(redaction: encoder.redaction) ?? "")
    }
    writer.raw(#","time":"#)
    writer.integer(nanoseconds(event.time))
    writer.raw(#","position":"#)
    writer.integer(event.position)
    writer.raw(#","cause":"#)
    writeCause(event.cause, into: &writer)
    writer.raw(#","ids":["#)
    for (position, id) in event.ids.enumerated() {
      if position > 0 { writer.raw(",") }
      writer.string(id)
    }
    writer.raw("]}")
  }

  func event(_ event: JournalEffectEvent) -> JSONValue {
    var members: [JSONMember] = [JSONMember("effect", .integer(event.effect))]
    switch event.phase {
    case .started: members.append(JSONMember("phase", .string("started")))
    case .finished: members.append(JSONMember("phase", .string("finished")))
    case .cancelled: members.append(JSONMember("phase", .string("cancelled")))
    case .failed:
      members.append(JSONMember("phase", .string("failed")))
      members.append(
        JSONMember("error", .string(event.failureDescription(redaction: encoder.redaction) ?? "")))
    }
    members.append(JSONMember("time", .integer(nanoseconds(event.time))))
    members.append(JSONMember("position", .integer(event.position)))
    members.append(JSONMember("cause", cause(event.cause)))
    members.append(JSONMember("ids", .array(event.ids.map { .string($0) })))
    return .object(members)
  }
}

/// Byte buffers kept from one entry to the next.
@usableFromInline
final class ScratchWriter {
  // Used by one thread at a time, never re-entered: no run-time exclusivity check.
  @usableFromInline @exclusivity(unchecked) var writer = JSONWriter(capacity: 256)
  /// The entries' recent call sites and effect sites, with their objects' bytes.
  @usableFromInline let site = RecentSites()
  @usableFromInline let effectSite = RecentSites()

  init() {}
}

/// The call sites written lately, with their objects' bytes (see
/// `JournalObjectWriter.writeSite(_:remembering:into:)`): one slot per line number modulo
/// ``slotCount``, so that the sites of a few lines sending in turn each keep theirs.
@usableFromInline
final class RecentSites {
  @usableFromInline static var slotCount: Int { 8 }
  // Used as its `ScratchWriter` is.
  @usableFromInline @exclusivity(unchecked) var sites = [RecordedCallSite?](repeating: nil, count: slotCount)
  @usableFromInline @exclusivity(unchecked) var objects: [JSONWriter] = (0..<slotCount).map { _ in
    JSONWriter(capacity: 128)
  }

  init() {}
}

/// A wall-clock time as nanoseconds since 1970, within the formats' range of times: a `Date`
/// holds a `Double`, whose rounding can take a time at the edge of the range just past it, and
/// converting a `Double` beyond `Int64` would trap.
@usableFromInline
func wallNanoseconds(_ date: Date) -> Int64 {
  let nanoseconds = (date.timeIntervalSince1970 * 1e9).rounded()
  let limit = JournalNumberRange.maxTime
  if nanoseconds.isNaN { return 0 }
  if nanoseconds >= Double(limit) { return limit }
  if nanoseconds <= -Double(limit) { return -limit }
  return Int64(nanoseconds)
}

/// A duration as whole nanoseconds, rounded toward zero.
@inlinable
func nanoseconds(_ duration: Duration) -> Int64 {
  if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
    // A duration under nine seconds (an action's chain and reducer) has its attoseconds in 64
    // bits, which divide with a multiplication; `components` divides 128 bits, twice a line's
    // share of the sink's time on durations.
    let attoseconds = duration.attoseconds
    if let narrow = Int64(exactly: attoseconds) { return narrow / 1_000_000_000 }
    return Int64(truncatingIfNeeded: attoseconds / 1_000_000_000)
  }
  let (seconds, attoseconds) = duration.components
  return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
}
