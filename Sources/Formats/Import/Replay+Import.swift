import ChronicleStore
import ChronicleTimeTravel
import ChronicleTracer
import Foundation

// Replaying a file is importing it, then replaying the journal: it lives with the importers, so
// that an app that only undoes and redoes links ChronicleTimeTravel without the formats.
extension Replay {
  /// Imports a Journal JSON file and replays it, comparing the state after every entry when the
  /// file holds them (`ExportOptions(states: .everyEntry)`), and the checkpoints otherwise.
  ///
  /// - Throws: The ``/ChronicleFormats/JournalImportError`` of the import: a file recorded with
  ///   other types is refused with
  ///   ``/ChronicleFormats/JournalImportError/typeMismatch(_:expected:found:difference:)``.
  public static func verify<R: Reducer>(
    journalJSON url: URL, reducer: R, limits: JournalImportLimits = .default
  ) throws(JournalImportError) -> ReplayReport<R.State, R.Action>
  where R.State: Equatable & Decodable, R.Action: Decodable {
    // Read as the Tracer's importers read: regular files only, the size checked before reading.
    let data = try FileInput.read(url, limit: limits.maxBytes)
    return try verify(journalJSON: data, reducer: reducer, limits: limits)
  }

  /// Imports a Journal JSON document held in memory and replays it (see
  /// ``verify(journalJSON:reducer:limits:)``).
  public static func verify<R: Reducer>(
    journalJSON data: Data, reducer: R, limits: JournalImportLimits = .default
  ) throws(JournalImportError) -> ReplayReport<R.State, R.Action>
  where R.State: Equatable & Decodable, R.Action: Decodable {
    let journal = try Journal<R.State, R.Action>(journalJSON: data, reducer: reducer, limits: limits)
    let states = try RecordedEntryStates.read(journalJSON: data, as: R.State.self, limits: limits)
    return verify(journal.snapshot(), reducer: reducer, statesAfter: states)
  }

  /// Loads an NDJSON journal stream and replays it against its checkpoints. A torn last line
  /// (the writer was killed while writing it) is left out, as the loader does.
  public static func verify<R: Reducer>(
    ndjson url: URL, reducer: R, limits: JournalImportLimits = .default
  ) throws(JournalImportError) -> ReplayReport<R.State, R.Action>
  where R.State: Equatable & Decodable, R.Action: Decodable {
    let loaded = try Journal<R.State, R.Action>.loadNDJSON(contentsOf: url, reducer: reducer, limits: limits)
    return verify(loaded.journal.snapshot(), reducer: reducer)
  }
}
