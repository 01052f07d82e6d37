import ChronicleInspection

/// Where an effect is started: the ids around it, the concatenation it runs in, and the cause
/// its actions will carry.
struct EffectScope: Sendable {
  var ids: [EffectID] = []
  var parent: EffectRecord?
  var kind: Cause.Kind
  var label: String?
  var parentSequence: UInt64?
  var context: String?
  /// The name of the middleware that started the effect, if one did: the cause's label when
  /// neither `label` nor a cancellation id gives one.
  var sender: String?
  /// Where the work was started from outside an action (``Store/run(_:as:label:context:parent:fileID:line:function:)``):
  /// the effect site of a `.send` that runs in no effect of its own.
  var site: CallSite?

  /// The label of the cause of what the effect sends.
  var causeLabel: String? { label ?? ids.first?.description ?? sender }
}

/// How an effect's work ended.
enum EffectOutcome: Sendable {
  case finished
  case failed(EffectError)
}

extension Store {
  // MARK: - Starting

  /// Starts the effect the reducer returned for the action being processed.
  ///
  /// - Parameters:
  ///   - context: The action's context label.
  ///   - cause: The action's cause when no middleware saw the action, so neither it nor the
  ///     context was recorded: they are recorded now, for the middlewares that see the effect's
  ///     events.
  ///   - site: The action's call site, recorded with `cause`.
  ///   - effectSite: The site of the effect that sent the action, recorded with `cause`.
  // Inlinable (never inlined) so that a reducer's `.send`, the most frequent effect, is queued by
  // code specialized for the client's Action: `start(_:in:)` is generic, and unspecialized it
  // paid generic metadata look-ups per action sent (`send/effect-send` in Benchmarks/callgrind.sh).
  @inlinable @inline(never)
  func startReducerEffect(
    _ effect: Effect<Action>, context: String?, cause: Cause? = nil, site: CallSite? = nil,
    effectSite: CallSite? = nil
  ) {
    if let cause, !middleware.isEmpty {
      storage.pointee.currentContext = context
      storage.pointee.currentCause = cause
      storage.pointee.currentSite = site
      storage.pointee.currentEffectSite = effectSite
      storage.pointee.currentTimestamp = nil
    }
    if case .send(let action, let site) = effect.operation {
      // What `start(_:in:)` does with a `.send` in the reducer's scope: no enclosing effect, no
      // label, no cancellation id.
      return enqueue(
        PendingAction(
          action: action, context: context, cause: Cause(kind: .effect, parent: storage.pointee.sequence),
          site: site, effectSite: nil, record: nil))
    }
    startInReducerScope(effect, context: context)
  }

  /// Starts `effect` as the reducer's for the action being processed.
  @usableFromInline
  func startInReducerScope(_ effect: Effect<Action>, context: String?) {
    start(
      effect,
      in: EffectScope(kind: .effect, label: nil, parentSequence: storage.pointee.sequence, context: context))
  }

  func startFromMiddleware(
    _ effect: Effect<Action>, kind: Cause.Kind, label: String?, sender: String, site: CallSite? = nil
  ) {
    withProcessing {
      var scope = currentScope(kind: kind, label: label)
      scope.sender = sender
      scope.site = site
      start(effect, in: scope)
    }
  }

  func sendFromMiddleware(
    _ action: Action, context: String?, kind: Cause.Kind, label: String?, site: CallSite
  ) {
    let storage = self.storage
    let cause = Cause(kind: kind, parent: storage.pointee.sequence, label: label)
    let pending = PendingAction(
      action: action, context: context ?? storage.pointee.currentContext, cause: cause, site: site,
      record: nil)
    withProcessing(orDefer: .action(pending)) { enqueue(pending) }
  }

  private func currentScope(kind: Cause.Kind, label: String?) -> EffectScope {
    EffectScope(
      kind: kind, label: label, parentSequence: storage.pointee.sequence,
      context: storage.pointee.currentContext)
  }

