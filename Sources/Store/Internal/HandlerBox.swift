/// A middleware's action handler in a class, so the store can call it through a guaranteed
/// (unretained) reference: loading the closure out of an array retained its context every call.
@usableFromInline
final class HandlerBox<State: Sendable, Action: Sendable>: Sendable {
  @usableFromInline let handle: AnyMiddleware<State, Action>.ActionHandler
  init(_ handle: @escaping AnyMiddleware<State, Action>.ActionHandler) { self.handle = handle }
}
