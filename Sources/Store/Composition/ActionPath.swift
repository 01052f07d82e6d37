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

/// How the actions of one element in a collection of child features live inside a parent's.
public struct ElementActionPath<Parent, ID: Hashable & Sendable, Child>: Sendable {
  /// Wraps an element's action, with the element's id, in the parent's action type.
  public let embed: @Sendable (ID, Child) -> Parent
  /// Returns the element id and action inside a parent action, or `nil`.
  public let extract: @Sendable (Parent) -> (ID, Child)?

  /// Creates a path from an embedding function and an extracting one.
  public init(
    embed: @escaping @Sendable (ID, Child) -> Parent,
    extract: @escaping @Sendable (Parent) -> (ID, Child)?
  ) {
    self.embed = embed
    self.extract = extract
  }
}
