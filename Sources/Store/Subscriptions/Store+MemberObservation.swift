import Observation

extension Store {
  /// A member of the current state, read as `store.count`: inside Observation tracking (a
  /// SwiftUI view's `body`, `withObservationTracking`) it registers for changes of that member
  /// only, where ``state`` registers for any change of the state.
  ///
  /// After each action that reaches the reducer the store reports every member read this way.
  /// This overload serves members that are not `Equatable`, which cannot be compared: they are
  /// reported after every such action, as ``state`` is.
  ///
  /// A chain such as `store.settings.theme` reads `settings` through the store and `theme` from
  /// the value it returns: it registers for changes of `settings`, any part of it. To observe a
  /// narrower part, scope the store with a key path (`store.scope(state: \.settings, action: …)`)
  /// and read the member through the scoped store.
  // Inlinable, as the next one, so that the comparison is specialized for the client's State.
  @inlinable
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    track(MemberKey(keyPath)) { { _, _ in true } }
    return currentState[keyPath: keyPath]
  }

  /// A member of the current state that is `Equatable`, read as `store.count`: inside
  /// Observation tracking it registers for changes of that member only, and it is reported only
  /// after an action that changes its value.
  ///
  /// ```swift
  /// withObservationTracking {
  ///   print("count is", store.count)
  /// } onChange: {
  ///   print("count changed")  // not called when an action changes another field only
  /// }
  /// ```
  ///
  /// The store compares each member read this way before and after every action that reaches
  /// the reducer, and reports (`willSet` then `didSet`, once the reducer has returned) those
  /// whose value differs. A store whose members have never been read does no such work.
  @inlinable
  public subscript<Value: Equatable>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    track(MemberKey(keyPath)) { ObservedMember<Store, State>.comparing(keyPath) }
    return currentState[keyPath: keyPath]
  }

  /// A member of a part of the state, read through a scoped store: registered and reported as a
  /// member of this store, so that it is observed for as long as the store lives, however short
  /// the scoped store's life.
  func member<Child, Value>(_ member: KeyPath<Child, Value>, in scope: KeyPath<State, Child>) -> Value {
    track(MemberKey(member, in: scope)) { { _, _ in true } }
    return currentState[keyPath: scope][keyPath: member]
  }

  /// An `Equatable` member of a part of the state, read through a scoped store.
  func member<Child, Value: Equatable>(
    _ member: KeyPath<Child, Value>, in scope: KeyPath<State, Child>
  ) -> Value {
    track(MemberKey(member, in: scope)) {
      ObservedMember<Store, State>.comparing(scope.appending(path: member))
    }
    return currentState[keyPath: scope][keyPath: member]
  }

  /// The identity under which the member at `index` of `observedMembers` is registered with
  /// Observation. The registrar never reads it; it only compares key paths.
  @usableFromInline subscript(observedMember index: Int) -> Void { () }

  /// Registers an Observation access to the member `key`, tracking it first if it is new.
  @usableFromInline
  func track(_ key: MemberKey, changed: () -> (State, State) -> Bool) {
    if !observationArmed.load(ordering: .relaxed) { observationArmed.store(true, ordering: .relaxed) }
    let member = observedMembers.member(for: key) { index in
      // Formed once per member: writing a key path into a generic class costs microseconds.
      ObservedMember(keyPath: \Store.[observedMember: index], changed: changed())
    }
    registrar.access(self, keyPath: member.keyPath)
  }

  /// Runs the reducer for `reduce` once a member has been read and the state's `willSet` has been
  /// reported: then reports the state's `didSet` and each member whose value the action changed.
  // Out of `reduce`, so that a store whose members nobody reads carries none of it; inlinable so
  // that it is specialized for the client's State and Action.
  @inlinable @inline(never)
  func reduceReportingMembers(_ action: Action) -> Effect<Action> {
    let storage = self.storage
    let previous = storage.pointee.state
    let effect = reducer(&storage.pointee.state, action)
    registrar.didSet(self, keyPath: stateKeyPath)
    reportMemberChanges(from: previous)
    storage.pointee.reducerRan = true
    return effect
  }

  /// Reports each tracked member that differs between `previous` and the current state. Call as
  /// the owner.
  // Inlinable so that it is specialized for the client's State (inlined into `reduceReportingMembers`):
  // unspecialized, it paid generic metadata look-ups on every action.
  @inlinable
  func reportMemberChanges(from previous: State) {
    let current = storage.pointee.state
    for member in observedMembers.forOwner() where member.changed(previous, current) {
      registrar.willSet(self, keyPath: member.keyPath)
      registrar.didSet(self, keyPath: member.keyPath)
    }
  }
}
