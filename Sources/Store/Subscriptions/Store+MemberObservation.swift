import Observation

extension Store {
  /// A member of the current state, read as `store.count`: inside Observation tracking (a
  /// SwiftUI view's `body`, `withObservationTracking`) it registers for changes of that member
  /// only, where ``state`` registers for any change.
  ///
  /// ```swift
  /// withObservationTracking {
  ///   _ = store.count          // not invalidated when another field changes
  /// } onChange: {
  ///   print("count will change")
  /// }
  /// ```
  ///
  /// After each action the store compares every member read this way with its value before the
  /// action, and reports the ones that differ. A member that is not `Equatable` is reported
  /// after every action that reaches the reducer.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    observeMember(keyPath) { _, _ in true }
  }

  /// A member of the current state that is `Equatable`, read as `store.count`: it registers for
  /// changes of that member only, and is reported only when its value changes.
  public subscript<Value: Equatable>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    observeMember(keyPath) { $0[keyPath: keyPath] != $1[keyPath: keyPath] }
  }

  /// The identity under which a member is registered with Observation: a key path of the store.
  subscript<Value>(observedMember keyPath: KeyPath<State, Value>) -> Value {
    currentState[keyPath: keyPath]
  }

  private func observeMember<Value>(
    _ keyPath: KeyPath<State, Value>, changed: @escaping (State, State) -> Bool
  ) -> Value {
    if !observationArmed.load(ordering: .relaxed) { observationArmed.store(true, ordering: .relaxed) }
    let member = observedMembers.member(for: keyPath) {
      // Formed once per member: writing a key path into a generic class costs microseconds.
      let storeKeyPath: KeyPath<Store, Value> = \.[observedMember: keyPath]
      return ObservedMember(
        changed: changed,
        access: { $0.registrar.access($0, keyPath: storeKeyPath) },
        report: { store in
          store.registrar.willSet(store, keyPath: storeKeyPath)
          store.registrar.didSet(store, keyPath: storeKeyPath)
        })
    }
    member.access(self)
    return currentState[keyPath: keyPath]
  }

  /// Runs the reducer while Observation is armed: reports the whole state, then each member read
  /// through dynamic member lookup whose value the action changed.
  // Out of `reduce` so that an unobserved store's send carries none of it; inlinable so that it is
  // specialized for the client's State and Action.
  @inlinable @inline(never)
  func reduceObserved(_ action: Action) -> Effect<Action> {
    let storage = self.storage
    registrar.willSet(self, keyPath: stateKeyPath)
    guard observedMembers.isTracking else {
      let effect = reducer(&storage.pointee.state, action)
      registrar.didSet(self, keyPath: stateKeyPath)
      return effect
    }
    let previous = storage.pointee.state
    let effect = reducer(&storage.pointee.state, action)
    registrar.didSet(self, keyPath: stateKeyPath)
    reportMemberChanges(from: previous)
    return effect
  }

  /// Reports each tracked member that differs between `previous` and the current state.
  @usableFromInline
  func reportMemberChanges(from previous: State) {
    observedMembers.reportChanges(from: previous, to: storage.pointee.state, on: self)
  }
}
