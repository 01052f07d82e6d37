import ChronicleJSON
import ChronicleStore
import ChronicleTracer

/// The ranges of the numbers in the journal formats (docs/formats/journal-json.md, "Number
/// ranges"). Every loader — the typed importers and ``JournalFile`` — refuses a number
/// outside its range with ``JournalImportError/numberOutOfRange(entry:field:value:)``, so that
/// nothing computed from an imported journal (a next index, a span's end, a difference of two
/// times, a wall time as a `Date`) can overflow.
enum JournalNumberRange {
  /// The largest entry index, position, sequence number and effect id: 2^53 − 1, the largest
  /// integer a JavaScript number (the viewer's) holds exactly, and far enough from `Int.max` that
  /// a next index or a count never overflows.
  static let maxCount = (1 << 53) - 1
  /// The largest magnitude of a time, monotonic or wall-clock, in nanoseconds: 2^62 − 1 (wall
  /// times from 1823 to 2116), so that the difference of any two times fits in `Int64`.
  static let maxTime: Int64 = (1 << 62) - 1

  static var indices: ClosedRange<Int> { 0...maxCount }
  static var sequences: ClosedRange<UInt64> { 1...UInt64(maxCount) }
  static var times: ClosedRange<Int64> { -maxTime...maxTime }
  /// A call site's line: from 1, and within `UInt32`, as `CallSite` keeps it.
  static var siteLines: ClosedRange<Int> { 1...Int(UInt32.max) }
}

extension FieldReader {
  /// An integer within `range`.
  func integer<Integer: FixedWidthInteger>(
    _ key: String, in range: ClosedRange<Integer>
  ) throws(JournalImportError) -> Integer {
    try Self.integer(required(key), path: path.appending(key), in: range)
  }

  /// An integer within `range`, `nil` when absent.
  func optionalInteger<Integer: FixedWidthInteger>(
    _ key: String, in range: ClosedRange<Integer>
  ) throws(JournalImportError) -> Integer? {
    guard let value = optional(key) else { return nil }
    return try Self.integer(value, path: path.appending(key), in: range)
  }

  /// An integer within `range`: out of it (or out of `Integer`'s own range) is
  /// ``JournalImportError/numberOutOfRange(entry:field:value:)``.
  static func integer<Integer: FixedWidthInteger>(
    _ value: JSONValue, path: @autoclosure () -> FieldPath, in range: ClosedRange<Integer>
  ) throws(JournalImportError) -> Integer {
    let integer: Integer = try integer(value, path: path())
    guard range.contains(integer) else {
      let path = path()
      throw .numberOutOfRange(
        entry: path.entryIndex, field: path.description,
        value: "\(integer) (valid: \(range.lowerBound)…\(range.upperBound))")
    }
    return integer
  }
}

/// The envelope of an entry object (everything but its action and states), read and checked the
/// same way by every loader: the typed importers through `JournalBuilder`, and
/// ``JournalFile``.
@usableFromInline
struct EntryFields {
  @usableFromInline var index: Int
  @usableFromInline var sequence: UInt64
  @usableFromInline var time: Int64
  @usableFromInline var wallTime: Int64
  @usableFromInline var context: String?
  @usableFromInline var cause: Cause
  /// Where the action was sent, and where the effect that sent it was created: optional members,
  /// absent from files written before call sites were recorded.
  @usableFromInline var site: RecordedCallSite?
  @usableFromInline var effectSite: RecordedCallSite?
  @usableFromInline var stopped: Bool
  @usableFromInline var chainNanos: UInt32
  /// `EntryRecord.unknownDuration` when absent.
  @usableFromInline var reducerNanos: UInt32
  @usableFromInline var reducerOffsetNanos: UInt32
  /// The checkpoint's kind, `nil` when the entry has none.
  @usableFromInline var checkpointIsResync: Bool?

  static let unknownDuration = EntryNumbers.unknownDuration

