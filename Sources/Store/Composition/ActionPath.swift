/// How a child feature's actions live inside a parent's: embed a child action into a parent
/// action, and extract it back.
///
/// For an enum case, pass the case itself to embed and a pattern match to extract:
///
/// ```swift
/// let counter = ActionPath<AppAction, Counter.Action>(embed: AppAction.counter) {
///   if case .counter(let action) = $0 { action } else { nil }
/// }
/// ```
public struct ActionPath<Parent, Child>: Sendable {
  /// Wraps a child action in the parent's action type.
  public let embed: @Sendable (Child) -> Parent
  /// Returns the child action inside a parent action, or `nil` if it holds none.
  public let extract: @Sendable (Parent) -> Child?

  /// Creates a path from an embedding function and an extracting one.
  public init(
    embed: @escaping @Sendable (Child) -> Parent,
    extract: @escaping @Sendable (Parent) -> Child?
  ) {
    self.embed = embed
    self.extract = extract
  }
}
