import Observation
import Synchronization

extension Store {
  /// What both `send`s do.
  @inlinable @inline(__always)
  func submit(_ action: Action, context: String?, cause: Cause, site: CallSite?, effectSite: CallSite? = nil)
  {
    let thread = ThreadID.current
    if lock.owner.load(ordering: .relaxed) == thread {
      enqueue(
        PendingAction(
          action: action, context: context, cause: cause, site: site, effectSite: effectSite, record: nil))
      return
    }
    // Tried first: a thread processing another store must not wait for this one (see
    // `mustNotWait`), and asking whether it is one costs more than trying. Uncontended, trying
    // costs what locking does. The closure is written out at each lock call, not stored in a
    // variable: a stored closure is escaping, retains what it captures, and is not inlined (with
    // one, `send/no-middleware` took three times as long).
    let turn = lock.withLockIfAvailable(thread) {
      ownTurn(action, context: context, cause: cause, site: site, effectSite: effectSite)
    }
    guard let hasWaiters = turn else {
      return submitContended(
        action, context: context, cause: cause, site: site, effectSite: effectSite, thread: thread)
    }
    if hasWaiters { resumeIdleWaitersIfIdle() }
    if inboxCount.load(ordering: .sequentiallyConsistent) != 0 { handOffInbox() }
  }

  /// `submit` when the store's lock was taken: leaves the action in the inbox if this thread
  /// must not wait, otherwise waits for the lock and processes it.
  // Inlinable so that it is specialized for the client's State and Action, and never inlined so
  // that each `send` call site carries one copy of the chain, not two.
  @inlinable @inline(never)
  func submitContended(
    _ action: Action, context: String?, cause: Cause, site: CallSite?, effectSite: CallSite?, thread: UInt
  ) {
    if mustNotWait(thread) {
      deferToOwner(
        .action(
          PendingAction(
            action: action, context: context, cause: cause, site: site, effectSite: effectSite, record: nil)))
      return
    }
    let hasWaiters = lock.withLock(thread) {
      ownTurn(action, context: context, cause: cause, site: site, effectSite: effectSite)
    }
    if hasWaiters { resumeIdleWaitersIfIdle() }
    if inboxCount.load(ordering: .sequentiallyConsistent) != 0 { handOffInbox() }
  }

  /// Processes `action` as the owner, then what it queued and what the inbox holds; call with the
  /// lock held. Returns whether idle waiters may need resuming.
  @inlinable @inline(__always)
  func ownTurn(
    _ action: Action, context: String?, cause: Cause, site: CallSite?, effectSite: CallSite?
  ) -> Bool {
    process(action, context: context, cause: cause, site: site, effectSite: effectSite)
    if storage.pointee.queue.count > storage.pointee.queueHead { drain() }
    if inboxCount.load(ordering: .relaxed) != 0 { drainInbox() }
    return !storage.pointee.idleWaiters.isEmpty
  }

  /// Runs one action through the chain and the reducer, then notifies subscribers.
  // Always inlined into `send`: it sits at the optimizer's inlining threshold, and when it was
  // not inlined (after an unrelated change made it a little bigger) `send/no-middleware` got slower.
  @inlinable @inline(__always)
  func process(_ action: Action, context: String?, cause: Cause, site: CallSite?, effectSite: CallSite?) {
    let storage = self.storage
    storage.pointee.sequence &+= 1
    if handlers.isEmpty || (isGated && !gate(action)) {
      // No middleware sees the action, so nobody reads the metadata: keep context and cause in
      // registers, and hand them on only if the reducer starts an effect (storing two strings
      // per action costs runtime calls).
      let effect = reduce(action)
      if !effect.isNone {
        startReducerEffect(effect, context: context, cause: cause, site: site, effectSite: effectSite)
      }
      if !storage.pointee.observers.isEmpty { notifyObservers() }
    } else {
      // Assigned only when a string is involved: replacing a `nil` label with `nil` still called
      // the runtime to release the old one.
      if context != nil || storage.pointee.currentContext != nil { storage.pointee.currentContext = context }
      if cause.label != nil || storage.pointee.currentCause.label != nil {
        storage.pointee.currentCause = cause
      } else {
        // Replacing a kind with the same string (the user's, action after action) released the
        // old one through the runtime: compared by representation first, which reads no string.
        if !cause.kind.hasRepresentation(of: &storage.pointee.currentCause.kind) {
          storage.pointee.currentCause.kind = cause.kind
        }
        storage.pointee.currentCause.parent = cause.parent
        storage.pointee.currentCause.effect = cause.effect
      }
      storage.pointee.currentSite = site
      storage.pointee.currentEffectSite = effectSite
      storage.pointee.currentTimestamp = nil
      storage.pointee.reducerRan = false
      storage.pointee.passedLevels = 0
      callMiddleware(action, at: 0)
      if storage.pointee.reducerRan && !storage.pointee.observers.isEmpty { notifyObservers() }
    }
  }

  /// Runs the reducer; returns its effect.
  @inlinable
  func reduce(_ action: Action) -> Effect<Action> {
    let storage = self.storage
    let armed = observationArmed.load(ordering: .relaxed)
    if armed {
      registrar.willSet(self, keyPath: stateKeyPath)
      if observedMembers.isTracking { return reduceReportingMembers(action) }
    }
    let effect = reducer(&storage.pointee.state, action)
    if armed { registrar.didSet(self, keyPath: stateKeyPath) }
    storage.pointee.reducerRan = true
    return effect
  }

