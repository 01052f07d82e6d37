/// A registered state callback.
///
/// `@unchecked Sendable`: `isActive` is read and written only under the store's lock; `notify`
/// and `finish` are immutable.
@usableFromInline
final class StateObserver<State>: @unchecked Sendable {
  // Unchecked: the store's lock already makes access exclusive; a dynamic check shows in `send/1-observer`.
  @exclusivity(unchecked) @usableFromInline var isActive = true
  @usableFromInline let notify: (State) -> Void
  /// Called when the store is released, so async sequences end.
  @usableFromInline let finish: (() -> Void)?

  @usableFromInline
  init(notify: @escaping (State) -> Void, finish: (() -> Void)? = nil) {
    self.notify = notify
    self.finish = finish
  }
}