  /// Starts `effect`; call as the owner. Returns the records of the tasks it started, so a
  /// concatenation can wait for them.
  @discardableResult
  func start(_ effect: Effect<Action>, in scope: EffectScope) -> [EffectRecord] {
    switch effect.operation {
    case .none:
      return []
    case .send(let action, let site):
      let cause = Cause(
        kind: scope.kind, parent: scope.parentSequence, effect: scope.parent?.serial,
        label: scope.causeLabel)
      enqueue(
        PendingAction(
          action: action, context: scope.context, cause: cause, site: site,
          effectSite: scope.parent?.site ?? scope.site, record: scope.parent))
      return []
    case .run(let priority, let operation, let handler, let site):
      let record = makeRecord(in: scope, site: site)
      let send = makeSend(for: record)
      let activity = self.activity
      record.task = Task(executorPreference: activity, priority: priority) { [weak self] in
        let outcome = await activity.bind {
          await Self.execute(operation, handler: handler, send: send)
        }
        self?.finish(record, outcome: outcome)
      }
      return [record]
    case .merge(let effects):
      return effects.flatMap { start($0, in: scope) }
    case .concatenate(let effects):
      let record = makeRecord(in: scope, site: scope.parent?.site ?? scope.site)
      var childScope = scope
      childScope.parent = record
      let activity = self.activity
      record.task = Task(executorPreference: activity) { [weak self] in
        await activity.bind {
          for effect in effects {
            guard let tasks = Self.startChild(of: record, effect, in: childScope, store: self) else { break }
            await withTaskCancellationHandler {
              for task in tasks { await task.value }
            } onCancel: {
              for task in tasks { task.cancel() }
            }
            if Task.isCancelled { break }
          }
        }
        self?.finish(record, outcome: .finished)
      }
      return [record]
    case .cancellable(let id, let cancelInFlight, let inner):
      if cancelInFlight { cancelEffects(id: id) }
      var scope = scope
      scope.ids.insert(id, at: 0)
      return start(inner, in: scope)
    case .cancel(let id):
      cancelEffects(id: id)
      return []
    }
  }

  /// Starts the next part of a concatenation from its task; `nil` when the concatenation was
  /// cancelled or the store released, which ends it.
  private static func startChild(
    of record: EffectRecord, _ effect: Effect<Action>, in scope: EffectScope, store: Store?
  ) -> [Task<Void, Never>]? {
    guard let store else { return nil }
    return store.withProcessing {
      if record.isCancelledInChain { return nil }
      return store.start(effect, in: scope).compactMap(\.task)
    }
  }

  private static func execute(
    _ operation: @Sendable (Send<Action>) async throws -> Void,
    handler: (@Sendable (any Error, Send<Action>) async -> Void)?,
    send: Send<Action>
  ) async -> EffectOutcome {
    do {
      try await operation(send)
      return .finished
    } catch {
      if Task.isCancelled { return .finished }
      if let handler {
        await handler(error, send)
        return .finished
      }
      // Kept whole: each output writes it under its own policy. Its text under the default
      // policy, which every event carries, is its redacted dump when it holds a marked value.
      return .failed(EffectError(error))
    }
  }

  private func makeRecord(in scope: EffectScope, site: CallSite?) -> EffectRecord {
    let storage = self.storage
    storage.pointee.nextEffectSerial += 1
    let serial = storage.pointee.nextEffectSerial
    let cause = Cause(
      kind: scope.kind, parent: scope.parentSequence, effect: serial,
      label: scope.causeLabel)
    let record = EffectRecord(
      serial: serial, ids: scope.ids, parent: scope.parent, cause: cause, context: scope.context, site: site)
    let key = ObjectIdentifier(record)
    storage.pointee.records[key] = record
    for id in scope.ids { storage.pointee.recordsByID[id, default: [:]][key] = record }
    emit(EffectEvent(phase: .started, effect: serial, cause: cause, ids: scope.ids, site: site))
    return record
  }