  /// Queues `pending`, with the propagated task-locals' values here, where it was sent: it may be
  /// processed in another action's context.
  @inlinable
  func enqueue(_ pending: PendingAction<Action>) {
    guard let propagation else { return storage.pointee.queue.append(pending) }
    var pending = pending
    pending.taskLocals = propagation.capture()
    storage.pointee.queue.append(pending)
  }

  /// Processes an action taken from the queue or the inbox, with the task-locals it was sent with.
  // Always inlined into the loops that drain, as `process` was before it.
  @inlinable @inline(__always)
  func processQueued(_ pending: PendingAction<Action>) {
    guard let taskLocals = pending.taskLocals else {
      return process(
        pending.action, context: pending.context, cause: pending.cause, site: pending.site,
        effectSite: pending.effectSite)
    }
    taskLocals.run {
      process(
        pending.action, context: pending.context, cause: pending.cause, site: pending.site,
        effectSite: pending.effectSite)
    }
  }

  /// Processes queued actions in FIFO order until none is left.
  // Inlinable so that it is specialized for the client's State and Action (unspecialized, each
  // queued action paid generic metadata look-ups: `send/effect-send` in Benchmarks/callgrind.sh),
  // and never inlined so that `send` does not carry a copy.
  @inlinable @inline(never)
  func drain() {
    let storage = self.storage
    while storage.pointee.queueHead < storage.pointee.queue.count {
      let pending = storage.pointee.queue[storage.pointee.queueHead]
      storage.pointee.queueHead += 1
      if let record = pending.record, record.isCancelledInChain { continue }
      processQueued(pending)
    }
    storage.pointee.queue.removeAll(keepingCapacity: storage.pointee.queue.capacity <= 1024)
    storage.pointee.queueHead = 0
  }

  /// Runs `body` as the owner of the store: directly when this thread is already processing
  /// (the outer call drains the queue), otherwise under the lock, draining afterwards.
  ///
  /// It waits for the store even when the calling thread processes another store: use it for
  /// work whose result the caller needs now, and `withProcessing(orDefer:_:)` for the rest.
  @usableFromInline @discardableResult
  func withProcessing<R: Sendable>(_ body: () -> R) -> R {
    let thread = ThreadID.current
    if lock.owner.load(ordering: .relaxed) == thread { return body() }
    let (result, hasWaiters) = lock.withLock(thread) { ownTurn(body) }
    if hasWaiters { resumeIdleWaitersIfIdle() }
    if inboxCount.load(ordering: .sequentiallyConsistent) != 0 { handOffInbox() }
    return result
  }

  /// Runs `body` as the owner of the store, or, when the store is busy and the calling thread
  /// processes another store (so must not wait), leaves `deferred` in the inbox for the owner.
  func withProcessing(orDefer deferred: @autoclosure () -> InboxItem<Action>, _ body: () -> Void) {
    let thread = ThreadID.current
    if lock.owner.load(ordering: .relaxed) == thread { return body() }
    let hasWaiters: Bool
    if let tried = lock.withLockIfAvailable(thread, { ownTurn(body).1 }) {
      hasWaiters = tried
    } else if mustNotWait(thread) {
      return deferToOwner(deferred())
    } else {
      hasWaiters = lock.withLock(thread) { ownTurn(body).1 }
    }
    if hasWaiters { resumeIdleWaitersIfIdle() }
    if inboxCount.load(ordering: .sequentiallyConsistent) != 0 { handOffInbox() }
  }

  /// Runs `body` as the owner, with the lock held, then what it queued and what the inbox holds.
  /// Returns its result and whether idle waiters may need resuming.
  private func ownTurn<R: Sendable>(_ body: () -> R) -> (R, Bool) {
    let result = body()
    if storage.pointee.queue.count > storage.pointee.queueHead { drain() }
    if inboxCount.load(ordering: .relaxed) != 0 { drainInbox() }
    return (result, !storage.pointee.idleWaiters.isEmpty)
  }

  /// Processes the actions `next` hands out, in order, in one turn of the store: no action sent
  /// by another thread comes between them, and each is followed by the actions it queued, as after
  /// a `send`. `next` is asked for one more until it returns `nil`.
  ///
  /// For time travel, which applies the actions it held back this way: actions sent meanwhile wait
  /// for the store instead of joining the ones being applied, so applying them ends. Called while
  /// the calling thread processes this store, the actions are queued instead.
  package func processInOneTurn(
    _ next: () -> (
      action: Action, context: String?, cause: Cause, site: CallSite?, effectSite: CallSite?,
      taskLocals: TaskLocalSnapshot?
    )?
  ) {
    if lock.owner.load(ordering: .relaxed) == ThreadID.current {
      while let item = next() {
        storage.pointee.queue.append(
          PendingAction(
            action: item.action, context: item.context, cause: item.cause, site: item.site,
            effectSite: item.effectSite, record: nil, taskLocals: item.taskLocals))
      }
      return
    }
    withProcessing {
      while let item = next() {
        processQueued(
          PendingAction(
            action: item.action, context: item.context, cause: item.cause, site: item.site,
            effectSite: item.effectSite, record: nil, taskLocals: item.taskLocals))
        if storage.pointee.queue.count > storage.pointee.queueHead { drain() }
      }
    }
  }
}
