/// An action waiting in the store's FIFO queue: sent re-entrantly while another was processed.
@usableFromInline
struct PendingAction<Action> {
  @usableFromInline var action: Action
  @usableFromInline var context: String?
  @usableFromInline var cause: Cause
  /// The effect that sent it, checked for cancellation when the action is dequeued.
  @usableFromInline var record: EffectRecord?

  @inlinable
  init(action: Action, context: String?, cause: Cause, record: EffectRecord?) {
    self.action = action
    self.context = context
    self.cause = cause
    self.record = record
  }
}

extension PendingAction: Sendable where Action: Sendable {}
