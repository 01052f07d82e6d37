import ChronicleStore
import ChronicleTracer
import Foundation

/// Replays a recorded journal into a reducer and checks that every recorded state equals the one
/// the reducer computes — the regression test of a recorded run.
///
/// ```swift
/// let report = try Replay.verify(journalJSON: url, reducer: Counter())
/// if let divergence = report.divergence { print(divergence) }
/// ```
///
/// Replay runs reducers only: the effects they return are dropped, never run.
///
/// ## What is compared
/// Replay starts from the journal's base state — the initial state, or the state its committed
/// beginning folded into — and applies each entry's action (entries a middleware stopped are
/// passed by). The recorded states are:
/// - the journal's interval checkpoints, which hold what the store computed;
/// - the state after every entry, when given (``verify(journalJSON:reducer:limits:)`` reads them
///   from files exported with `ExportOptions(states: .everyEntry)`).
///
/// A resync checkpoint holds a state the entries alone do not lead to (actions that were not
/// recorded): replay continues from it, as the journal does.
public enum Replay {
  /// Replays `snapshot` into `reducer`.
  ///
  /// - Parameters:
  ///   - snapshot: The recorded run.
  ///   - reducer: The reducer under test.
  ///   - statesAfter: The recorded state after some entries, by entry position.
  /// - Returns: The report; its ``ReplayReport/divergence`` names the first difference.
  public static func verify<R: Reducer>(
    _ snapshot: JournalSnapshot<R.State, R.Action>, reducer: R, statesAfter: [Int: R.State] = [:]
  ) -> ReplayReport<R.State, R.Action> where R.State: Equatable {
    let indices = snapshot.indices
    guard var state = snapshot.baseState else {
      return ReplayReport(replayedEntries: 0, verifiedStates: 0, divergence: nil)
    }
    let checkpoints = snapshot.checkpoints
    var nextCheckpoint = checkpoints.firstIndex { $0.index > indices.lowerBound } ?? checkpoints.endIndex
    var verified = 0
    var firstUnverified = indices.lowerBound
    var previous: JournalEntry<R.Action>?
    func diverged(
      after entry: JournalEntry<R.Action>, expected: R.State, actual: R.State
    ) -> ReplayDivergence<R.State, R.Action> {
      ReplayDivergence(
        index: entry.index, sequence: entry.sequence, action: entry.action, cause: entry.cause,
        context: entry.context, firstSuspect: firstUnverified, expected: expected, actual: actual,
        diff: StateDiff.render(from: expected, to: actual))
    }
    // Checks the checkpoint before `position`, if any: the state after the previous entry.
    func checkCheckpoint(at position: Int) -> ReplayDivergence<R.State, R.Action>? {
      guard nextCheckpoint < checkpoints.endIndex, checkpoints[nextCheckpoint].index == position else {
        return nil
      }
      let checkpoint = checkpoints[nextCheckpoint]
      nextCheckpoint += 1
      switch checkpoint.kind {
      case .resync:
        state = checkpoint.state
        firstUnverified = position
      case .interval:
        guard let previous else { return nil }
        if checkpoint.state != state {
          return diverged(after: previous, expected: checkpoint.state, actual: state)
        }
        verified += 1
        firstUnverified = position
      }
      return nil
    }
    var replayed = 0
    for index in indices {
      if let divergence = checkCheckpoint(at: index) {
        return ReplayReport(replayedEntries: replayed, verifiedStates: verified, divergence: divergence)
      }
      let entry = snapshot.entries[index]
      if entry.outcome == .reduced { _ = reducer.reduce(into: &state, action: entry.action) }
      replayed += 1
      previous = entry
      if let expected = statesAfter[index] {
        if expected != state {
          firstUnverified = index
          return ReplayReport(
            replayedEntries: replayed, verifiedStates: verified,
            divergence: diverged(after: entry, expected: expected, actual: state))
        }
        verified += 1
        firstUnverified = index + 1
      }
    }
    let divergence = checkCheckpoint(at: indices.upperBound)
    return ReplayReport(replayedEntries: replayed, verifiedStates: verified, divergence: divergence)
  }

  /// Replays the journal `journal` holds now (see ``verify(_:reducer:statesAfter:)``).
  public static func verify<R: Reducer>(
    _ journal: Journal<R.State, R.Action>, reducer: R
  ) -> ReplayReport<R.State, R.Action> where R.State: Equatable {
    verify(journal.snapshot(), reducer: reducer)
  }

  /// Imports a Journal JSON file and replays it, comparing the state after every entry when the
  /// file holds them (`ExportOptions(states: .everyEntry)`), and the checkpoints otherwise.
  ///
  /// - Throws: The ``ChronicleTracer/JournalImportError`` of the import: a file recorded with
  ///   other types is refused with ``ChronicleTracer/JournalImportError/typeMismatch(_:expected:found:difference:)``.
  public static func verify<R: Reducer>(
    journalJSON url: URL, reducer: R, limits: JournalImportLimits = .default
  ) throws(JournalImportError) -> ReplayReport<R.State, R.Action>
  where R.State: Equatable & Decodable, R.Action: Decodable {
    // Opened first for the errno of a missing or unreadable file, as the Tracer's importers report.
    let descriptor = open(url.path, O_RDONLY)
    guard descriptor >= 0 else { throw .unreadableFile(path: url.path, errno: errno) }
    close(descriptor)
    guard let data = FileManager.default.contents(atPath: url.path) else {
      throw .unreadableFile(path: url.path, errno: EIO)
    }
    return try verify(journalJSON: data, reducer: reducer, limits: limits)
  }

  /// Imports a Journal JSON document held in memory and replays it (see
  /// ``verify(journalJSON:reducer:limits:)``).
  public static func verify<R: Reducer>(
    journalJSON data: Data, reducer: R, limits: JournalImportLimits = .default
  ) throws(JournalImportError) -> ReplayReport<R.State, R.Action>
  where R.State: Equatable & Decodable, R.Action: Decodable {
    let journal = try Journal<R.State, R.Action>(journalJSON: data, reducer: reducer, limits: limits)
    let states = try RecordedStates<R.State>.read(journalJSON: data)
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
