import Observation

/// A view of a store for a child feature: it reads the child's part of the state and sends the
/// child's actions, embedded in the parent's, through the parent store's whole chain.
///
/// ```swift
/// let counter = store.scope(state: \.counter, action: counterPath)
/// counter.send(.increment)    // the parent store processes .counter(.increment)
/// counter.state.count
/// ```
///
/// Reading ``state`` inside Observation tracking registers for any change of the parent's state;
/// reading a member through the scoped store (`counter.count`) registers for that member only.
@dynamicMemberLookup
public final class ScopedStore<State: Sendable, Action: Sendable>: Sendable {
  private let read: @Sendable () -> State
  /// The child's state without registering an Observation access to the parent's.
  private let peek: @Sendable () -> State
  private let deliver: @Sendable (Action, String?) -> Void
  private let subscribe: @Sendable (Bool, @escaping @Sendable (State) -> Void) -> StoreSubscription

  let registrar = ObservationRegistrar()
  /// The members read through dynamic member lookup, reported one by one.
  let observedMembers = ObservedMembers<ScopedStore, State>()
  /// The subscription to the parent that compares tracked members after each action, made when
  /// the first member is read. The child state it last saw is only touched by its callback,
  /// which the parent store runs under its lock.
  private let memberWatch = SanitizerVisibleMutex<StoreSubscription?>(nil)

  init(
    read: @escaping @Sendable () -> State,
    peek: @escaping @Sendable () -> State,
    deliver: @escaping @Sendable (Action, String?) -> Void,
    subscribe: @escaping @Sendable (Bool, @escaping @Sendable (State) -> Void) -> StoreSubscription
  ) {
    self.read = read
    self.peek = peek
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

  /// A member of the child's current state, read as `counter.count`: inside Observation tracking
  /// it registers for changes of that member only, like ``Store/subscript(dynamicMember:)-(KeyPath<State,Value>)``.
  /// A member that is not `Equatable` is reported after every action that reaches the reducer.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    observeMember(keyPath) { _, _ in true }
  }

  /// A member of the child's current state that is `Equatable`: it registers for changes of that
  /// member only, and is reported only when its value changes.
  public subscript<Value: Equatable>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    observeMember(keyPath) { $0[keyPath: keyPath] != $1[keyPath: keyPath] }
  }

  /// The identity under which a member is registered with Observation.
  subscript<Value>(observedMember keyPath: KeyPath<State, Value>) -> Value {
    peek()[keyPath: keyPath]
  }

  private func observeMember<Value>(
    _ keyPath: KeyPath<State, Value>, changed: @escaping (State, State) -> Bool
  ) -> Value {
    let member = observedMembers.member(for: keyPath) {
      let scopedKeyPath: KeyPath<ScopedStore, Value> = \.[observedMember: keyPath]
      return ObservedMember(
        changed: changed,
        access: { $0.registrar.access($0, keyPath: scopedKeyPath) },
        report: { scoped in
          scoped.registrar.willSet(scoped, keyPath: scopedKeyPath)
          scoped.registrar.didSet(scoped, keyPath: scopedKeyPath)
        })
    }
    watchMembers()
    member.access(self)
    return peek()[keyPath: keyPath]
  }

  /// Subscribes to the parent once, to report the tracked members an action changed.
  private func watchMembers() {
    memberWatch.withLock { watch in
      if watch != nil { return }
      let last = LastValue<State>()
      watch = subscribe(true) { [weak self] state in
        defer { last.value = state }
        guard let self, let previous = last.value else { return }
        self.observedMembers.reportChanges(from: previous, to: state, on: self)
      }
    }
  }

  /// A view of a part of this child's state and actions.
  public func scope<Child: Sendable, ChildAction: Sendable>(
    state toChild: @escaping @Sendable (State) -> Child,
    action embed: @escaping @Sendable (ChildAction) -> Action
  ) -> ScopedStore<Child, ChildAction> {
    let read = self.read
    let peek = self.peek
    let deliver = self.deliver
    let subscribe = self.subscribe
    return ScopedStore<Child, ChildAction>(
      read: { toChild(read()) },
      peek: { toChild(peek()) },
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
      peek: { toChild(self.currentState) },
      deliver: { action, context in self.send(embed(action), context: context) },
      subscribe: { immediately, onChange in
        self.observe(immediately: immediately) { onChange(toChild($0)) }
      }
    )
  }
}

extension ScopedStore: Observable {}
