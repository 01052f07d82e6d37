/// What happens to live actions — sent by users, effects, thunks or timers — that reach a store
/// while ``TimeTravel`` shows a past state.
///
/// Either way they are never applied to the past state: mixing live actions into a state the
/// user is inspecting is the interleaving Redux DevTools suffers from.
///
/// While a control changes the state of a store in the present (a commit, a skip, a move that
/// starts there), live actions are held whatever the policy, and applied when it is done: they
/// were sent to the present, so they are not dropped.
public enum LiveActionPolicy: Sendable, Hashable {
  /// Hold live actions back, and apply them in the order they arrived once the store returns to
  /// the present (``TimeTravel/returnToPresent()``, a ``TimeTravel/redo()`` or jump to the end,
  /// a branch, a commit, a rollback or a reset). Actions that arrive while held ones are being
  /// applied queue up behind them.
  case locked
  /// Stop live actions, and keep a record of each one in ``TimeTravel/droppedActions``.
  case dropped
}
