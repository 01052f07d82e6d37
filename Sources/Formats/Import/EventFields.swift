import ChronicleJSON
import ChronicleStore
import ChronicleTracer

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

  init<Reader: ObjectReader>(_ reader: Reader) throws(JournalImportError) {
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
      ids.append(try Reader.string(id, path: reader.path.appending("ids").appending(index: offset)))
    }
    self.ids = ids
  }
}

/// The members of `meta` that every loader checks: the origin's wall time and the checkpoint
/// interval.
struct MetaFields {
  var originWallNanos: Int64
  var checkpointInterval: Int

  init<Reader: ObjectReader>(_ meta: Reader) throws(JournalImportError) {
    originWallNanos = try meta.object("origin").integer("wallTime", in: JournalNumberRange.times)
    let interval: Int = try meta.integer("checkpointInterval")
    guard interval >= 1 else {
      throw .invalidValue(
        entry: nil, field: "meta.checkpointInterval", reason: "must be at least 1, found \(interval)")
    }
    checkpointInterval = try meta.integer("checkpointInterval", in: 1...JournalNumberRange.maxCount)
  }
}
