import ChronicleJSON
import ChronicleTracer
import Foundation

extension JournalSnapshot {
  /// The journal as a Journal JSON document (`"format": "chronicle.journal"`, version 1; see
  /// docs/formats/journal-json.md).
  ///
  /// Every state and action passes through `options.redaction`. Actions that are not
  /// `Encodable` are written by description and marked `"replayable": false`.
  // Inlinable so that the entries are written by code specialized for the journal's types.
  @inlinable
  public func journalJSON(options: ExportOptions = ExportOptions()) -> Data {
    journalJSON(options: options, entries: .specialized)
  }

  @usableFromInline
  func journalJSON(options: ExportOptions, entries: JournalJSONEntries<State, Action>) -> Data {
    var stream = ExportStream()
    // Writing to memory cannot fail.
    try? writeJournalJSON(into: &stream, options: options, entries: entries)
    return stream.data
  }

  /// Writes the journal as a Journal JSON document to the file at `url`, replacing it, with
  /// memory bounded by one entry's size whatever the journal's length.
  ///
  /// The export is written to a new file beside `url` and renamed over it: a symbolic link at
  /// `url` is replaced rather than followed, and a failed export leaves the old file as it was.
  // Inlinable so that the entries are written by code specialized for the journal's types.
  @inlinable
  public func writeJournalJSON(
    to url: URL, options: ExportOptions = ExportOptions()
  ) throws(JournalExportError) {
    try writeJournalJSON(to: url, options: options, entries: .specialized)
  }

  @usableFromInline
  func writeJournalJSON(
    to url: URL, options: ExportOptions, entries: JournalJSONEntries<State, Action>
  ) throws(JournalExportError) {
    var stream = try ExportStream(creating: url)
    try writeJournalJSON(into: &stream, options: options, entries: entries)
  }

  func writeJournalJSON(
    into stream: inout ExportStream, options: ExportOptions, entries: JournalJSONEntries<State, Action>
  ) throws(JournalExportError) {
    let objects = JournalObjectWriter<State, Action>(redaction: options.redaction)
    let meta = objects.meta(
      metadata, counts: (firstIndex: indices.lowerBound, entries: count, effects: effectEvents.count))
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
    var checkpoints: JournalCheckpoint<State>?
    var first = true
    func write(_ entry: JournalEntry<Action>, stateAfter: State?) throws(JournalExportError) {
      var checkpoint: JournalCheckpoint<State>?
      if let next = checkpoints, next.index == entry.index {
        checkpoint = next
        checkpoints = self.checkpoint(after: entry.index)
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
      try entries.write(self, objects, &stream)
    case .everyEntry:
      checkpoints = checkpoint(after: indices.lowerBound)
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

/// Writes the entries of a Journal JSON export that holds checkpoints only (the default): a
/// closure formed where the export is called, in the client, so that the loop over the entries
/// runs specialized for the client's types. Written in generic code, each entry looked up the
/// metadata of `JournalEntry<Action>` and the types around it (a tenth of an export's time).
@usableFromInline
struct JournalJSONEntries<State: Sendable, Action: Sendable> {
  @usableFromInline typealias Objects = JournalObjectWriter<State, Action>
  @usableFromInline typealias Write =
    (JournalSnapshot<State, Action>, Objects, inout ExportStream) throws(JournalExportError) -> Void

  /// Writes the snapshot's entries, comma-separated, flushing the stream as it fills.
  @usableFromInline let write: Write

  @usableFromInline
  init(write: @escaping Write) {
    self.write = write
  }
}

extension JournalJSONEntries {
  /// The entries' writing; formed in the client when the export's inlinable entry points are.
  @inlinable
  static var specialized: JournalJSONEntries {
    JournalJSONEntries { snapshot, objects, stream throws(JournalExportError) in
      let indices = snapshot.indices
      var checkpoints = snapshot.checkpoint(after: indices.lowerBound)
      // By position in a range of integers: no generic collection witness runs.
      for index in indices {
        var checkpoint: JournalCheckpoint<State>?
        if let next = checkpoints, next.index == index {
          checkpoint = next
          checkpoints = snapshot.checkpoint(after: index)
        }
        if index > indices.lowerBound { stream.writer.raw(",") }
        objects.writeEntry(
          snapshot.exportedEntry(at: index), checkpoint: checkpoint, stateAfter: nil, into: &stream.writer)
        try stream.flushIfNeeded()
      }
    }
  }
}
