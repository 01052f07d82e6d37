import ChronicleStore

/// What the tracer takes for its sinks under the journal's lock while it records an entry: the
/// entry as sinks get it, built from the stored record and the strings its codes stand for, and
/// what only the lock guards. The sinks are called after the lock is released, so recording an
/// action takes the journal's lock once, sinks or not.
///
/// The entry is built under the lock and handed on whole, where the record and its strings had
/// been taken and the entry built from them after the lock: that copied each of its strings
/// (the label, the cause's, the call sites' file and function) once more and released the copy,
/// ten atomic reference count operations per entry.
///
/// Handed from the lock to the sinks through an allocated pointer (see
/// `Journal.takeForSinks(_:at:withCheckpoint:from:)`): the recording closure returns one word
/// (`nil` without sinks), where an optional struct was copied and destroyed through value
/// witnesses on every action, sinks or not; and the pointer is allocated and freed by code
/// specialized for the app's types, where a class's deinitializer, generic, looked up the
/// metadata of the entry's, the checkpoint's and an optional's types on every entry (about 1,000
/// instructions per entry, an eighth of an NDJSON sink's).
@usableFromInline
struct SinkHandOff<State: Sendable, Action: Sendable> {
  /// The entry, as ``JournalSnapshot`` reads it back.
  @usableFromInline let entry: JournalEntry<Action>
  /// The checkpoint kept before the entry, if one was.
  @usableFromInline let checkpoint: JournalCheckpoint<State>?
  /// The journal's metadata as sinks get it.
  @usableFromInline let metadata: SinkMetadata

  @inlinable
  init(entry: JournalEntry<Action>, checkpoint: JournalCheckpoint<State>?, metadata: SinkMetadata) {
    self.entry = entry
    self.checkpoint = checkpoint
    self.metadata = metadata
  }
}
