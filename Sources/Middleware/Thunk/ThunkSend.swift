/// Sends actions from a synchronous thunk (``Thunk/sync(_:body:)``).
///
/// Valid only while the thunk's body runs: do not keep it.
public struct ThunkSend<Action: Sendable> {
  let deliver: (Action) -> Void

  init(_ deliver: @escaping (Action) -> Void) { self.deliver = deliver }

  /// Sends `action` with the thunk as its cause.
  public func callAsFunction(_ action: Action) { deliver(action) }
}
