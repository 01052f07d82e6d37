/// How a scoped store's members reach the store that tracks them: the root store and the key
/// path from its state to the scoped store's.
///
/// Members are tracked by the root store rather than by the scoped store, so an observation
/// lasts as long as the root store does, even when the scoped store is made afresh for each read
/// (in a SwiftUI view's `body`) and released at once.
protocol MemberRoute<Child>: Sendable {
  associatedtype Child

  /// A member that is not `Equatable`, registered for every action that reaches the reducer.
  func member<Value>(_ member: KeyPath<Child, Value>) -> Value

  /// An `Equatable` member, registered for changes of its value.
  func member<Value: Equatable>(_ member: KeyPath<Child, Value>) -> Value

  /// The route to a part of `Child`.
  func appending<Grandchild>(_ path: KeyPath<Child, Grandchild>) -> any MemberRoute<Grandchild>
}

/// The route from a store's state to a part of it.
///
/// `@unchecked Sendable`: `path` is a key path, an immutable value; the store is `Sendable`.
struct StoreMemberRoute<Root: Sendable, RootAction: Sendable, Child>: MemberRoute, @unchecked Sendable {
  let store: Store<Root, RootAction>
  let path: KeyPath<Root, Child>

  func member<Value>(_ member: KeyPath<Child, Value>) -> Value {
    store.member(member, in: path)
  }

  func member<Value: Equatable>(_ member: KeyPath<Child, Value>) -> Value {
    store.member(member, in: path)
  }

  func appending<Grandchild>(_ path: KeyPath<Child, Grandchild>) -> any MemberRoute<Grandchild> {
    StoreMemberRoute<Root, RootAction, Grandchild>(store: store, path: self.path.appending(path: path))
  }
}
