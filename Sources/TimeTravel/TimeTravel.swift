import ChronicleLocks
import ChronicleStore
import ChronicleTracer

/// Moves a live store through the history its journal recorded: undo, redo, jump, skip an
/// action, commit, roll back, reset, and branches — the controls of Redux DevTools and
/// redux-undo.
///
/// ```swift
/// let journal = Journal(reducer: Counter())
/// let travel = TimeTravel(journal: journal, policy: .locked)
/// let store = Store(
///   initialState: Counter.State(), reducer: Counter(),
///   middleware: [.timeTravel(travel), .tracer(journal)])
/// travel.attach(store)
///
/// store.send(.increment)
/// store.send(.increment)
/// travel.undo()                 // store.state.count == 1
/// travel.send(.decrement)       // a branch: count == 0; the old future is in `branches`
/// travel.switchToBranch(travel.branches[0].id)   // count == 2 again
/// ```
///
/// ## Positions
/// ``position`` counts in journal indices: the store shows the state *before* the entry at
/// ``position``, so the journal's end index is the present and its start index the base state.
///
/// ## Purity
/// Every move replaces the store's state without running middlewares, the reducer's effects,
/// thunks or timers: states are recomputed by the journal's reducer from its nearest checkpoint,
/// so a jump costs at most one checkpoint interval of reducer calls (more only when skipped
/// entries lie before the target: then the states are recomputed from the first skipped one).
/// Subscribers and Observation see each state the store moves to.
///
/// ## Skipped entries
/// While an entry is skipped, the store's states lack it, and so do the checkpoints the tracer
/// takes from the store meanwhile. The controller passes those checkpoints by (until the next
/// commit, rollback or reset), so its states stay right when the entry is applied again;
/// ``/ChronicleTracer/Journal/state(after:)`` read directly from the journal does not know about skips.
///
/// ## Live actions
/// While the store shows the past, actions that reach it (from users, effects, thunks, timers)
/// follow ``policy``: held and applied in order on the return to the present, dropped and
/// recorded in ``droppedActions``, or applied to the state shown as the start of a branch. To
/// change the past whatever the policy, send through the controller with ``send(_:context:fileID:line:function:)``:
/// that starts a branch.
///
/// ## Threads
/// The controls are thread-safe and serialized. Do not call them from inside the store's
/// processing (a middleware, a reducer or a subscriber): they wait for the store.
///
/// A control ends however fast other threads send: it applies the live actions held when it
/// applies them, in one turn of the store, and actions sent meanwhile wait for the store and
/// follow them, each processed once, in one order.
public final class TimeTravel<State: Sendable, Action: Sendable>: Sendable {
  /// The journal whose history the controller moves through.
  public let journal: Journal<State, Action>
  /// What happens to live actions while the store shows the past.
  public let policy: LiveActionPolicy
  /// Serializes the controls, and the applying of held actions, so that no control sees another
  /// half done. Taken before the store's lock, never inside it.
  let control = SanitizerVisibleMutex<Void>(())
  /// What the middleware reads on every action; held only for short, non-blocking sections.
  @usableFromInline let travel = SanitizerVisibleMutex(TravelState<State, Action>())
  let attachment = SanitizerVisibleMutex(Attachment<State, Action>())
  /// `Recomputation.state`, specialized for State and Action where the controller was created.
  @usableFromInline let recompute:
    @Sendable (
      _ position: Int, _ snapshot: JournalSnapshot<State, Action>, _ skipped: Set<Int>, _ untrustedFrom: Int?
    ) -> State?

  /// Creates a controller for the store that records into `journal`.
  ///
  /// - Parameters:
  ///   - journal: The journal a ``/ChronicleTracer/ChronicleStore/AnyMiddleware/tracer(_:)`` in
  ///     the store records into.
  ///   - policy: What happens to live actions while the store shows the past.
  // Inlinable so that the recomputation closure is formed, and specialized, in the client.
  @inlinable
  public convenience init(journal: Journal<State, Action>, policy: LiveActionPolicy = .locked) {
    self.init(journal: journal, policy: policy) { position, snapshot, skipped, untrusted in
      Recomputation.state(before: position, in: snapshot, skipping: skipped, untrustedFrom: untrusted)
    }
  }

