import ChronicleJSON
import ChronicleStore
import ChronicleTracer

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
  /// ``unknownDuration`` when absent.
  @usableFromInline var reducerNanos: UInt32
  @usableFromInline var reducerOffsetNanos: UInt32
  /// The checkpoint's kind, `nil` when the entry has none.
  @usableFromInline var checkpointIsResync: Bool?

  static let unknownDuration = EntryNumbers.unknownDuration

  /// Reads an entry object's envelope (see ``read(_:)``).
  init<Reader: ObjectReader>(_ reader: Reader) throws(JournalImportError) {
    self = try Self.read(reader).fields
  }

  /// An entry object read by ``read(_:)``: its envelope, and the members the importers read
  /// after it, in the form the object is held in.
  struct Read<Reader: ObjectReader> {
    var fields: EntryFields
    var replayable: Reader.Value?
    var action: Reader.Value?
    /// The checkpoint's state, when the entry has a checkpoint.
    var state: Reader.Value?
  }

  /// Reads an entry object in one pass over its members, then checks its envelope field by
  /// field, in the order its errors are reported: `index`, `seq`, `time`, `wallTime`, `context`,
  /// `cause`, `site`, `effectSite`, `outcome`, `durations`, `checkpoint`. The one schema reader
  /// of the library: the importers read entries from a tape with it, ``JournalFile`` from trees.
  static func read<Reader: ObjectReader>(_ reader: Reader) throws(JournalImportError) -> Read<Reader> {
    var index: Reader.Value?
    var sequence: Reader.Value?
    var time: Reader.Value?
    var wallTime: Reader.Value?
    var context: Reader.Value?
    var cause: Reader.Value?
    var site: Reader.Value?
    var effectSite: Reader.Value?
    var outcome: Reader.Value?
    var durations: Reader.Value?
    var checkpoint: Reader.Value?
    var replayable: Reader.Value?
    var action: Reader.Value?
    var member = reader.firstMember
    for _ in 0..<reader.memberCount {
      // Keys of different lengths are told apart without comparing their text.
      switch reader.keyLength(of: member) {
      case 3 where reader.key(of: member, is: "seq"): sequence = reader.value(of: member)
      case 4 where reader.key(of: member, is: "time"): time = reader.value(of: member)
      case 4 where reader.key(of: member, is: "site"): site = reader.value(of: member)
      case 5 where reader.key(of: member, is: "index"): index = reader.value(of: member)
      case 5 where reader.key(of: member, is: "cause"): cause = reader.value(of: member)
      case 6 where reader.key(of: member, is: "action"): action = reader.value(of: member)
      case 7 where reader.key(of: member, is: "context"): context = reader.value(of: member)
      case 7 where reader.key(of: member, is: "outcome"): outcome = reader.value(of: member)
      case 8 where reader.key(of: member, is: "wallTime"): wallTime = reader.value(of: member)
      case 9 where reader.key(of: member, is: "durations"): durations = reader.value(of: member)
      case 10 where reader.key(of: member, is: "checkpoint"): checkpoint = reader.value(of: member)
      case 10 where reader.key(of: member, is: "effectSite"): effectSite = reader.value(of: member)
      case 10 where reader.key(of: member, is: "replayable"): replayable = reader.value(of: member)
      default: break
      }
      member = reader.member(after: member)
    }

    let fields = try EntryFields(
      reader, index: index, sequence: sequence, time: time, wallTime: wallTime, context: context,
      cause: cause,
      site: site, effectSite: effectSite, outcome: outcome, durations: durations)
    var read = Read<Reader>(fields: fields, replayable: replayable, action: action, state: nil)
    if let checkpoint {
      let checkpoint = try reader.reader(of: checkpoint, key: "checkpoint")
      let kind = try checkpoint.string("kind")
      guard kind == "interval" || kind == "resync" else {
        let field = checkpoint.path.appending("kind")
        throw .invalidValue(
          entry: field.entryIndex, field: field.description,
          reason: "expected \"interval\" or \"resync\", found \(kind.debugDescription)")
      }
      read.state = try checkpoint.required("state")
      read.fields.checkpointIsResync = kind == "resync"
    }
    return read
  }

  /// The envelope from the members found by ``read(_:)``, but the checkpoint.
  private init<Reader: ObjectReader>(
    _ reader: Reader, index: Reader.Value?, sequence: Reader.Value?, time: Reader.Value?,
    wallTime: Reader.Value?, context: Reader.Value?, cause: Reader.Value?, site: Reader.Value?,
    effectSite: Reader.Value?, outcome: Reader.Value?, durations: Reader.Value?
  ) throws(JournalImportError) {
    self.index = try Reader.integer(
      reader.required(index, "index"), path: reader.path.appending("index"), in: JournalNumberRange.indices)
    let sequence = try Reader.integer(
      reader.required(sequence, "seq"), path: reader.path.appending("seq"), in: JournalNumberRange.sequences)
    self.sequence = sequence
    self.time = try Reader.integer(
      reader.required(time, "time"), path: reader.path.appending("time"), in: JournalNumberRange.times)
    self.wallTime = try Reader.integer(
      reader.required(wallTime, "wallTime"), path: reader.path.appending("wallTime"),
      in: JournalNumberRange.times)
    self.context = nil
    if let context { self.context = try Reader.string(context, path: reader.path.appending("context")) }
    self.cause = try Self.cause(
      reader.reader(of: reader.required(cause, "cause"), key: "cause"), sequence: sequence)
    self.site = nil
    if let site { self.site = try Self.site(reader.reader(of: site, key: "site")) }
    self.effectSite = nil
    if let effectSite { self.effectSite = try Self.site(reader.reader(of: effectSite, key: "effectSite")) }
    let outcome = try Reader.string(
      reader.required(outcome, "outcome"), path: reader.path.appending("outcome"))
    switch outcome {
    case "reduced": stopped = false
    case "stopped": stopped = true
    default:
      let field = reader.path.appending("outcome")
      throw .invalidValue(
        entry: field.entryIndex, field: field.description,
        reason: "expected \"reduced\" or \"stopped\", found \(outcome.debugDescription)")
    }
    let durations = try reader.reader(of: reader.required(durations, "durations"), key: "durations")
    chainNanos = try Self.duration(durations, "chain", durations.required("chain"))
    reducerNanos =
      try durations.optional("reducer").map { value throws(JournalImportError) in
        try Self.duration(durations, "reducer", value)
      } ?? Self.unknownDuration
    reducerOffsetNanos =
      try durations.optional("reducerOffset").map { value throws(JournalImportError) in
        try Self.duration(durations, "reducerOffset", value)
      } ?? Self.unknownDuration
    checkpointIsResync = nil
  }

  /// The duration `value`, the value of `key` in `reader`.
  private static func duration<Reader: ObjectReader>(
    _ reader: Reader, _ key: StaticString, _ value: Reader.Value
  ) throws(JournalImportError) -> UInt32 {
    try Reader.integer(value, path: reader.path.appending("\(key)"), in: 0...(unknownDuration - 1))
  }

  /// A call site object: `fileID`, `line` (from 1) and `function`.
  static func site<Reader: ObjectReader>(_ reader: Reader) throws(JournalImportError) -> RecordedCallSite {
    RecordedCallSite(
      fileID: try reader.string("fileID"), line: try reader.integer("line", in: JournalNumberRange.siteLines),
      function: try reader.string("function"))
  }

  /// A cause object; its parent must be an earlier sequence number than `sequence`, when given.
  static func cause<Reader: ObjectReader>(
    _ reader: Reader, sequence: UInt64?
  ) throws(JournalImportError) -> Cause {
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

extension EntryFields {
  /// An entry object read from the tokens of a tape by ``read(_:)``, for the importers'
  /// specialized code (see `JournalBuilder.addEntry(tape:at:list:position:checkpointRequired:branches:)`).
  @usableFromInline
  struct TapeEntry {
    @usableFromInline let fields: EntryFields
    private let reader: TapeFieldReader
    private let replayable: TapeFieldReader.Value?
    private let actionValue: TapeFieldReader.Value?
    /// The token of the checkpoint's state, when the entry has a checkpoint.
    @usableFromInline let state: Int?

    @usableFromInline
    init(_ reader: TapeFieldReader) throws(JournalImportError) {
      let read = try EntryFields.read(reader)
      self.reader = reader
      fields = read.fields
      replayable = read.replayable
      actionValue = read.action
      state = read.state?.token
    }

    /// Where the entry is.
    @usableFromInline
    var path: FieldPath { reader.path }

    /// The token of the action, once the entry says it is replayable: what comes after its
    /// envelope and its order are checked. `ordinal` is the entry's place in the file.
    @usableFromInline
    func action(ordinal: Int) throws(JournalImportError) -> Int {
      let flag = try reader.required(replayable, "replayable")
      guard try TapeFieldReader.bool(flag, path: reader.path.appending("replayable")) else {
        throw .notReplayable(entry: ordinal, field: reader.path.appending("action").description)
      }
      return try reader.required(actionValue, "action").token
    }
  }
}
