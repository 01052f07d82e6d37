import ChronicleTracer

/// The mutable part of a ``TimeTravel`` controller that its middleware reads on every action;
/// guarded by the controller's `state` lock.
///
/// `@usableFromInline` (with what ``blocksLiveActions`` reads) so that the middleware's check in
/// the present is specialized in the client, as `Store.send` is.
@usableFromInline
struct TravelState<State: Sendable, Action: Sendable>: Sendable {
  /// The position the store shows: the state before the entry at this index. `nil` for the
  /// present, where live actions flow.
  @usableFromInline var position: Int?
  /// Live actions held: under ``LiveActionPolicy/locked`` while in the past, and under every
  /// policy while a control changes the state.
  @usableFromInline var held = LiveActionQueue<Action>()
  /// Live actions stopped under ``LiveActionPolicy/dropped``.
  var dropped: [LiveAction<Action>] = []
  /// Whether held actions are being applied: until it is cleared, live actions queue behind them.
  @usableFromInline var releasing = false
  /// Whether a control is changing the store's state or the journal: live actions are held,
  /// whatever the policy, and applied when it is done.
  @usableFromInline var pausing = false
  /// Entries left out when states are recomputed.
  var skipped: Set<Int> = []
  /// The lowest index skipped since the journal was last emptied: checkpoints recorded after it
  /// may hold states without a skipped entry (see `Recomputation`).
  var untrustedFrom: Int?
  var branches: [TimelineBranch<State, Action>] = []
  var nextBranchID = 1

  /// Under `.branch`, leaves the past for a live action that starts a branch, and returns the
  /// position to fork at; `nil` when the action must wait (a control is running, or actions
  /// held before it are still to be applied — unless it is one of them, `released`).
  mutating func claimFork(forReleased released: Bool) -> Int? {
    guard let position, !pausing, released || (!releasing && held.isEmpty) else { return nil }
    self.position = nil
    return position
  }

  /// Whether a live action must not reach the reducer now.
  @inlinable var blocksLiveActions: Bool { position != nil || pausing || releasing || !held.isEmpty }
}
