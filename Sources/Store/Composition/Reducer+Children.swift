/// The cancellation id under which a child feature's effects run, so they can be cancelled when
/// the child's state goes away.
struct ChildEffectsID: Hashable, Sendable {
  let path: String
  let element: AnyHashableSendable?
}

/// A `Hashable & Sendable` box for element ids.
struct AnyHashableSendable: Hashable, Sendable {
  let base: EffectID
}

extension Reducer {
  /// Runs `child` on an optional part of the state while it is present, after this reducer.
  ///
  /// When the part becomes `nil` (the screen closes, the sheet is dismissed), every effect the
  /// child started is cancelled: none of its actions arrives afterwards. Child actions that
  /// arrive while the part is `nil` are ignored.
  public func ifLet<Child: Reducer>(
    _ state: WritableKeyPath<Self.State, Child.State?> & Sendable,
    action: ActionPath<Self.Action, Child.Action>,
    then child: () -> Child
  ) -> Reduce<Self.State, Self.Action> {
    let child = child()
    let id = ChildEffectsID(path: String(describing: state), element: nil)
    return Reduce { parentState, parentAction in
      var childEffect: Effect<Self.Action> = .none
      if let childAction = action.extract(parentAction), var childState = parentState[keyPath: state] {
        // Moved out, so the parent no longer shares it: the child mutates it without a copy.
        parentState[keyPath: state] = nil
        childEffect = child.reduce(into: &childState, action: childAction).map(action.embed).cancellable(
          id: id)
        parentState[keyPath: state] = childState
      }
      let wasPresent = parentState[keyPath: state] != nil
      let parentEffect = self.reduce(into: &parentState, action: parentAction)
      let dismissed: Effect<Self.Action> =
        wasPresent && parentState[keyPath: state] == nil ? .cancel(id: id) : .none
      return .merge(childEffect, parentEffect, dismissed)
    }
  }

  /// Runs `element` on each child in a collection of identified children, after this reducer.
  ///
  /// Actions carry the element's id. When an element is removed, every effect it started is
  /// cancelled. Actions for ids that are not in the collection are ignored.
  public func forEach<Element: Reducer>(
    _ state: WritableKeyPath<Self.State, [Element.State]> & Sendable,
    action: ElementActionPath<Self.Action, Element.State.ID, Element.Action>,
    element: () -> Element
  ) -> Reduce<Self.State, Self.Action> where Element.State: Identifiable, Element.State.ID: Sendable {
    let element = element()
    let path = String(describing: state)
    @Sendable func effectsID(_ id: Element.State.ID) -> ChildEffectsID {
      ChildEffectsID(path: path, element: AnyHashableSendable(base: EffectID(id)))
    }
    return Reduce { parentState, parentAction in
      var elementEffect: Effect<Self.Action> = .none
      if let (id, elementAction) = action.extract(parentAction),
        let index = parentState[keyPath: state].firstIndex(where: { $0.id == id })
      {
        elementEffect = element.reduce(into: &parentState[keyPath: state][index], action: elementAction)
          .map { action.embed(id, $0) }.cancellable(id: effectsID(id))
      }
      let idsBefore = parentState[keyPath: state].map(\.id)
      let parentEffect = self.reduce(into: &parentState, action: parentAction)
      let idsAfter = Set(parentState[keyPath: state].map(\.id))
      let removed = idsBefore.filter { !idsAfter.contains($0) }
      return .merge([elementEffect, parentEffect] + removed.map { .cancel(id: effectsID($0)) })
    }
  }
}
