/// Something a thread asked of a store that was busy, at a moment the thread could not wait for
/// it: the store's owner performs it, in arrival order, before it releases the store or right
/// after (see `Store.handOffInbox()`).
@usableFromInline
enum InboxItem<Action: Sendable>: Sendable {
  /// An action to process, with the cause and context it was sent with.
  case action(PendingAction<Action>)
  /// Work done as the owner: a cancellation, an effect to start, an effect's end.
  case operation(@Sendable () -> Void)
}