  init(_ reader: FieldReader) throws(JournalImportError) {
    index = try reader.integer("index", in: JournalNumberRange.indices)
    sequence = try reader.integer("seq", in: JournalNumberRange.sequences)
    time = try reader.integer("time", in: JournalNumberRange.times)
    wallTime = try reader.integer("wallTime", in: JournalNumberRange.times)
    context = try reader.optionalString("context")
    cause = try Self.cause(reader.object("cause"), sequence: sequence)
    site = try reader.contains("site") ? Self.site(reader.object("site")) : nil
    effectSite = try reader.contains("effectSite") ? Self.site(reader.object("effectSite")) : nil
    let outcome = try reader.string("outcome")
    switch outcome {
    case "reduced": stopped = false
    case "stopped": stopped = true
    default:
      let field = reader.path.appending("outcome")
      throw .invalidValue(
        entry: field.entryIndex, field: field.description,
        reason: "expected \"reduced\" or \"stopped\", found \(outcome.debugDescription)")
    }
    let durations = try reader.object("durations")
    chainNanos = try Self.duration(durations, "chain")
    reducerNanos =
      try durations.contains("reducer") ? Self.duration(durations, "reducer") : Self.unknownDuration
    reducerOffsetNanos =
      try durations.contains("reducerOffset")
      ? Self.duration(durations, "reducerOffset") : Self.unknownDuration
    if reader.contains("checkpoint") {
      let checkpoint = try reader.object("checkpoint")
      let kind = try checkpoint.string("kind")
      guard kind == "interval" || kind == "resync" else {
        let field = checkpoint.path.appending("kind")
        throw .invalidValue(
          entry: field.entryIndex, field: field.description,
          reason: "expected \"interval\" or \"resync\", found \(kind.debugDescription)")
      }
      _ = try checkpoint.required("state")
      checkpointIsResync = kind == "resync"
    } else {
      checkpointIsResync = nil
    }
  }

  private static func duration(_ reader: FieldReader, _ key: String) throws(JournalImportError) -> UInt32 {
    try reader.integer(key, in: 0...(unknownDuration - 1))
  }

  /// A call site object: `fileID`, `line` (from 1) and `function`.
  static func site(_ reader: FieldReader) throws(JournalImportError) -> RecordedCallSite {
    RecordedCallSite(
      fileID: try reader.string("fileID"), line: try reader.integer("line", in: JournalNumberRange.siteLines),
      function: try reader.string("function"))
  }

  /// A cause object; its parent must be an earlier sequence number than `sequence`, when given.
  static func cause(_ reader: FieldReader, sequence: UInt64?) throws(JournalImportError) -> Cause {
    // Kinds are open: one this reader does not declare (an app's own) is kept as written.
    let kind = Cause.Kind(rawValue: try reader.string("kind"))
    let parent = try reader.optionalInteger("parent", in: JournalNumberRange.sequences)
    let effect = try reader.optionalInteger("effect", in: JournalNumberRange.sequences)
    if let parent, let sequence, parent >= sequence {
      let field = reader.path.appending("parent")
      throw .invalidValue(
        entry: field.entryIndex, field: field.description,
        reason: "a cause's parent must be an earlier sequence number, found \(parent)")
    }
    return Cause(kind: kind, parent: parent, effect: effect, label: try reader.optionalString("label"))
  }
}

/// The order of the entries, checked the same way by every loader: consecutive indices,
/// increasing sequence numbers, times that never go backwards.
@usableFromInline
struct EntryOrder {
  /// The index the next entry must have, once known.
  @usableFromInline private(set) var nextIndex: Int?
  private var previousSequence: UInt64?
  private var previousTime: Int64?

  /// Requires the next entry to have index `index` (the file's `firstIndex`, or a stream's
  /// branch or reset).
  @usableFromInline
  mutating func expect(index: Int) { nextIndex = index }