  private func makeSend(for record: EffectRecord) -> Send<Action> {
    Send(site: { [weak self] action, context, site in
      self?.deliver(action, context: context ?? record.context, site: site, from: record)
    })
  }

  /// An action sent by an effect: processed now under the lock, or queued when this thread is
  /// already processing. Dropped once the effect is cancelled.
  private func deliver(_ action: Action, context: String?, site: CallSite, from record: EffectRecord) {
    let pending = PendingAction(
      action: action, context: context, cause: record.cause, site: site, effectSite: record.site,
      record: record)
    if lock.owner.load(ordering: .relaxed) == ThreadID.current {
      enqueue(pending)
      return
    }
    withProcessing(orDefer: .action(pending)) {
      if record.isCancelledInChain { return }
      process(action, context: context, cause: record.cause, site: site, effectSite: record.site)
    }
  }

  private func finish(_ record: EffectRecord, outcome: EffectOutcome) {
    withProcessing(orDefer: .operation { self.finish(record, outcome: outcome) }) {
      let storage = self.storage
      let key = ObjectIdentifier(record)
      guard storage.pointee.records.removeValue(forKey: key) != nil else { return }
      for id in record.ids { removeFromIndex(key, id: id) }
      if record.isCancelled { return }  // its `cancelled` event was sent when it was cancelled
      let phase: EffectEvent.Phase
      var failure: EffectError?
      if record.isCancelledInChain {
        phase = .cancelled
      } else if case .failed(let error) = outcome {
        phase = .failed(error.description)
        failure = error
      } else {
        phase = .finished
      }
      emit(
        EffectEvent(
          phase: phase, effect: record.serial, cause: record.cause, ids: record.ids, error: failure,
          site: record.site))
    }
  }

  private func removeFromIndex(_ key: ObjectIdentifier, id: EffectID) {
    let storage = self.storage
    storage.pointee.recordsByID[id]?[key] = nil
    if storage.pointee.recordsByID[id]?.isEmpty == true { storage.pointee.recordsByID[id] = nil }
  }

  // MARK: - Cancelling

  /// Cancels every in-flight effect, thunk and timer started with `id`.
  ///
  /// When this returns, none of their actions will reach the reducer, even ones already sent and
  /// waiting in the queue. Unknown ids are ignored.
  ///
  /// Called while the calling thread processes another store and another thread processes this
  /// one, the cancellation is left for that thread, like a send: it takes effect after the
  /// action being processed and those queued before it, and this returns at once.
  public func cancel(id: some Hashable & Sendable) {
    cancelEffects(id: EffectID(id))
  }

  func cancelEffects(id: EffectID) {
    withProcessing(orDefer: .operation { self.cancelEffects(id: id) }) {
      let storage = self.storage
      guard let records = storage.pointee.recordsByID.removeValue(forKey: id) else { return }
      for record in records.values.sorted(by: { $0.serial < $1.serial }) where !record.isCancelled {
        record.isCancelled = true
        let key = ObjectIdentifier(record)
        for other in record.ids where other != id { removeFromIndex(key, id: other) }
        record.task?.cancel()
        emit(
          EffectEvent(
            phase: .cancelled, effect: record.serial, cause: record.cause, ids: record.ids, site: record.site)
        )
      }
    }
  }

  /// The number of effect tasks (effects, thunks, timers) that have not returned yet, cancelled
  /// ones included: a cancelled task counts until its operation notices and returns.
  ///
  /// What a test that checks for leaked tasks wants. For the work that may still send actions,
  /// see ``pendingEffectCount``.
  public var runningEffectCount: Int { withProcessing { storage.pointee.records.count } }

