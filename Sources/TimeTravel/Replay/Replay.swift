import ChronicleInspection
import ChronicleStore
import ChronicleTracer
import Foundation

/// Replays a recorded journal into a reducer and checks that every recorded state equals the one
/// the reducer computes — the regression test of a recorded run.
///
/// ```swift
/// import ChronicleFormats  // reads the file
///
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
/// - the state after every entry, when given (ChronicleFormats' `Replay.verify(journalJSON:reducer:limits:)`
///   reads them from files exported with `ExportOptions(states: .everyEntry)`).
///
/// - the store's current state, when given to ``verify(_:reducer:finalState:)``: it is compared
///   with the state after the last entry.
///
/// The base state itself is not compared (replay starts from it). A journal records an interval
/// checkpoint every `checkpointInterval` entries (100 by default), when the next action after
/// them is recorded, so a shorter run holds no recorded state to compare: its report's
/// ``ReplayReport/outcome`` is ``ReplayReport/Outcome/nothingCompared``, not a success. Pass the
/// store's state as `finalState`, lower the interval, or export every state.
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
  // Inlinable so that the replay loop is specialized in the caller for its reducer, which is then
  // inlined into the loop: an unspecialized generic call per entry pays witness and metadata
  // look-ups. The loop runs the entries between two recorded states without looking at anything
  // else; the full entry is built only for a divergence report.
  @inlinable
  public static func verify<R: Reducer>(
    _ snapshot: JournalSnapshot<R.State, R.Action>, reducer: R, statesAfter: [Int: R.State] = [:]
  ) -> ReplayReport<R.State, R.Action> where R.State: Equatable {
    let indices = snapshot.indices
    guard var state = snapshot.baseState else {
      return ReplayReport(replayedEntries: 0, verifiedStates: 0, divergence: nil)
    }
    let checkpoints = snapshot.checkpointSlice
    // A checkpoint at the first entry is the base state itself.
    var nextCheckpoint = checkpoints.firstIndex { $0.index > indices.lowerBound } ?? checkpoints.endIndex
    // Where the given states are compared: after the entry at `key`, before the one at `key + 1`.
    let givenStops = statesAfter.filter { indices.contains($0.key) }
      .map { (stop: $0.key + 1, expected: $0.value) }.sorted { $0.stop < $1.stop }
    var nextGiven = givenStops.startIndex
    var verified = 0
    var firstUnverified = indices.lowerBound
    var position = indices.lowerBound
    while true {
      // The next position before which a recorded state is compared.
      var stop = indices.upperBound
      if nextCheckpoint < checkpoints.endIndex { stop = min(stop, checkpoints[nextCheckpoint].index) }
      if nextGiven < givenStops.endIndex { stop = min(stop, givenStops[nextGiven].stop) }
      snapshot.forEachAction(in: position..<stop) { action, reachedReducer in
        if reachedReducer { _ = reducer.reduce(into: &state, action: action) }
      }
      position = stop
      if nextGiven < givenStops.endIndex, givenStops[nextGiven].stop == stop {
        let expected = givenStops[nextGiven].expected
        nextGiven += 1
        if expected != state {
          return ReplayReport(
            replayedEntries: stop - indices.lowerBound, verifiedStates: verified,
            divergence: divergence(
              after: stop - 1, in: snapshot, firstSuspect: firstUnverified, expected: expected, actual: state)
          )
        }
        verified += 1
        firstUnverified = stop
      }
      if nextCheckpoint < checkpoints.endIndex, checkpoints[nextCheckpoint].index == stop {
        let checkpoint = checkpoints[nextCheckpoint]
        nextCheckpoint += 1
        switch checkpoint.kind {
        case .resync:
          state = checkpoint.state
          firstUnverified = stop
        case .interval:
          if checkpoint.state != state {
            return ReplayReport(
              replayedEntries: stop - indices.lowerBound, verifiedStates: verified,
              divergence: divergence(
                after: stop - 1, in: snapshot, firstSuspect: firstUnverified, expected: checkpoint.state,
                actual: state))
          }
          verified += 1
          firstUnverified = stop
        }
      }
      if stop == indices.upperBound { break }
    }
    return ReplayReport(replayedEntries: indices.count, verifiedStates: verified, divergence: nil)
  }

  /// The report of a divergence after the entry at `index`. Not inlinable: it runs once, and
  /// builds the entry's full record (strings, cause) and the diff.
  @usableFromInline
  static func divergence<State, Action>(
    after index: Int, in snapshot: JournalSnapshot<State, Action>, firstSuspect: Int, expected: State,
    actual: State
  ) -> ReplayDivergence<State, Action> {
    let entry = snapshot.entries[index]
    return ReplayDivergence(
      index: entry.index, sequence: entry.sequence, action: entry.action, cause: entry.cause,
      context: entry.context, firstSuspect: firstSuspect, expected: expected, actual: actual,
      diff: StateDiff.render(from: expected, to: actual), site: entry.site, effectSite: entry.effectSite)
  }

  /// Replays the journal `journal` holds now (see ``verify(_:reducer:statesAfter:)``).
  ///
  /// - Parameters:
  ///   - journal: The recording journal.
  ///   - reducer: The reducer under test.
  ///   - finalState: The state the store reached, `store.state`, compared with the replayed
  ///     state after the last entry. Without it, a run shorter than the checkpoint interval has
  ///     nothing to compare.
  @inlinable
  public static func verify<R: Reducer>(
    _ journal: Journal<R.State, R.Action>, reducer: R, finalState: R.State? = nil
  ) -> ReplayReport<R.State, R.Action> where R.State: Equatable {
    let snapshot = journal.snapshot()
    guard let finalState, let last = snapshot.indices.last else { return verify(snapshot, reducer: reducer) }
    return verify(snapshot, reducer: reducer, statesAfter: [last: finalState])
  }
}
