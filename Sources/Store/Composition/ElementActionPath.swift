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
