/// The two import files of the Redux DevTools extension (see docs/formats/redux-devtools.md).
///
/// What the extension does with them depends on the instance they are imported into. An instance
/// of a page's Redux store (the extension's default, `features.import: "custom"`) hands the file
/// to the page, whose store dispatches `IMPORT_STATE` without `noRecompute`: the page's reducer
/// recomputes every state from the base state, in both forms, so the recorded states are shown
/// only where that reducer computes them. An instance that declares `features: {import: true}`
/// (through `connect(...)`, as the ``JournalViewer`` page's does) shows a ``liftedState`` file as
/// it is, recorded states included.
public enum ReduxDevToolsForm: Sendable, Hashable {
  /// `{"payload": "<JSON of the actions>", "preloadedState": "<JSON of the base state>"}`: the
  /// page's reducer replays the actions from the base state.
  case custom
  /// The extension's lifted state (`actionsById`, `computedStates`, `stagedActionIds`,
  /// `skippedActionIds`, `committedState`, `currentStateIndex`, `nextActionId`, `isLocked`,
  /// `isPaused`), with every recorded state in `computedStates`: shown as recorded by an instance
  /// with `features.import: true`, recomputed by a page's store otherwise.
  case liftedState

  /// The longest file the extension can import: it reads the file into one JavaScript string,
  /// and V8 strings hold at most 2²⁹ − 24 UTF-16 code units (a UTF-8 byte is at least one).
  public static let maxImportBytes = (1 << 29) - 24
}
