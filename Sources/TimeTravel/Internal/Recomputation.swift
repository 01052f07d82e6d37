import ChronicleTracer

/// Recomputes the states time travel shows, leaving skipped entries out.
///
/// Inlinable, and called through a closure ``TimeTravel`` forms in the client (its `init` is
/// inlinable), so that it is specialized for the client's State and Action: unspecialized, every
/// replayed step paid generic witness and metadata look-ups (`timetravel/jump-replay-step` against `replay/verify`).
/// The steps themselves run in the journal's replay loop, formed where the journal was created
/// with its reducer inlined, as `Replay.verify`'s is: one call per run of entries, not per step.
@usableFromInline
enum Recomputation {
  /// The state before the entry at `position` with the entries in `skipped` left out; `nil`
  /// outside the snapshot's indices.
  ///
  /// Without a skipped entry before `position` this is the journal's own recomputation from its
  /// nearest checkpoint. Otherwise the states are recomputed from the first skipped entry on:
  /// interval checkpoints after it hold states that included it, and are passed by; resync
  /// checkpoints (states the entries alone do not lead to) are taken, as the journal does.
  ///
  /// - Parameter untrusted: The first index after which interval checkpoints may hold states
  ///   computed without some entry: the tracer takes them from the store, which showed such
  ///   states while an entry was skipped. They are passed by even when no entry is skipped now.
  @inlinable
  static func state<State, Action>(
    before position: Int, in snapshot: JournalSnapshot<State, Action>, skipping skipped: Set<Int>,
    untrustedFrom untrusted: Int? = nil
  ) -> State? {
    let indices = snapshot.indices
    guard position >= indices.lowerBound, position <= indices.upperBound else { return nil }
    let candidates = skipped.filter { $0 >= indices.lowerBound && $0 < position }
      .union(untrusted.map { [max($0, indices.lowerBound)] } ?? [])
    guard let first = candidates.filter({ $0 < position }).min() else {
      return replayed(before: position, in: snapshot)
    }
    guard var state = replayed(before: first, in: snapshot) else { return nil }
    let checkpoints = snapshot.checkpointSlice
    var next = checkpoints.firstIndex { $0.index > first } ?? checkpoints.endIndex
    let skips = skipped.filter { $0 >= first && $0 < position }.sorted()
    var nextSkip = 0
    var index = first
    // The runs between skipped entries and checkpoints go through the journal's replay loop,
    // which has the reducer inlined.
    while index < position {
      if next < checkpoints.endIndex, checkpoints[next].index == index {
        if checkpoints[next].kind == .resync { state = checkpoints[next].state }
        next += 1
      }
      if nextSkip < skips.count, skips[nextSkip] == index {
        nextSkip += 1
        index += 1
        continue
      }
      var end = position
      if next < checkpoints.endIndex { end = min(end, checkpoints[next].index) }
      if nextSkip < skips.count { end = min(end, skips[nextSkip]) }
      snapshot.replayActions(in: index..<end, into: &state)
      index = end
    }
    return state
  }

  /// The journal's state before `position`, recomputed from its nearest checkpoint as
  /// ``ChronicleTracer/JournalSnapshot/state(before:)`` does, with the journal's replay loop.
  @inlinable
  static func replayed<State, Action>(
    before position: Int, in snapshot: JournalSnapshot<State, Action>
  ) -> State? {
    guard let checkpoint = snapshot.checkpoint(atOrBefore: position) else { return nil }
    var state = checkpoint.state
    snapshot.replayActions(in: checkpoint.index..<position, into: &state)
    return state
  }
}