  @usableFromInline
  init(
    journal: Journal<State, Action>, policy: LiveActionPolicy,
    recompute: @escaping @Sendable (Int, JournalSnapshot<State, Action>, Set<Int>, Int?) -> State?
  ) {
    self.journal = journal
    self.policy = policy
    self.recompute = recompute
  }

  /// Connects the controller to its store, whose middleware list must hold
  /// ``ChronicleStore/AnyMiddleware/timeTravel(_:)`` for this controller. The store's state now
  /// is the state ``reset()`` returns to. The controller holds the store weakly.
  public func attach(_ store: Store<State, Action>) {
    // Not `store.state`, which would arm Observation: every action would then pay the registrar
    // (about 390 instructions, `Benchmarks/callgrind.sh`) in an app that observes nothing.
    let initial = store.unobservedState
    attachment.withLock { $0 = Attachment(store: store, initialState: initial) }
  }

  // MARK: - Reading

  /// The position the store shows: the state before the entry at this index. Equal to the
  /// journal's end index in the present.
  public var position: Int {
    travel.withLock { $0.position } ?? journal.indices.upperBound
  }

  /// Whether the store shows a past state (live actions follow ``policy``).
  public var isInPast: Bool { travel.withLock { $0.position != nil } }

  /// Whether ``undo()`` can move back.
  public var canUndo: Bool { position > journal.indices.lowerBound }

  /// Whether ``redo()`` can move forward.
  public var canRedo: Bool { isInPast }

  /// The entries left out of recomputed states (see ``toggleSkip(_:)``).
  public var skippedEntries: Set<Int> { travel.withLock { $0.skipped } }

  /// Live actions held under ``LiveActionPolicy/locked``, in arrival order, not yet applied.
  public var heldActions: [LiveAction<Action>] { travel.withLock { $0.held.elements } }

  /// Live actions stopped under ``LiveActionPolicy/dropped``, in arrival order.
  public var droppedActions: [LiveAction<Action>] { travel.withLock { $0.dropped } }

  /// The futures kept when actions sent from the past started new lines of events, oldest first.
  public var branches: [TimelineBranch<State, Action>] { travel.withLock { $0.branches } }

  /// The state at `position` as the controller shows it: the journal's state before that entry,
  /// recomputed without the skipped entries; `nil` outside the journal's indices.
  public func state(before position: Int) -> State? {
    let (skipped, untrusted) = travel.withLock { ($0.skipped, $0.untrustedFrom) }
    return self.recompute(position, journal.snapshot(), skipped, untrusted)
  }

  // MARK: - Moving

  /// Shows the state one entry earlier. Returns whether the store moved.
  @discardableResult
  public func undo() -> Bool {
    control.withLock { _ in move { position, _ in position - 1 } }
  }

  /// Shows the state one entry later; reaching the end returns to the present (and applies held
  /// actions). Returns whether the store moved.
  @discardableResult
  public func redo() -> Bool {
    control.withLock { _ in move { position, _ in position + 1 } }
  }

  /// Shows the state before the entry at `position` (clamped to the journal's indices); the end
  /// index is the present. Returns whether the store moved.
  @discardableResult
  public func jump(to position: Int) -> Bool {
    control.withLock { _ in move { _, _ in position } }
  }

  /// Returns to the present, applying held actions. Returns whether the store moved.
  @discardableResult
  public func returnToPresent() -> Bool {
    control.withLock { _ in move { _, end in end } }
  }

