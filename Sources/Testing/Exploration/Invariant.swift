/// A property that must hold after every action the explorer's store processes: over the state,
/// or over a transition (the state before, the action, the state after).
///
/// ```swift
/// let selectionExists = Invariant<Todos.State, Todos.Action>(
///   "the selection is a todo", expression: "Todos.State.selectionExists"
/// ) { state in
///   state.selected.map { state.todos.indices.contains($0) } ?? true
/// }
/// let neverDecreases = Invariant<Counter.State, Counter.Action>("never decreases") { old, action, new in
///   action == .reset || new.count >= old.count
/// }
/// ```
///
/// `expression` is how a generated test checks the same property: the Swift expression, in the
/// test target, of a function taking the state (`(State) -> Bool`) or, for a transition, the
/// state before, the action and the state after (`(State, Action, State) -> Bool`). Without it,
/// the generated test reaches the violation but cannot check it, and says so in a comment.
public struct Invariant<State: Sendable, Action: Sendable>: Sendable {
  @usableFromInline
  enum Check: Sendable {
    case state(@Sendable (State) -> Bool)
    case transition(@Sendable (State, Action, State) -> Bool)
  }

  /// The property's name, as failures print it.
  public let name: String
  /// The Swift expression a generated test calls to check the property, if any.
  public let expression: String?
  @usableFromInline let check: Check

  /// A property of every state the store reaches, the initial one included.
  ///
  /// - Parameters:
  ///   - name: The property's name, as failures print it.
  ///   - expression: The Swift expression of a `(State) -> Bool` function that a generated
  ///     test calls to check the property.
  ///   - holds: Returns whether the property holds for a state.
  public init(
    _ name: String, expression: String? = nil, holds: @escaping @Sendable (_ state: State) -> Bool
  ) {
    self.name = name
    self.expression = expression
    self.check = .state(holds)
  }

  /// A property of every transition: the state before an action, the action, the state after.
  ///
  /// - Parameters:
  ///   - name: The property's name, as failures print it.
  ///   - expression: The Swift expression of a `(State, Action, State) -> Bool` function that a
  ///     generated test calls to check the property.
  ///   - holds: Returns whether the property holds for a transition.
  public init(
    _ name: String, expression: String? = nil,
    holds: @escaping @Sendable (_ old: State, _ action: Action, _ new: State) -> Bool
  ) {
    self.name = name
    self.expression = expression
    self.check = .transition(holds)
  }

  /// Whether the property is over transitions rather than states.
  public var isTransition: Bool {
    if case .transition = check { return true }
    return false
  }

  // Inlinable: called after every action by the explorer's middleware, formed in the client.
  @inlinable
  func holds(old: State, action: Action, new: State) -> Bool {
    switch check {
    case .state(let holds): holds(new)
    case .transition(let holds): holds(old, action, new)
    }
  }
}
