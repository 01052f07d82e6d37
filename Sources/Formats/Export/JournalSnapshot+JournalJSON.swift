import ChronicleTracer
import Foundation

extension JournalSnapshot {
  /// The journal as a Journal JSON document (`"format": "chronicle.journal"`, version 1; see
  /// docs/formats/journal-json.md).
  ///
  /// Every state and action passes through `options.redaction`. Actions that are not
  /// `Encodable` are written by description and marked `"replayable": false`.
  public func journalJSON(options: ExportOptions = ExportOptions()) -> Data {
    var stream = ExportStream()
    // Writing to memory cannot fail.
    try? writeJournalJSON(into: &stream, options: options)
    return stream.data
  }

  /// Writes the journal as a Journal JSON document to the file at `url`, replacing it, with
  /// memory bounded by one entry's size whatever the journal's length.
  ///
  /// The export is written to a new file beside `url` and renamed over it: a symbolic link at
  /// `url` is replaced rather than followed, and a failed export leaves the old file as it was.
  public func writeJournalJSON(
    to url: URL, options: ExportOptions = ExportOptions()
  ) throws(JournalExportError) {
    var stream = try ExportStream(creating: url)
    try writeJournalJSON(into: &stream, options: options)
  }

  func writeJournalJSON(into stream: inout ExportStream, options: ExportOptions) throws(JournalExportError) {
    let objects = JournalObjectWriter<State, Action>(redaction: options.redaction)
    let meta = objects.meta(
      metadata, counts: (firstIndex: indices.lowerBound, entries: count, effects: content.events.count))
    stream.writer.raw(#"{"format":"#)
    stream.writer.string(JournalWireFormat.journalFormat)
    stream.writer.raw(#","version":"#)
    stream.writer.integer(JournalWireFormat.version)
    stream.writer.raw(#","meta":"#)
    stream.writer.write(meta)
    // States written after every entry say which redacted values changed, which their JSON
    // cannot show.
    let redactedChanges = options.states == .everyEntry ? RedactedChangeTracker() : nil
    stream.writer.raw(#","baseState":"#)
    stream.writer.write(baseState.map { objects.state($0, startingChangesOf: redactedChanges) } ?? .null)
    stream.writer.raw(#","entries":["#)
    var checkpoints = content.checkpoints.first(after: indices.lowerBound)
    var first = true
    func write(_ entry: JournalEntry<Action>, stateAfter: State?) throws(JournalExportError) {
      var checkpoint: JournalCheckpoint<State>?
      if let next = checkpoints, next.index == entry.index {
        checkpoint = next
        checkpoints = content.checkpoints.first(after: entry.index)
      }
      if !first { stream.writer.raw(",") }
      first = false
      objects.writeEntry(
        entry, checkpoint: checkpoint, stateAfter: stateAfter, redactedChanges: redactedChanges,
        into: &stream.writer)
      try stream.flushIfNeeded()
    }
    switch options.states {
    case .checkpoints:
      // One loop with the entry's writing inlined, by position in a range of integers: the
      // run-time look-ups of the generic types' metadata (of `JournalEntry<Action>` and the
      // like) are then made once rather than per entry, and no generic collection witness runs.
      for index in indices {
        var checkpoint: JournalCheckpoint<State>?
        if let next = checkpoints, next.index == index {
          checkpoint = next
          checkpoints = content.checkpoints.first(after: index)
        }
        if index > indices.lowerBound { stream.writer.raw(",") }
        objects.writeEntry(
          content.entry(at: index), checkpoint: checkpoint, stateAfter: nil, into: &stream.writer)
        try stream.flushIfNeeded()
      }
    case .everyEntry:
      try forEachState { (entry, state) throws(JournalExportError) in try write(entry, stateAfter: state) }
    }
    stream.writer.raw(#"],"effects":["#)
    for (offset, event) in effectEvents.enumerated() {
      if offset > 0 { stream.writer.raw(",") }
      stream.writer.write(objects.event(event))
      try stream.flushIfNeeded()
    }
    stream.writer.raw("]}")
    try stream.finish()
  }
}