  /// Skips the entry at `index` if it is applied, or applies it again if it is skipped, and
  /// recomputes the state shown (every state after the entry changes; effects never run).
  /// Returns whether `index` is an entry of the journal.
  @discardableResult
  public func toggleSkip(_ index: Int) -> Bool {
    control.withLock { _ in
      guard let store = attachment.withLock({ $0.store }), journal.indices.contains(index) else {
        return false
      }
      pauseLiveActions(of: store)
      let (skipped, position, untrusted) = travel.withLock { travel in
        if travel.skipped.remove(index) == nil { travel.skipped.insert(index) }
        travel.untrustedFrom = min(travel.untrustedFrom ?? index, index)
        return (travel.skipped, travel.position, travel.untrustedFrom)
      }
      let snapshot = journal.snapshot()
      let target = position ?? snapshot.indices.upperBound
      if let state = self.recompute(target, snapshot, skipped, untrusted) {
        store.replaceState(state)
      }
      travel.withLock { $0.pausing = false }
      releaseHeld(to: store)
      return true
    }
  }

  // MARK: - Branches

  /// Sends `action` as the user would. In the present it is an ordinary send; in the past it
  /// starts a branch: the entries after ``position`` are kept as a ``TimelineBranch`` and
  /// removed from the journal, the action is applied to the state shown, and the store is in
  /// the present of the new line (held actions are applied after the action). Does nothing
  /// before ``attach(_:)``.
  ///
  /// The call site (`fileID`, `line`, `function`) is recorded as the action's
  /// ``/ChronicleStore/ActionMetadata/site``; leave the defaults.
  public func send(
    _ action: Action, context: String? = nil, fileID: StaticString = #fileID, line: UInt = #line,
    function: StaticString = #function
  ) {
    control.withLock { _ in
      guard let store = attachment.withLock({ $0.store }) else { return }
      // Paused first: under `.branch` a live action could otherwise start a branch at the same
      // position between the read below and the truncation.
      pauseLiveActions(of: store)
      let position: Int? = travel.withLock { travel in
        defer {
          travel.pausing = false
          if travel.position != nil {
            travel.position = nil
            travel.releasing = true
          }
        }
        return travel.position
      }
      if let position { fork(at: position) }
      ReleaseMarker.$controller.withValue(ObjectIdentifier(self)) {
        store.send(action, context: context, fileID: fileID, line: line, function: function)
      }
      releaseHeld(to: store)
    }
  }

  /// Makes the branch with identifier `id` the current line of events, in its present; the line
  /// left is kept as a branch in turn, forked where the two part. Held actions are then applied.
  /// Returns whether there is such a branch.
  @discardableResult
  public func switchToBranch(_ id: Int) -> Bool {
    control.withLock { _ in
      guard let store = attachment.withLock({ $0.store }) else { return false }
      pauseLiveActions(of: store)
      let current = journal.snapshot()
      let chosen: TimelineBranch<State, Action>? = travel.withLock { travel in
        guard let offset = travel.branches.firstIndex(where: { $0.id == id }) else { return nil }
        let chosen = travel.branches.remove(at: offset)
        travel.branches.append(
          TimelineBranch(
            id: travel.nextBranchID, forkIndex: chosen.forkIndex, history: current, skipped: travel.skipped))
        travel.nextBranchID += 1
        travel.skipped = chosen.skipped
        return chosen
      }
      guard let chosen else {
        travel.withLock { $0.pausing = false }
        releaseHeld(to: store)
        return false
      }
      journal.restore(chosen.history)
      let untrusted = travel.withLock { $0.untrustedFrom }
      if let state = self.recompute(
        chosen.history.indices.upperBound, chosen.history, chosen.skipped, untrusted)
      {
        store.replaceState(state)
      }
      travel.withLock { travel in
        travel.position = nil
        travel.pausing = false
      }
      releaseHeld(to: store)
      return true
    }
  }

  // MARK: - Committing