  /// The number of effect tasks (effects, thunks, timers) neither finished nor cancelled: the work
  /// that may still send actions to the reducer.
  ///
  /// Never more than ``runningEffectCount``, which also counts cancelled tasks that have not
  /// returned yet.
  public var pendingEffectCount: Int {
    withProcessing { storage.pointee.records.values.count { !$0.isCancelledInChain } }
  }

  private func emit(_ event: EffectEvent) {
    if middleware.isEmpty { return }
    for (index, middleware) in middleware.enumerated() {
      middleware.handle(event, context: MiddlewareContext(store: self, middlewareIndex: index))
    }
  }

  // MARK: - Idle

  /// Waits until the store is idle: no action queued or processing, no effect, thunk or timer
  /// running. Returns at once if it already is. Never polls or sleeps.
  ///
  /// A store with a repeating timer is never idle; cancel it first, or use a `TestClock` and
  /// `advance` it.
  public func waitUntilIdle() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let idle = withProcessing {
        if isIdle { return true }
        storage.pointee.idleWaiters.append(continuation)
        return false
      }
      if idle { continuation.resume() }
    }
  }

  private var isIdle: Bool {
    storage.pointee.records.isEmpty && storage.pointee.queue.count == storage.pointee.queueHead
      && inboxCount.load(ordering: .relaxed) == 0
  }

  @usableFromInline
  func resumeIdleWaitersIfIdle() {
    let waiters: [CheckedContinuation<Void, Never>] = lock.withLock(ThreadID.current) {
      guard isIdle else { return [] }
      defer { storage.pointee.idleWaiters = [] }
      return storage.pointee.idleWaiters
    }
    for waiter in waiters { waiter.resume() }
    if inboxCount.load(ordering: .sequentiallyConsistent) != 0 { handOffInbox() }
  }
}

extension Store {
  /// Runs `effect` as if a reducer had returned it, outside of any action: its actions carry a
  /// cause of the given kind, with the parent given, and the context label given.
  ///
  /// Middlewares built on effects use this to offer entry points that are not actions, such as
  /// dispatching a thunk (`Store.dispatch(_:context:onError:)`). The work is tracked like any
  /// effect: cancellable by id, cancelled with the store, awaited by ``waitUntilIdle()``.
  ///
  /// Called while the calling thread processes another store and another thread processes this
  /// one, the effect is started by that thread after its current action, and this returns at once.
  ///
  /// - Parameters:
  ///   - effect: The work.
  ///   - kind: The kind of cause its actions carry.
  ///   - label: The cause's label; defaults to the effect's cancellation id, if any.
  ///   - context: The context label its actions carry.
  ///   - parent: The sequence number, in this store, of the action that led to the work, if any:
  ///     its actions carry it as their cause's ``Cause/parent``.
  ///   - fileID: Where the work is started: the ``ActionMetadata/effectSite`` of the actions its
  ///     `.send` parts send; leave the default.
  ///   - line: The line; leave the default.
  ///   - function: The function; leave the default.
  public func run(
    _ effect: Effect<Action>, as kind: Cause.Kind = .effect, label: String? = nil, context: String? = nil,
    parent: UInt64? = nil, fileID: StaticString = #fileID, line: UInt = #line,
    function: StaticString = #function
  ) {
    run(
      effect, as: kind, label: label, context: context, parent: parent,
      site: CallSite(fileID: fileID, line: line, function: function))
  }

  /// Runs `effect` like ``run(_:as:label:context:parent:fileID:line:function:)``, started at
  /// `site`: for modules that start work for their callers (thunks).
  package func run(
    _ effect: Effect<Action>, as kind: Cause.Kind, label: String?, context: String?, parent: UInt64?,
    site: CallSite
  ) {
    var started = EffectScope(kind: kind, label: label, parentSequence: parent, context: context)
    started.site = site
    let scope = started
    withProcessing(orDefer: .operation { self.start(effect, in: scope) }) {
      start(effect, in: scope)
    }
  }
}
