import ChronicleStore

/// What the tracer takes for its sinks under the journal's lock while it records an entry: the
/// stored entry, the strings its codes stand for, and what only the lock guards. The sinks are
/// called after the lock is released, so recording an action takes the journal's lock once, sinks
/// or not.
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
  /// The entry's position in the journal.
  @usableFromInline let index: Int
  /// The entry as stored.
  @usableFromInline let record: EntryRecord<Action>
  /// The context label the entry's `context` code stands for.
  @usableFromInline let context: String?
  /// The cause the entry's cause fields stand for.
  @usableFromInline let cause: Cause
  /// The journal's origin wall time, which the entry's wall time counts from.
  @usableFromInline let originWallNanos: Int64
  /// The call sites the entry's `site` code stands for, if it has any.
  @usableFromInline let sites: SiteTable.Pair?
  /// The checkpoint kept before the entry, if one was.
  @usableFromInline let checkpoint: JournalCheckpoint<State>?
  /// The journal's metadata as sinks get it.
  @usableFromInline let metadata: SinkMetadata

  @inlinable
  init(
    index: Int, record: EntryRecord<Action>, context: String?, cause: Cause, originWallNanos: Int64,
    sites: SiteTable.Pair?, checkpoint: JournalCheckpoint<State>?, metadata: SinkMetadata
  ) {
    self.index = index
    self.record = record
    self.context = context
    self.cause = cause
    self.originWallNanos = originWallNanos
    self.sites = sites
    self.checkpoint = checkpoint
    self.metadata = metadata
  }
}