  /// Checks `fields`, the entry at `ordinal` in the file, against the entries before it.
  @usableFromInline
  func check(
    _ fields: EntryFields, ordinal: Int, path: @autoclosure () -> FieldPath
  ) throws(JournalImportError) {
    if let nextIndex, fields.index != nextIndex {
      let path = path()
      throw .invalidValue(
        entry: ordinal, field: path.appending("index").description,
        reason: "expected index \(nextIndex) after the previous entry, found \(fields.index)")
    }
    if let previousSequence {
      if fields.sequence == previousSequence {
        throw .duplicateSequence(entry: ordinal, sequence: fields.sequence)
      }
      if fields.sequence < previousSequence {
        throw .sequenceOutOfOrder(entry: ordinal, sequence: fields.sequence, previous: previousSequence)
      }
    }
    if let previousTime, fields.time < previousTime {
      let path = path()
      throw .invalidValue(
        entry: ordinal, field: path.appending("time").description,
        reason: "monotonic time goes backwards (\(fields.time) after \(previousTime))")
    }
  }

  /// Records `fields` as the last entry read.
  @usableFromInline
  mutating func accept(_ fields: EntryFields) {
    previousSequence = fields.sequence
    previousTime = fields.time
    nextIndex = fields.index + 1
  }
}

/// An effect event object, read and checked the same way by every loader.
struct EventFields {
  var effect: UInt64
  var phase: EventRecord.Phase
  var error: String?
  var time: Int64
  var position: Int64
  var cause: Cause
  var ids: [String]

  init(
    effect: UInt64, phase: EventRecord.Phase, error: String?, time: Int64, position: Int64, cause: Cause,
    ids: [String]
  ) {
    self.effect = effect
    self.phase = phase
    self.error = error
    self.time = time
    self.position = position
    self.cause = cause
    self.ids = ids
  }

  init(_ reader: FieldReader) throws(JournalImportError) {
    effect = try reader.integer("effect", in: JournalNumberRange.sequences)
    let phaseName = try reader.string("phase")
    guard let phase = EventRecord.Phase(name: phaseName) else {
      throw .invalidValue(
        entry: nil, field: reader.path.appending("phase").description,
        reason: "unknown phase \(phaseName.debugDescription)")
    }
    self.phase = phase
    error = phase == .failed ? try reader.string("error") : nil
    time = try reader.integer("time", in: JournalNumberRange.times)
    position = Int64(try reader.integer("position", in: JournalNumberRange.indices))
    cause = try EntryFields.cause(reader.object("cause"), sequence: nil)
    var ids: [String] = []
    for (offset, id) in try reader.array("ids").enumerated() {
      ids.append(try FieldReader.string(id, path: reader.path.appending("ids").appending(index: offset)))
    }
    self.ids = ids
  }
}

/// The members of `meta` that every loader checks: the origin's wall time and the checkpoint
/// interval.
struct MetaFields {
  var originWallNanos: Int64
  var checkpointInterval: Int

  init(_ meta: FieldReader) throws(JournalImportError) {
    originWallNanos = try meta.object("origin").integer("wallTime", in: JournalNumberRange.times)
    let interval: Int = try meta.integer("checkpointInterval")
    guard interval >= 1 else {
      throw .invalidValue(
        entry: nil, field: "meta.checkpointInterval", reason: "must be at least 1, found \(interval)")
    }
    checkpointInterval = try meta.integer("checkpointInterval", in: 1...JournalNumberRange.maxCount)
  }
}

extension EntryFields {
  /// An entry object read from its tokens, with the tokens of what the builder decodes.
  @usableFromInline
  struct TapeRead {
    @usableFromInline var fields: EntryFields
    @usableFromInline var replayable: Bool
    @usableFromInline var action: Int
    /// The checkpoint's state, when the entry has a checkpoint.
    @usableFromInline var state: Int?
  }

