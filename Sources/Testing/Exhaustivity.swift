/// How strictly a ``TestStore`` checks a feature.
public enum Exhaustivity: Sendable, Equatable {
  /// Every state change must be asserted, every action an effect sends must be received, and no
  /// effect may still run at the end. The default, as in The Composable Architecture's TestStore.
  case on
  /// Only what the test asserts is checked: unasserted state changes are accepted, `receive`
  /// skips actions it was not asked for, and effects may outlive the test. For integration tests.
  case off
}
