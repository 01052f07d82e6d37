import ChronicleLocks
import Observation
import Synchronization

/// Holds a feature's state and runs every action through the middleware chain and the reducer,
/// one at a time, in one total order.
///
/// ```swift
/// let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [])
/// store.send(.increment)   // synchronous; safe from any thread or task
/// store.state.count        // 1: a consistent snapshot
/// ```
///
/// ## Ordering
/// Every action is processed exactly once, one at a time, in one total order per store:
///
/// - A `send` from a thread that is not processing any store processes the action before it
///   returns: the middlewares, the reducer, the effects it starts and the subscribers all run on
///   the calling thread. If another thread is processing the store, it waits for its turn.
/// - Sends made *while* the store processes an action, on the thread processing it (from a
///   middleware, the reducer's `.send` effect, a subscriber), are queued and processed in FIFO
///   order right after the current action, before the outer `send` returns — never
///   recursively, never dropped.
/// - A send made while the calling thread processes *another* store (store A's middleware,
///   subscriber or effect start sending to store B) never waits for B: when B is free the thread
///   processes the action at once, as above; when another thread is processing B, the action is
///   left in B's inbox and `send` returns. B's owner processes inbox actions in arrival order,
///   once the action it is processing and the actions queued on its own thread are done, before
///   it releases B or right after. So two stores whose middlewares send to each other from two
///   threads cannot deadlock.
///
/// ``cancel(id:)`` and ``run(_:as:label:context:parent:fileID:line:function:)`` called from inside another store's
/// processing while this store is busy are left in its inbox the same way: they take effect in
/// its order, after the action being processed and those queued before them.
///
/// What still waits: reading ``state``, `observe`, ``runningEffectCount`` and
/// ``pendingEffectCount`` need the store's current action to finish. From inside store A's
/// processing, reading store B while another thread processes B, whose processing in turn reads
/// A (or blocks on anything A's thread holds), deadlocks; so does blocking inside a middleware or
/// subscriber for another thread that sends to the same store. Pass the value in the action, or
/// read it from an effect.
///
/// ## Lifetime
/// Effects hold the store weakly. When the last reference to a store goes away, every effect,
/// thunk and timer it started is cancelled, actions they still send are dropped, and its state
/// sequences finish.
///
/// ## Observation
/// A store is `Observable`. Reading ``state`` inside Observation tracking (a SwiftUI view's
/// `body`, `withObservationTracking`) registers for any change of the state; reading a member
/// through the store, `store.count`, registers for changes of that member only (see
/// `subscript(dynamicMember:)`).
@dynamicMemberLookup
public final class Store<State: Sendable, Action: Sendable>: @unchecked Sendable {
  // `@unchecked Sendable`: all mutable state is in `storage`, which is only touched by the thread
  // that holds `lock` (and so is its `owner`). `reducer`, `middleware`, `activity` and
  // `registrar` are immutable or thread-safe themselves.

  /// Serializes processing. Held for the whole of an action (chain, reducer, subscribers). Its
  /// `owner` is the thread holding it, so a thread finding its own id there is re-entrant.
  @usableFromInline let lock = StoreLock()
  @usableFromInline let storage: UnsafeMutablePointer<StoreStorage<State, Action>>
  @usableFromInline let reducer: @Sendable (inout State, Action) -> Effect<Action>
  @usableFromInline let middleware: [AnyMiddleware<State, Action>]
  /// The middlewares' action handlers alone: reading one costs one retain, where reading an
  /// `AnyMiddleware` out of `middleware` copies its name and both closures.
  @usableFromInline let handlers: ContiguousArray<Unmanaged<HandlerBox<State, Action>>>
  /// Whether ``ActionMetadata/site`` and ``ActionMetadata/effectSite`` are given to middlewares
  /// (and so journaled): checked where the metadata is read, so a send costs the same either way.
  @usableFromInline let capturesCallSites: Bool
  /// Whether the store's only middleware has a predicate: then `gate` is asked first, and an
  /// action it rejects skips the chain.
  @usableFromInline let isGated: Bool
  /// That predicate. Not optional: called out of an optional, a closure's context was retained
  /// and released around each call.
  @usableFromInline let gate: @Sendable (Action) -> Bool
  /// Runs this store's effect tasks and counts their jobs, so a `TestClock` knows when they have
  /// settled.
  package let activity = TaskActivity()
  @usableFromInline let registrar = ObservationRegistrar()
  /// `\.state`, formed once: a key path into a generic class is instantiated by the runtime each
  /// time it is written (demangling its generic arguments: `send/observation-armed`), which a store whose state has
  /// been read (and so reports to Observation) would otherwise pay twice per action.
  @usableFromInline let stateKeyPath: KeyPath<Store, State> = \.state
  /// Set once `state` or a member has been read: from then on mutations are reported to
  /// Observation.
  /// Until then nobody can be observing, and sends skip the registrar's cost (`send/observation-armed`).
  @usableFromInline let observationArmed = Atomic<Bool>(false)
  /// The members of the state read through dynamic member lookup, reported one by one.
  @usableFromInline let observedMembers = ObservedMembers<Store, State>()
  /// What threads processing another store asked of this one while it was busy (see
  /// `handOffInbox()`). Its lock is held only to add or take items, never while processing.
  @usableFromInline let inbox = SanitizerVisibleMutex<[InboxItem<Action>]>([])
  /// How many items `inbox` holds: checked without its lock, by the owner before it releases the
  /// store and by every thread right after it releases the store's lock.
  @usableFromInline let inboxCount = Atomic<Int>(0)
  /// The task-locals carried to queued actions and inbox work, or `nil` when none is: then
  /// nothing is read or bound, and an action processed on its sender's thread pays nothing either
  /// way, since it runs where the values already are.
  @usableFromInline let propagation: TaskLocalPropagation?

