import ChronicleTracer

/// How a background sink hands over what it records (see `NDJSONFileSink.handOff`), as
/// closures formed in the client (see ``ClientSpecialized``).
@usableFromInline
struct HandOff<State: Sendable, Action: Sendable>: Sendable {
  let entry:
    @Sendable (
      BackgroundWriter<State, Action>, JournalEntry<Action>, JournalCheckpoint<State>?, JournalMetadata
    ) -> Void
  let event: @Sendable (BackgroundWriter<State, Action>, JournalEffectEvent, JournalMetadata) -> Void

  @usableFromInline
  init(
    entry:
      @escaping @Sendable (
        BackgroundWriter<State, Action>, JournalEntry<Action>, JournalCheckpoint<State>?, JournalMetadata
      ) -> Void,
    event: @escaping @Sendable (BackgroundWriter<State, Action>, JournalEffectEvent, JournalMetadata) -> Void
  ) {
    self.entry = entry
    self.event = event
  }
}

extension HandOff {
  /// Queues lines for the background writer (see ``ClientSpecialized``).
  @inlinable
  static var specialized: HandOff {
    HandOff(
      entry: { $0.enqueue(entry: $1, checkpoint: $2, metadata: $3) },
      event: { $0.enqueue(event: $1, metadata: $2) })
  }
}
