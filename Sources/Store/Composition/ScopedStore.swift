/// A view of a store for a child feature: it reads the child's part of the state and sends the
/// child's actions, embedded in the parent's, through the parent store's whole chain.
///
/// ```swift
/// let counter = store.scope(state: \.counter, action: counterPath)
/// counter.send(.increment)    // the parent store processes .counter(.increment)
/// counter.state.count
/// ```
///
/// ## Observation
/// Reading ``state`` inside Observation tracking registers for any change of the parent's state.
/// Reading a member, `counter.count`, registers for changes of that member only when the scoped
/// store was made with a key path (`scope(state: \.counter, …)`), like
/// `Store/subscript(dynamicMember:)`; the root store tracks it, so the observation holds however
/// briefly the scoped store lives. Made with a closure, which cannot be compared, a scoped store
/// registers a member read for any change of the parent's state, as ``state`` does.
@dynamicMemberLookup
public final class ScopedStore<State: Sendable, Action: Sendable>: Sendable {
  private let read: @Sendable () -> State
  private let deliver: @Sendable (Action, String?, CallSite) -> Void
  private let subscribe: @Sendable (Bool, @escaping @Sendable (State) -> Void) -> StoreSubscription
  /// Where members are tracked: `nil` when the scope is a closure.
  private let route: (any MemberRoute<State>)?

  init(
    read: @escaping @Sendable () -> State,
    deliver: @escaping @Sendable (Action, String?, CallSite) -> Void,
    subscribe: @escaping @Sendable (Bool, @escaping @Sendable (State) -> Void) -> StoreSubscription,
    route: (any MemberRoute<State>)? = nil
  ) {
    self.read = read
    self.deliver = deliver
    self.subscribe = subscribe
    self.route = route
  }

  /// The child's part of the parent store's current state.
  public var state: State { read() }

  /// Sends a child action to the parent store, embedded in a parent action.
  ///
  /// The call site (`fileID`, `line`, `function`: leave the defaults) is the action's
  /// ``ActionMetadata/site``.
  public func send(
    _ action: Action, context: String? = nil, fileID: StaticString = #fileID, line: UInt = #line,
    function: StaticString = #function
  ) {
    deliver(action, context, CallSite(fileID: fileID, line: line, function: function))
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

  /// A member of the child's current state that is not `Equatable`, read as `counter.tag`:
  /// inside Observation tracking it registers for every action that reaches the parent's
  /// reducer.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    guard let route else { return read()[keyPath: keyPath] }
    return route.member(keyPath)
  }

  /// A member of the child's current state that is `Equatable`, read as `counter.count`: inside
  /// Observation tracking it registers for changes of that member only (for any change of the
  /// parent's state when this scoped store was made with a closure).
  public subscript<Value: Equatable>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    guard let route else { return read()[keyPath: keyPath] }
    return route.member(keyPath)
  }

  /// A view of a part of this child's state and actions.
  public func scope<Child: Sendable, ChildAction: Sendable>(
    state toChild: @escaping @Sendable (State) -> Child,
    action embed: @escaping @Sendable (ChildAction) -> Action
  ) -> ScopedStore<Child, ChildAction> {
    scope(state: toChild, action: embed, route: nil)
  }

  /// A view of a part of this child's state and actions, whose members are observed one by one
  /// (see "Observation" above).
  ///
  /// - Parameters:
  ///   - toChild: The key path of the grandchild's part of this child's state.
  ///   - embed: How a grandchild action becomes one of this child's actions.
  public func scope<Child: Sendable, ChildAction: Sendable>(
    state toChild: KeyPath<State, Child> & Sendable,
    action embed: @escaping @Sendable (ChildAction) -> Action
  ) -> ScopedStore<Child, ChildAction> {
    scope(state: { $0[keyPath: toChild] }, action: embed, route: route?.appending(toChild))
  }

  private func scope<Child: Sendable, ChildAction: Sendable>(
    state toChild: @escaping @Sendable (State) -> Child,
    action embed: @escaping @Sendable (ChildAction) -> Action,
    route: (any MemberRoute<Child>)?
  ) -> ScopedStore<Child, ChildAction> {
    let read = self.read
    let deliver = self.deliver
    let subscribe = self.subscribe
    return ScopedStore<Child, ChildAction>(
      read: { toChild(read()) },
      deliver: { action, context, site in deliver(embed(action), context, site) },
      subscribe: { immediately, onChange in subscribe(immediately) { onChange(toChild($0)) } },
      route: route
    )
  }
}

extension Store {
  /// A view of this store for a child feature.
  ///
  /// Members read through it (`counter.count`) register for any change of this store's state:
  /// a closure cannot tell which part of the state it reads. Scope with a key path to observe
  /// them one by one.
  ///
  /// - Parameters:
  ///   - toChild: The child's part of the state.
  ///   - embed: How a child action becomes one of this store's actions (an enum case works).
  public func scope<Child: Sendable, ChildAction: Sendable>(
    state toChild: @escaping @Sendable (State) -> Child,
    action embed: @escaping @Sendable (ChildAction) -> Action
  ) -> ScopedStore<Child, ChildAction> {
    scope(state: toChild, action: embed, route: nil)
  }

  /// A view of this store for a child feature, whose members are observed one by one: reading
  /// `counter.count` inside Observation tracking registers for changes of the child's `count`
  /// only.
  ///
  /// - Parameters:
  ///   - toChild: The key path of the child's part of the state.
  ///   - embed: How a child action becomes one of this store's actions (an enum case works).
  public func scope<Child: Sendable, ChildAction: Sendable>(
    state toChild: KeyPath<State, Child> & Sendable,
    action embed: @escaping @Sendable (ChildAction) -> Action
  ) -> ScopedStore<Child, ChildAction> {
    scope(
      state: { $0[keyPath: toChild] }, action: embed,
      route: StoreMemberRoute(store: self, path: toChild))
  }

  private func scope<Child: Sendable, ChildAction: Sendable>(
    state toChild: @escaping @Sendable (State) -> Child,
    action embed: @escaping @Sendable (ChildAction) -> Action,
    route: (any MemberRoute<Child>)?
  ) -> ScopedStore<Child, ChildAction> {
    ScopedStore<Child, ChildAction>(
      read: { toChild(self.state) },
      deliver: { action, context, site in
        self.submit(embed(action), context: context, cause: .user, site: site)
      },
      subscribe: { immediately, onChange in
        self.observe(immediately: immediately) { onChange(toChild($0)) }
      },
      route: route
    )
  }
}