  /// Creates a store.
  ///
  /// - Parameters:
  ///   - initialState: The state before any action.
  ///   - reducer: The feature's logic.
  ///   - middleware: The chain every action passes, in order: the first sees each action first.
  ///   - propagating: Task-locals whose values where an action is sent are bound while it is
  ///     processed, even when it waits in a queue and another thread processes it, and so reach the
  ///     effects, thunks and timers it starts (see ``PropagatedTaskLocal``).
  ///   - capturesCallSites: Whether middlewares (and so journals and exports) see where each
  ///     action was sent (``ActionMetadata/site``). Turn it off for a release build that wants a
  ///     smaller journal; sending costs the same either way.
  // Inlinable so the closure that calls `reducer` is formed in the client, specialized for `R`:
  // formed here it would call `reduce` through unspecialized generic witnesses on every action.
  @inlinable
  public convenience init<R: Reducer>(
    initialState: State,
    reducer: R,
    middleware: [AnyMiddleware<State, Action>] = [],
    propagating: [PropagatedTaskLocal] = [],
    capturesCallSites: Bool = true
  ) where R.State == State, R.Action == Action {
    self.init(
      initialState: initialState, middleware: middleware, propagating: propagating,
      capturesCallSites: capturesCallSites
    ) {
      reducer.reduce(into: &$0, action: $1)
    }
  }

  /// Creates a store whose reducer is a closure.
  ///
  /// - Parameters:
  ///   - initialState: The state before any action.
  ///   - middleware: The chain every action passes, in order: the first sees each action first.
  ///   - propagating: Task-locals carried from where an action is sent to its processing and its
  ///     effects (see ``PropagatedTaskLocal``).
  ///   - capturesCallSites: Whether middlewares see where each action was sent
  ///     (``ActionMetadata/site``).
  ///   - reduce: The feature's logic.
  public init(
    initialState: State,
    middleware: [AnyMiddleware<State, Action>] = [],
    propagating: [PropagatedTaskLocal] = [],
    capturesCallSites: Bool = true,
    reduce: @escaping @Sendable (_ state: inout State, _ action: Action) -> Effect<Action>
  ) {
    self.propagation = propagating.isEmpty ? nil : TaskLocalPropagation(propagating)
    self.storage = .allocate(capacity: 1)
    self.storage.initialize(to: StoreStorage(state: initialState))
    self.reducer = reduce
    self.middleware = middleware
    self.capturesCallSites = capturesCallSites
    // The predicate is stored as it is: any wrapping (even through an array) adds a call per
    // action, or two reabstraction thunks.
    if middleware.count == 1, let predicate = middleware[0].predicate {
      self.isGated = true
      self.gate = predicate
    } else {
      self.isGated = false
      self.gate = { _ in true }
    }
    // A gated store has asked the predicate already: its handler is the one without the check.
    let isGated = self.isGated
    self.handlers = ContiguousArray(
      middleware.map {
        Unmanaged.passRetained(HandlerBox(isGated ? $0.handleAction : $0.checkedActionHandler))
      }
    )
    let unmanaged = Unmanaged.passUnretained(self)
    StoreOwners.register(ObjectIdentifier(self)) {
      unmanaged._withUnsafeGuaranteedRef { $0.lock.owner.load(ordering: .relaxed) }
    }
  }