  /// Makes the state shown the journal's base state and clears the history (skips included),
  /// as Redux DevTools' commit does; the store is then in the present, and held actions are
  /// applied. Branches are kept.
  public func commit() {
    control.withLock { _ in
      guard let store = attachment.withLock({ $0.store }) else { return }
      pauseLiveActions(of: store)
      let (position, skipped, untrusted) = travel.withLock { ($0.position, $0.skipped, $0.untrustedFrom) }
      let snapshot = journal.snapshot()
      let target = position ?? snapshot.indices.upperBound
      let state =
        self.recompute(target, snapshot, skipped, untrusted)
        ?? store.unobservedState
      journal.reset(to: state)
      returnToPresent(releasingHeldTo: store)
    }
  }

  /// Returns the store to the last committed state — the journal's base state — and clears the
  /// history after it, as Redux DevTools' rollback does. Held actions are then applied.
  public func rollback() {
    control.withLock { _ in
      guard let store = attachment.withLock({ $0.store }), let base = journal.baseState else { return }
      restart(from: base, store: store)
    }
  }

  /// Returns the store to the state it had when ``attach(_:)`` was called, and clears the
  /// history and the branches. Held actions are then applied.
  public func reset() {
    control.withLock { _ in
      let (store, initial) = attachment.withLock { ($0.store, $0.initialState) }
      guard let store, let state = initial else { return }
      travel.withLock { $0.branches = [] }
      restart(from: state, store: store)
    }
  }

  // MARK: - Internals

  /// Keeps the entries from `position` on as a branch (if there are any) and removes them from
  /// the journal, so that the next action is journaled at `position`. The caller has left the
  /// past (`position` is `nil`) and keeps live actions from reaching the journal meanwhile.
  private func fork(at position: Int) {
    let snapshot = journal.snapshot()
    travel.withLock { travel in
      if position < snapshot.indices.upperBound {
        travel.branches.append(
          TimelineBranch(
            id: travel.nextBranchID, forkIndex: position, history: snapshot, skipped: travel.skipped))
        travel.nextBranchID += 1
        travel.skipped = travel.skipped.filter { $0 < position }
      }
    }
    journal.truncate(from: position)
  }

  /// Empties the journal into `state`, shows it, and returns to the present.
  private func restart(from state: State, store: Store<State, Action>) {
    pauseLiveActions(of: store)
    journal.reset(to: state)
    store.replaceState(state)
    returnToPresent(releasingHeldTo: store)
  }

  /// Forgets the position and the skipped actions of a journal just reset, stops holding live
  /// actions back, and applies those held.
  private func returnToPresent(releasingHeldTo store: Store<State, Action>) {
    travel.withLock { travel in
      travel.skipped = []
      travel.untrustedFrom = nil
      travel.position = nil
      travel.pausing = false
    }
    releaseHeld(to: store)
  }

  /// Moves to the position `target` computes from the current position and the end index.
  /// Called with `control` held.
  private func move(_ target: (_ position: Int, _ end: Int) -> Int) -> Bool {
    guard let store = attachment.withLock({ $0.store }) else { return false }
    pauseLiveActions(of: store)
    let snapshot = journal.snapshot()
    let indices = snapshot.indices
    let (current, skipped, untrusted) = travel.withLock {
      ($0.position ?? indices.upperBound, $0.skipped, $0.untrustedFrom)
    }
    let destination = min(max(target(current, indices.upperBound), indices.lowerBound), indices.upperBound)
    guard destination != current,
      let state = self.recompute(destination, snapshot, skipped, untrusted)
    else {
      travel.withLock { $0.pausing = false }
      releaseHeld(to: store)
      return false
    }
    if destination == indices.upperBound {
      store.replaceState(state)
      travel.withLock { travel in
        travel.position = nil
        travel.pausing = false
      }
      releaseHeld(to: store)
    } else {
      // Still paused while the state is replaced: a live action let through in between would
      // (under `.branch`) start a branch from the state shown before.
      travel.withLock { $0.position = destination }
      store.replaceState(state)
      travel.withLock { $0.pausing = false }
      if policy == .branch { releaseHeld(to: store) }
    }
    return true
  }

