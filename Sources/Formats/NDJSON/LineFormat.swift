import ChronicleJSON
import ChronicleTracer

/// How the sink formats its lines: closures formed where the sink is created, in the client (see
/// ``ClientSpecialized``), so that an entry's line is written by code specialized for the client's types.
/// The sink's file reaches them from its own code, unspecialized, where every generic value the
/// formatting touched (the entry, its action, the pending line) looked up its type's metadata.
@usableFromInline
struct LineFormat<State: Sendable, Action: Sendable>: Sendable {
  /// Writes the entry's object.
  let entry:
    @Sendable (
      JournalObjectWriter<State, Action>, JournalEntry<Action>, JournalCheckpoint<State>?, inout JSONWriter
    ) -> Void
  /// Writes the line at a position of a batch, or returns the metadata of the header found there
  /// for the file to write (unless it wrote one already). The line is moved out of the batch,
  /// which keeps ``PendingLine/formatted`` in its place: copying it out retained what it holds.
  let line:
    @Sendable (
      JournalObjectWriter<State, Action>, inout [PendingLine<State, Action>], Int, inout JSONWriter
    ) -> JournalMetadata?

  @usableFromInline
  init(
    entry:
      @escaping @Sendable (
        JournalObjectWriter<State, Action>, JournalEntry<Action>, JournalCheckpoint<State>?, inout JSONWriter
      ) -> Void,
    line:
      @escaping @Sendable (
        JournalObjectWriter<State, Action>, inout [PendingLine<State, Action>], Int, inout JSONWriter
      ) -> JournalMetadata?
  ) {
    self.entry = entry
    self.line = line
  }
}

extension LineFormat {
  /// The entry and event lines (see ``ClientSpecialized``).
  @inlinable
  static var specialized: LineFormat {
    LineFormat(
      entry: { objects, entry, checkpoint, writer in
        writeEntryLine(objects, entry, checkpoint, into: &writer)
      },
      line: { objects, lines, index, writer in
        var line = PendingLine<State, Action>.formatted
        swap(&line, &lines[index])
        switch consume line {
        case .entry(let entry, let checkpoint):
          writeEntryLine(objects, entry, checkpoint, into: &writer)
        case .event(let event):
          writer.raw(#"{"effect":"#)
          objects.writeEvent(event, into: &writer)
          writer.raw("}\n")
        case .header(let metadata):
          return metadata
        case .formatted:
          break
        }
        return nil
      })
  }

  /// Writes an entry's line.
  @inlinable
  static func writeEntryLine(
    _ objects: JournalObjectWriter<State, Action>, _ entry: JournalEntry<Action>,
    _ checkpoint: JournalCheckpoint<State>?, into writer: inout JSONWriter
  ) {
    writer.raw(#"{"entry":"#)
    objects.writeEntry(entry, checkpoint: checkpoint, stateAfter: nil, into: &writer)
    writer.raw("}\n")
  }
}