  deinit {
    // No thread can be processing: processing holds a strong reference to the store.
    StoreOwners.unregister(ObjectIdentifier(self))
    let storage = self.storage
    for record in storage.pointee.records.values {
      record.isCancelled = true
      record.task?.cancel()
    }
    for observer in storage.pointee.observers {
      observer.isActive = false
      observer.finish?()
    }
    for waiter in storage.pointee.idleWaiters { waiter.resume() }
    for handler in handlers { handler.release() }
    storage.deinitialize(count: 1)
    storage.deallocate()
  }

  // MARK: - Sending

  /// Sends an action to the store and processes it before returning.
  ///
  /// Safe from any thread or task. Called while the store is processing another action (from a
  /// middleware, a subscriber or an effect), the action is queued and processed right after it.
  /// Called while the calling thread processes another store, it never waits for this one (see
  /// "Ordering" above).
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - context: A label saying which screen or feature sent it; it travels with the action
  ///     into middlewares and the journal, and is inherited by actions its effects send.
  ///   - fileID: The file it was sent from (``ActionMetadata/site``); leave the default.
  ///   - line: The line it was sent from; leave the default.
  ///   - function: The function it was sent from; leave the default.
  // Inlinable so a client module specializes the hot path for its own State and Action: an
  // unspecialized generic call pays metadata look-ups worth hundreds of nanoseconds.
  @inlinable
  public func send(
    _ action: Action, context: String? = nil, fileID: StaticString = #fileID, line: UInt = #line,
    function: StaticString = #function
  ) {
    submit(
      action, context: context, cause: .user, site: CallSite(fileID: fileID, line: line, function: function))
  }

  /// Sends an action with an explicit cause, and processes it as ``send(_:context:fileID:line:function:)`` does.
  ///
  /// For actions that are the consequence of something other than the user: a callback bridged
  /// from another store or from the system, an action held back and applied later. Middlewares
  /// see `cause` in ``MiddlewareContext/cause`` and ``MiddlewareContext/metadata``, and the
  /// journal records it as given.
  ///
  /// ```swift
  /// store.send(.increment, cause: Cause(kind: .stream, label: "push notification"))
  /// ```
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - context: A label saying which screen or feature sent it.
  ///   - cause: Who sent it; `parent` is the sequence number, in this store, of the action whose
  ///     processing led to it, if any.
  ///   - fileID: The file it was sent from (``ActionMetadata/site``); leave the default.
  ///   - line: The line it was sent from; leave the default.
  ///   - function: The function it was sent from; leave the default.
  @inlinable
  public func send(
    _ action: Action, context: String? = nil, cause: Cause, fileID: StaticString = #fileID,
    line: UInt = #line,
    function: StaticString = #function
  ) {
    submit(
      action, context: context, cause: cause, site: CallSite(fileID: fileID, line: line, function: function))
  }

  // MARK: - State

  /// The current state: a whole, consistent snapshot, from any thread.
  ///
  /// Reading it inside Observation tracking (a SwiftUI view's `body`, `withObservationTracking`)
  /// registers for changes.
  public var state: State {
    if !observationArmed.load(ordering: .relaxed) { observationArmed.store(true, ordering: .relaxed) }
    registrar.access(self, keyPath: stateKeyPath)
    return currentState
  }

  /// The current state, without arming Observation or registering an access: for readers that are
  /// not views (time travel attaching to the store, say), so that the store keeps skipping the
  /// registrar's cost on every action until something does observe it.
  package var unobservedState: State { currentState }

  /// The current state, without registering an Observation access.
  @inlinable
  var currentState: State {
    let thread = ThreadID.current
    if lock.owner.load(ordering: .relaxed) == thread { return storage.pointee.state }
    let state = lock.withLock(thread) { storage.pointee.state }
    if inboxCount.load(ordering: .sequentiallyConsistent) != 0 { handOffInbox() }
    return state
  }

  /// Replaces the state without running the reducer, notifying Observation and subscribers.
  ///
  /// For time travel and replay: no middleware sees it and no effect runs.
  package func replaceState(_ newState: State) {
    withProcessing {
      let armed = observationArmed.load(ordering: .relaxed)
      if armed { registrar.willSet(self, keyPath: stateKeyPath) }
      let previous = armed && observedMembers.isTracking ? storage.pointee.state : nil
      storage.pointee.state = newState
      if armed { registrar.didSet(self, keyPath: stateKeyPath) }
      if let previous { reportMemberChanges(from: previous) }
      if !storage.pointee.observers.isEmpty { notifyObservers() }
    }
  }

  /// The sequence number of the last action processed.
  package var lastSequence: UInt64 { withProcessing { storage.pointee.sequence } }
}

extension Store: Observable {}
