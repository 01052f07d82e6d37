/// Receives every entry and effect event a journal records, as it records them: the way to
/// stream a run to a file (ChronicleFormats' `NDJSONFileSink`) or elsewhere with bounded memory.
///
/// The journal calls a sink on the thread that processed the action, in the store's order, after
/// releasing its own lock; a sink must be thread-safe and should be quick, since the store waits.
public protocol JournalSink<State, Action>: Sendable {
  /// The store's state.
  associatedtype State: Sendable
  /// The store's actions.
  associatedtype Action: Sendable

  /// Called once per recorded entry, in order.
  ///
  /// - Parameters:
  ///   - entry: The entry.
  ///   - checkpoint: The state before the entry, when the journal kept one (always for the first
  ///     entry recorded, and after any gap), so a sink can write a replayable stream.
  ///   - metadata: The journal's metadata, including the state's shape.
  func record(
    _ entry: JournalEntry<Action>, checkpoint: JournalCheckpoint<State>?, metadata: JournalMetadata)

  /// Called once per recorded effect event, in order with the entries.
  func record(_ event: JournalEffectEvent, metadata: JournalMetadata)

  /// Called once, before the tracer times the first action it records, with the metadata the
  /// entries and events will carry: the moment for one-time work (a file's header), which would
  /// otherwise fall in the duration of the first action that starts an effect. The default does
  /// nothing.
  func prepare(metadata: JournalMetadata)
}

extension JournalSink {
  /// Does nothing: a sink without one-time work needs no preparation.
  public func prepare(metadata: JournalMetadata) {}
}
