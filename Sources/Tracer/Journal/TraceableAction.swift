/// An action type that can keep some of its values out of journals, as OneWayKit's
/// `shouldTrace` does.
///
/// ```swift
/// extension AppAction: TraceableAction {
///   var shouldTrace: Bool { if case .tick = self { false } else { true } }
/// }
/// ```
public protocol TraceableAction {
  /// Whether the journal records this action.
  var shouldTrace: Bool { get }
}