  /// Reads the entry object at token `entry` of `tape` in one pass over its members; `nil` when
  /// anything is missing or not as ``init(_:)`` accepts it, for the caller to read the entry
  /// through ``init(_:)``, which reports the error. What it accepts, it reads as ``init(_:)``
  /// does.
  @usableFromInline
  static func read(_ tape: JSONTapeView, at entry: Int) -> TapeRead? {
    guard tape[entry].kind == .object else { return nil }
    var index: Int?
    var sequence: UInt64?
    var time: Int64?
    var wallTime: Int64?
    var context: String?
    var cause: Int?
    var site: RecordedCallSite?
    var effectSite: RecordedCallSite?
    var outcome: Int?
    var durations: Int?
    var checkpoint: Int?
    var replayable: Bool?
    var action: Int?
    var key = entry + 1
    for _ in 0..<tape[entry].count {
      let value = key + 1
      // Keys of different lengths are told apart without comparing their text.
      switch tape[key].end - tape[key].start {
      case 3 where tape.string(key, is: "seq"):
        sequence = integer(tape, value, in: JournalNumberRange.sequences)
        if sequence == nil { return nil }
      case 4 where tape.string(key, is: "time"):
        time = integer(tape, value, in: JournalNumberRange.times)
        if time == nil { return nil }
      case 4 where tape.string(key, is: "site"):
        site = tapeSite(tape, value)
        if site == nil { return nil }
      case 5 where tape.string(key, is: "index"):
        index = integer(tape, value, in: JournalNumberRange.indices)
        if index == nil { return nil }
      case 5 where tape.string(key, is: "cause"):
        cause = value
      case 6 where tape.string(key, is: "action"):
        action = value
      case 7 where tape.string(key, is: "context"):
        guard let text = string(tape, value) else { return nil }
        context = text
      case 7 where tape.string(key, is: "outcome"):
        outcome = value
      case 8 where tape.string(key, is: "wallTime"):
        wallTime = integer(tape, value, in: JournalNumberRange.times)
        if wallTime == nil { return nil }
      case 9 where tape.string(key, is: "durations"):
        durations = value
      case 10 where tape.string(key, is: "checkpoint"):
        checkpoint = value
      case 10 where tape.string(key, is: "effectSite"):
        effectSite = tapeSite(tape, value)
        if effectSite == nil { return nil }
      case 10 where tape.string(key, is: "replayable"):
        switch tape[value].kind {
        case .true: replayable = true
        case .false: replayable = false
        default: return nil
        }
      default: break
      }
      key = tape[value].next
    }
    guard let index, let sequence, let time, let wallTime, let cause, let outcome, let durations,
      let replayable, let action, let cause = tapeCause(tape, cause, sequence: sequence)
    else { return nil }
    let stopped: Bool
    if tape.string(outcome, is: "reduced") {
      stopped = false
    } else if tape.string(outcome, is: "stopped") {
      stopped = true
    } else {
      return nil
    }
    guard let (chainNanos, reducerNanos, reducerOffsetNanos) = tapeDurations(tape, durations) else {
      return nil
    }
    var checkpointIsResync: Bool?
    var state: Int?
    if let checkpoint {
      guard let (resync, value) = tapeCheckpoint(tape, checkpoint) else { return nil }
      checkpointIsResync = resync
      state = value
    }
    let fields = EntryFields(
      index: index, sequence: sequence, time: time, wallTime: wallTime, context: context, cause: cause,
      site: site, effectSite: effectSite, stopped: stopped, chainNanos: chainNanos,
      reducerNanos: reducerNanos,
      reducerOffsetNanos: reducerOffsetNanos, checkpointIsResync: checkpointIsResync)
    return TapeRead(fields: fields, replayable: replayable, action: action, state: state)
  }

  /// The `durations` object at token `durations`, as ``init(_:)`` reads it: the chain's, the
  /// reducer's and the reducer's offset (``unknownDuration`` when absent); `nil` when it is not
  /// as ``init(_:)`` accepts it.
  private static func tapeDurations(
    _ tape: JSONTapeView, _ durations: Int
  ) -> (chain: UInt32, reducer: UInt32, reducerOffset: UInt32)? {
    let range = 0...(unknownDuration - 1)
    guard tape[durations].kind == .object, let chain = tape.member(durations, "chain"),
      let chainNanos = integer(tape, chain, in: range)
    else { return nil }
    var reducerNanos = unknownDuration
    if let reducer = tape.member(durations, "reducer") {
      guard let nanos = integer(tape, reducer, in: range) else { return nil }
      reducerNanos = nanos
    }
    var reducerOffsetNanos = unknownDuration
    if let offset = tape.member(durations, "reducerOffset") {
      guard let nanos = integer(tape, offset, in: range) else { return nil }
      reducerOffsetNanos = nanos
    }
    return (chainNanos, reducerNanos, reducerOffsetNanos)
  }

