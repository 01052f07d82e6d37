/// An action waiting in the store's FIFO queue: sent re-entrantly while another was processed.
@usableFromInline
struct PendingAction<Action> {
  @usableFromInline var action: Action
  @usableFromInline var context: String?
  @usableFromInline var cause: Cause
  /// Where it was sent, and where the effect that sent it was created.
  @usableFromInline var site: CallSite?
  @usableFromInline var effectSite: CallSite?
  /// The effect that sent it, checked for cancellation when the action is dequeued.
  @usableFromInline var record: EffectRecord?
  /// The propagated task-locals' values where it was sent; `nil` in a store that propagates none.
  @usableFromInline var taskLocals: TaskLocalSnapshot?

  @inlinable
  init(
    action: Action, context: String?, cause: Cause, site: CallSite?, effectSite: CallSite? = nil,
    record: EffectRecord?, taskLocals: TaskLocalSnapshot? = nil
  ) {
    self.action = action
    self.context = context
    self.cause = cause
    self.site = site
    self.effectSite = effectSite
    self.record = record
    self.taskLocals = taskLocals
  }
}

extension PendingAction: Sendable where Action: Sendable {}
