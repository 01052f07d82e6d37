/// A view of a store for a child feature: it reads the child's part of the state and sends the
/// child's actions, embedded in the parent's, through the parent store's whole chain.
///
/// ```swift
/// let counter = store.scope(state: \.counter, action: counterPath)
/// counter.send(.increment)    // the parent store processes .counter(.increment)
/// counter.state.count
/// ```
public final class ScopedStore<State: Sendable, Action: Sendable>: Sendable {
  private let read: @Sendable () -> State
  private let deliver: @Sendable (Action, String?) -> Void
  private let subscribe: @Sendable (Bool, @escaping @Sendable (State) -> Void) -> StoreSubscription

  init(
    read: @escaping @Sendable () -> State,
    deliver: @escaping @Sendable (Action, String?) -> Void,
    subscribe: @escaping @Sendable (Bool, @escaping @Sendable (State) -> Void) -> StoreSubscription
  ) {
    self.read = read
    self.deliver = deliver
    self.subscribe = subscribe
  }

  /// The child's part of the parent store's current state.
  public var state: State { read() }

  /// Sends a child action to the parent store, embedded in a parent action.
  public func send(_ action: Action, context: String? = nil) {
    deliver(action, context)
  }

  /// Calls `onChange` with a part of the child's state, like ``Store/observe(_:immediately:removeDuplicates:onChange:)``.
  public func observe<Value: Equatable & Sendable>(
    _ value: @escaping @Sendable (State) -> Value,
    immediately: Bool = true,
    removeDuplicates: Bool = true,
    onChange: @escaping @Sendable (Value) -> Void
  ) -> StoreSubscription {
    let last = LastValue<Value>()
    return subscribe(true) { state in
      let current = value(state)
      let isFirst = last.value == nil
      if removeDuplicates, let previous = last.value, previous == current { return }
      last.value = current
      if isFirst && !immediately { return }
      onChange(current)
    }
  }

  /// Calls `onChange` with the child's state now (if `immediately`) and after every parent action.
  public func observe(
    immediately: Bool = true, onChange: @escaping @Sendable (State) -> Void
  ) -> StoreSubscription {
    subscribe(immediately, onChange)
  }

  /// A view of a part of this child's state and actions.
  public func scope<Child: Sendable, ChildAction: Sendable>(
    state toChild: @escaping @Sendable (State) -> Child,
    action embed: @escaping @Sendable (ChildAction) -> Action
  ) -> ScopedStore<Child, ChildAction> {
    let read = self.read
    let deliver = self.deliver
    let subscribe = self.subscribe
    return ScopedStore<Child, ChildAction>(
      read: { toChild(read()) },
      deliver: { action, context in deliver(embed(action), context) },
      subscribe: { immediately, onChange in subscribe(immediately) { onChange(toChild($0)) } }
    )
  }
}

extension Store {
  /// A view of this store for a child feature.
  ///
  /// - Parameters:
  ///   - toChild: The child's part of the state (a key path literal converts to it).
  ///   - embed: How a child action becomes one of this store's actions (an enum case works).
  public func scope<Child: Sendable, ChildAction: Sendable>(
    state toChild: @escaping @Sendable (State) -> Child,
    action embed: @escaping @Sendable (ChildAction) -> Action
  ) -> ScopedStore<Child, ChildAction> {
    ScopedStore<Child, ChildAction>(
      read: { toChild(self.state) },
      deliver: { action, context in self.send(embed(action), context: context) },
      subscribe: { immediately, onChange in
        self.observe(immediately: immediately) { onChange(toChild($0)) }
      }
    )
  }
}