  /// The `checkpoint` object at token `checkpoint`: whether it is a resync, and its state's
  /// token; `nil` when it is not as ``init(_:)`` accepts it.
  private static func tapeCheckpoint(_ tape: JSONTapeView, _ checkpoint: Int) -> (resync: Bool, state: Int)? {
    guard tape[checkpoint].kind == .object, let kind = tape.member(checkpoint, "kind"),
      let state = tape.member(checkpoint, "state")
    else { return nil }
    if tape.string(kind, is: "resync") { return (true, state) }
    if tape.string(kind, is: "interval") { return (false, state) }
    return nil
  }

  private init(
    index: Int, sequence: UInt64, time: Int64, wallTime: Int64, context: String?, cause: Cause,
    site: RecordedCallSite?, effectSite: RecordedCallSite?, stopped: Bool,
    chainNanos: UInt32, reducerNanos: UInt32, reducerOffsetNanos: UInt32, checkpointIsResync: Bool?
  ) {
    self.index = index
    self.sequence = sequence
    self.time = time
    self.wallTime = wallTime
    self.context = context
    self.cause = cause
    self.site = site
    self.effectSite = effectSite
    self.stopped = stopped
    self.chainNanos = chainNanos
    self.reducerNanos = reducerNanos
    self.reducerOffsetNanos = reducerOffsetNanos
    self.checkpointIsResync = checkpointIsResync
  }

  /// A call site object, as ``site(_:)`` reads it; `nil` for anything it refuses.
  private static func tapeSite(_ tape: JSONTapeView, _ object: Int) -> RecordedCallSite? {
    guard tape[object].kind == .object, let fileToken = tape.member(object, "fileID"),
      let fileID = string(tape, fileToken), let lineToken = tape.member(object, "line"),
      let line = integer(tape, lineToken, in: JournalNumberRange.siteLines),
      let functionToken = tape.member(object, "function"), let function = string(tape, functionToken)
    else { return nil }
    return RecordedCallSite(fileID: fileID, line: line, function: function)
  }

  /// A cause object, as ``cause(_:sequence:)`` reads it; `nil` for anything it refuses.
  private static func tapeCause(_ tape: JSONTapeView, _ object: Int, sequence: UInt64) -> Cause? {
    guard tape[object].kind == .object, let kindToken = tape.member(object, "kind"),
      let kind = string(tape, kindToken)
    else { return nil }
    var parent: UInt64?
    if let token = tape.member(object, "parent") {
      guard let value = integer(tape, token, in: JournalNumberRange.sequences), value < sequence else {
        return nil
      }
      parent = value
    }
    var effect: UInt64?
    if let token = tape.member(object, "effect") {
      guard let value = integer(tape, token, in: JournalNumberRange.sequences) else { return nil }
      effect = value
    }
    var label: String?
    if let token = tape.member(object, "label") {
      guard let text = string(tape, token) else { return nil }
      label = text
    }
    return Cause(kind: Cause.Kind(rawValue: kind), parent: parent, effect: effect, label: label)
  }

  /// The integer token at `index` when it is written without fraction or exponent and lies in
  /// `range`.
  private static func integer<Integer: FixedWidthInteger>(
    _ tape: JSONTapeView, _ index: Int, in range: ClosedRange<Integer>
  ) -> Integer? {
    guard tape[index].kind == .number,
      case .value(let value) = WholeNumber<Integer>(tape.slice(index)),
      range.contains(value)
    else { return nil }
    return value
  }

  private static func string(_ tape: JSONTapeView, _ index: Int) -> String? {
    switch tape[index].kind {
    case .string, .escapedString: tape.string(index)
    default: nil
    }
  }
}
