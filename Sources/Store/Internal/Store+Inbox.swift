import ChronicleLocks
import Synchronization

extension Store {
  /// Whether the calling thread, having found this store's lock taken, must not wait for it: it
  /// is processing another store, whose owner may in turn be waiting for this one.
  @usableFromInline
  func mustNotWait(_ thread: UInt) -> Bool {
    StoreOwners.isProcessing(thread)
  }

  /// Leaves `item` for the store's owner, then tries to become the owner and process it: if the
  /// owner released the store between this thread's try and the item's arrival, nobody else
  /// would.
  ///
  /// The item takes the propagated task-locals' values here: the owner performs it in its own
  /// context.
  @usableFromInline
  func deferToOwner(_ item: InboxItem<Action>) {
    var item = item
    if let propagation {
      let taskLocals = propagation.capture()
      switch item {
      case .action(var pending):
        pending.taskLocals = taskLocals
        item = .action(pending)
      case .operation(let body):
        item = .operation { taskLocals.run(body) }
      }
    }
    inbox.withLock { items in
      items.append(item)
      inboxCount.add(1, ordering: .sequentiallyConsistent)
    }
    handOffInbox()
  }

  /// Processes the inbox as the owner, for as long as it holds items and the store's lock is
  /// free. Every thread calls it after releasing the store's lock when the inbox is not empty, and
  /// the owner drains the inbox before releasing: an item added while a thread held the lock is
  /// seen by that thread's check after releasing, so none is left behind. When the lock is
  /// taken, its holder will check in turn; nobody waits.
  // The item is added (a sequentially consistent add) before the adder tries the lock, and a
  // releasing thread reads the count (sequentially consistent) after its unlock, an atomic
  // read-modify-write of the lock word: either the adder finds the lock free, or the releaser
  // finds the item.
  @usableFromInline
  func handOffInbox() {
    let thread = ThreadID.current
    while inboxCount.load(ordering: .sequentiallyConsistent) != 0 {
      let turn = lock.withLockIfAvailable(thread) {
        drainInbox()
        return !storage.pointee.idleWaiters.isEmpty
      }
      guard let hasWaiters = turn else { return }
      if hasWaiters { resumeIdleWaitersIfIdle() }
    }
  }

  /// Performs what the inbox holds, in arrival order, each followed by what it queued. Call as
  /// the owner.
  @usableFromInline
  func drainInbox() {
    let storage = self.storage
    while true {
      let items = inbox.withLock { items in
        let taken = items
        items = []
        inboxCount.subtract(taken.count, ordering: .sequentiallyConsistent)
        return taken
      }
      if items.isEmpty { return }
      for item in items {
        switch item {
        case .action(let pending):
          if let record = pending.record, record.isCancelledInChain { continue }
          processQueued(pending)
        case .operation(let body):
          body()
        }
        if storage.pointee.queue.count > storage.pointee.queueHead { drain() }
      }
    }
  }
}
