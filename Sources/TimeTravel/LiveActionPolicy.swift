/// What happens to live actions — sent by users, effects, thunks or timers — that reach a store
/// while ``TimeTravel`` shows a past state.
///
/// | policy | a live action while the store shows the past | the future after the position |
/// | --- | --- | --- |
/// | ``locked`` | held, applied in arrival order on the return to the present | kept, and returned to |
/// | ``dropped`` | not applied; recorded in ``TimeTravel/droppedActions`` | kept, and returned to |
/// | ``branch`` | applied to the state shown: it starts a branch, and the store is in the present of the new line | kept as a ``TimelineBranch``, switchable with ``TimeTravel/switchToBranch(_:)`` |
///
/// Under ``locked`` and ``dropped`` a live action is never applied to the past state: mixing live
/// actions into a state the user is inspecting is the interleaving Redux DevTools suffers from.
/// Under ``branch`` the action changes the past explicitly, as ``TimeTravel/send(_:context:fileID:line:function:)``
/// does and as Redux DevTools and redux-undo do when an action arrives after an undo — except
/// that the old future is kept rather than discarded.
///
/// While a control changes the state of a store in the present (a commit, a skip, a move that
/// starts there), live actions are held whatever the policy, and applied when it is done: they
/// were sent to the present, so they are not dropped. Under ``branch``, when that control leaves
/// the store in the past, the first of them starts the branch.
///
/// A held action is applied with the cause and context it arrived with: a timer's tick held in the
/// past is journaled as the timer's tick.
public enum LiveActionPolicy: Sendable, Hashable {
  /// Hold live actions back, and apply them in the order they arrived once the store returns to
  /// the present (``TimeTravel/returnToPresent()``, a ``TimeTravel/redo()`` or jump to the end,
  /// a branch, a commit, a rollback or a reset). The held actions are applied in one turn of the
  /// store: actions that arrive meanwhile wait for the store and follow them, so the return to
  /// the present ends however fast other threads send.
  case locked
  /// Stop live actions, and keep a record of each one in ``TimeTravel/droppedActions``.
  case dropped
  /// Apply a live action to the past state shown, starting a branch: the entries after
  /// ``TimeTravel/position`` are kept as a ``TimelineBranch`` and removed from the journal, the
  /// action is journaled after the position, and the store is in the present of the new line,
  /// where the actions that follow flow as usual.
  case branch
}