  /// Holds live actions back — whatever the policy: the store is not in the past yet — and waits
  /// for one already past the middleware to be processed and journaled, so that the journal's
  /// indices read next are final. Called with `control` held; `pausing` is cleared by the caller.
  private func pauseLiveActions(of store: Store<State, Action>) {
    travel.withLock { $0.pausing = true }
    // `lastSequence` takes the store's lock: any action in the chain has finished when it returns.
    _ = store.lastSequence
  }

  /// Applies the held actions in order, as long as the store is in the present (or, under
  /// `.branch`, anywhere: the first one applied in the past starts a branch).
  ///
  /// They are applied in one turn of the store (`processInOneTurn`): live actions sent meanwhile
  /// wait for the store, and reach it once the held ones are done, in the present, along the
  /// normal path. So the turn applies the actions held when it starts and no more, and ends
  /// whatever senders do. (Applied one `send` at a time, each action let other threads in
  /// between, whose actions joined the held ones faster than they were applied: a return to the
  /// present never ended while four threads kept sending.)
  private func releaseHeld(to store: Store<State, Action>) {
    let hasHeld = travel.withLock { travel in
      guard travel.position == nil || policy == .branch, !travel.pausing, !travel.held.isEmpty else {
        travel.releasing = false
        return false
      }
      travel.releasing = true
      return true
    }
    guard hasHeld else { return }
    // Sent with the cause it arrived with: a timer's tick held in the past is still the timer's
    // tick when it is applied.
    ReleaseMarker.$controller.withValue(ObjectIdentifier(self)) {
      store.processInOneTurn {
        travel.withLock { travel in
          guard travel.position == nil || policy == .branch, !travel.pausing,
            let next = travel.held.popFirst()
          else {
            travel.releasing = false
            return nil
          }
          return (next.action, next.context, next.cause, next.site, next.effectSite, next.taskLocals)
        }
      }
    }
  }

  /// The middleware's work: pass the action, start a branch with it, or hold or drop it.
  ///
  /// Inlinable so that the check made on every action in the present — one uncontended lock —
  /// is specialized in the client for its State and Action, as `Store.send` is; unspecialized, it
  /// paid generic metadata and witness look-ups on every action.
  @inlinable
  func handleLive(
    _ action: Action, context: MiddlewareContext<State, Action>, next: MiddlewareNext<State, Action>
  ) {
    if travel.withLock({ !$0.blocksLiveActions }) {
      next(action)
      return
    }
    handleBlocked(action, context: context, next: next)
  }

  /// The middleware's work while live actions are blocked: the store shows the past, or a
  /// control is changing its state, or held actions are being applied.
  @usableFromInline
  func handleBlocked(
    _ action: Action, context: MiddlewareContext<State, Action>, next: MiddlewareNext<State, Action>
  ) {
    let isReleased = ReleaseMarker.controller == ObjectIdentifier(self)
    let metadata = context.metadata
    let live = LiveAction(
      action: action, context: metadata.context, cause: metadata.cause, sequence: metadata.sequence,
      site: metadata.site, effectSite: metadata.effectSite)
    // Decided in one critical section, so that a control finishing meanwhile either sees the
    // action held (and applies it) or has finished before the decision (which then sees it done).
    let decision: LiveDecision = travel.withLock { travel in
      guard travel.blocksLiveActions else { return .pass }
      if policy == .branch, let position = travel.claimFork(forReleased: isReleased) {
        return .fork(at: position)
      }
      if isReleased { return .pass }
      if policy != .dropped || travel.position == nil {
        var live = live
        live.taskLocals = context.taskLocals
        travel.held.append(live)
      } else {
        travel.dropped.append(live)
      }
      return .stop
    }
    switch decision {
    case .pass:
      next(action)
    case .fork(let position):
      // No control runs meanwhile: one that starts now pauses, which waits for this action.
      fork(at: position)
      next(action)
    case .stop:
      break
    }
  }
}

/// What the time-travel middleware does with a live action.
enum LiveDecision {
  /// Pass it on.
  case pass
  /// Start a branch at the position, then pass it on.
  case fork(at: Int)
  /// Hold or drop it (done).
  case stop
}
