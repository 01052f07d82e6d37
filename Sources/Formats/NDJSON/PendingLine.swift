import ChronicleTracer

/// A line recorded and not yet formatted: what it is made of.
///
/// Entry and event lines do not carry the journal's metadata: only the header needs it, and
/// copying it into every line retained and released its strings each time.
@usableFromInline
enum PendingLine<State: Sendable, Action: Sendable>: Sendable {
  case entry(JournalEntry<Action>, JournalCheckpoint<State>?)
  case event(JournalEffectEvent)
  /// The header, written if nothing was written yet.
  case header(JournalMetadata)
  /// What a batch keeps in the place of a line once it is formatted.
  case formatted
}
