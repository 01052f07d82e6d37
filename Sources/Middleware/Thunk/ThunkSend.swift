import ChronicleStore
/// Sends actions from a synchronous thunk (``Thunk/sync(_:fileID:line:function:body:)``).
///
/// Valid only while the thunk's body runs: do not keep it.
public struct ThunkSend<Action: Sendable> {
  let deliver: (Action, CallSite) -> Void

  init(_ deliver: @escaping (Action, CallSite) -> Void) { self.deliver = deliver }

  /// Sends `action` with the thunk as its cause, and this call's site as its
  /// ``/ChronicleStore/ActionMetadata/site`` (`fileID`, `line`, `function`: leave the defaults).
  public func callAsFunction(
    _ action: Action, fileID: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
  ) {
    deliver(action, CallSite(fileID: fileID, line: line, function: function))
  }
}
