import ChronicleLocks
import Synchronization

/// A token for a subscription to a store's state. Cancel it, or let it go: the subscription ends
/// when the token is released.
///
/// ```swift
/// let subscription = store.observe(\.count) { count in print(count) }
/// // …
/// subscription.cancel()
/// ```
public final class StoreSubscription: Sendable, Hashable {
  private let onCancel: SanitizerVisibleMutex<(@Sendable () -> Void)?>

  init(onCancel: @escaping @Sendable () -> Void) {
    self.onCancel = SanitizerVisibleMutex(onCancel)
  }

  /// Ends the subscription: after `cancel` returns, the callback is not called again. Calling it
  /// more than once, from inside the callback, or after the store was released is allowed.
  public func cancel() {
    let action = onCancel.withLock { action in
      defer { action = nil }
      return action
    }
    action?()
  }

  deinit { cancel() }

  /// Keeps the subscription alive for as long as `set` holds it.
  public func store(in set: inout Set<StoreSubscription>) {
    set.insert(self)
  }

  public static func == (lhs: StoreSubscription, rhs: StoreSubscription) -> Bool { lhs === rhs }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
