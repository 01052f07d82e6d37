/// Sends actions from an effect back into the store.
///
/// Effects receive a `Send` and call it like a function:
///
/// ```swift
/// return .run { send in
///   let todos = try await api.loadTodos()
///   await send(.loaded(todos))
/// }
/// ```
///
/// Every action goes through the whole middleware chain with the effect as its cause. Once the
/// effect is cancelled, or its store released, sending does nothing.
public struct Send<Action: Sendable>: Sendable {
  @usableFromInline let deliver: @Sendable (Action, String?, CallSite) -> Void

  /// Creates a `Send` that hands every action to `deliver`, with an optional context label.
  ///
  /// Stores create these for their effects; tests can create one to drive an effect's operation
  /// directly.
  public init(_ deliver: @escaping @Sendable (_ action: Action, _ context: String?) -> Void) {
    self.deliver = { action, context, _ in deliver(action, context) }
  }

  /// Creates a `Send` that hands every action to `deliver`, with an optional context label and
  /// the call site of the `send` (``ActionMetadata/site``).
  public init(
    site deliver: @escaping @Sendable (_ action: Action, _ context: String?, _ site: CallSite) -> Void
  ) {
    self.deliver = deliver
  }

  /// Sends `action` to the store. It is processed before this call returns, unless the effect was
  /// cancelled or the store released, in which case it is dropped.
  ///
  /// The action's ``ActionMetadata/site`` is where this was called (`fileID`, `line`,
  /// `function`: leave the defaults).
  @inlinable
  public func callAsFunction(
    _ action: Action, fileID: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
  ) async {
    deliver(action, nil, CallSite(fileID: fileID, line: line, function: function))
  }

  /// Sends `action` with a context label that overrides the one inherited from the cause.
  @inlinable
  public func callAsFunction(
    _ action: Action, context: String?, fileID: StaticString = #fileID, line: UInt = #line,
    function: StaticString = #function
  ) async {
    deliver(action, context, CallSite(fileID: fileID, line: line, function: function))
  }

  /// Sends `action` with a call site given as a value: for a middleware that sends an action
  /// again later, under the site it was first sent from.
  package func callAsFunction(_ action: Action, site: CallSite) async {
    deliver(action, nil, site)
  }

  /// Returns a `Send` that accepts another action type and converts it, e.g. to embed a child
  /// feature's effect in its parent.
  public func map<Child: Sendable>(_ transform: @escaping @Sendable (Child) -> Action) -> Send<Child> {
    let deliver = self.deliver
    return Send<Child>(site: { action, context, site in deliver(transform(action), context, site) })
  }
}
