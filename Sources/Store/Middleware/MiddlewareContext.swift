/// What a middleware can see and do while it handles an action or an effect event.
///
/// A context is valid only during the `handle` call it was passed to; do not keep it. To send
/// actions later, start an effect with ``run(_:as:label:)`` and use the `Send` it receives.
public struct MiddlewareContext<State: Sendable, Action: Sendable> {
  // Unretained, like `MiddlewareNext`: valid only during the `handle` call, while the store is
  // processing and so alive.
  @usableFromInline let unmanagedStore: Unmanaged<Store<State, Action>>
  /// The position in the store's chain of the middleware this context was passed to: what it
  /// sends or runs is labelled with that middleware's name.
  @usableFromInline let middlewareIndex: Int

  @inlinable init(store: Store<State, Action>, middlewareIndex: Int) {
    self.unmanagedStore = Unmanaged.passUnretained(store)
    self.middlewareIndex = middlewareIndex
  }

  @inlinable var store: Store<State, Action> { unmanagedStore.takeUnretainedValue() }

  /// The metadata of the action being handled: sequence number, timestamp, context label, cause.
  ///
  /// The timestamp is read from the clock the first time any middleware asks for it during an
  /// action, so middlewares that never look at it do not pay for it.
  @inlinable public var metadata: ActionMetadata {
    unmanagedStore._withUnsafeGuaranteedRef { $0.currentMetadata() }
  }

  /// The sequence number of the action being handled, without the rest of ``metadata``.
  @inlinable public var sequence: UInt64 {
    unmanagedStore._withUnsafeGuaranteedRef { $0.storage.pointee.sequence }
  }

  /// The context label of the action being handled (see ``ActionMetadata/context``), without
  /// reading the clock as ``metadata`` may.
  @inlinable public var contextLabel: String? {
    unmanagedStore._withUnsafeGuaranteedRef { $0.storage.pointee.currentContext }
  }

  /// What caused the action being handled (see ``ActionMetadata/cause``).
  @inlinable public var cause: Cause {
    unmanagedStore._withUnsafeGuaranteedRef { $0.storage.pointee.currentCause }
  }

  /// Whether the cause of the action being handled has no label and is `kind`, in the same
  /// representation in memory (see ``Cause/Kind/hasRepresentation(of:)``): read where the store
  /// keeps it, without copying its strings as ``cause`` does (a retain and a release each). `false`
  /// does not tell: only ``cause`` does. The tracer reads its common causes this way, on every
  /// action.
  @inlinable package func causeIsUnlabeled(_ kind: Cause.Kind) -> Bool {
    unmanagedStore._withUnsafeGuaranteedRef { store in
      store.storage.pointee.currentCause.label == nil
        && kind.hasRepresentation(of: &store.storage.pointee.currentCause.kind)
    }
  }

  /// The cause's parent and effect (see ``Cause``), without copying its strings as ``cause`` does.
  @inlinable package var causeParentAndEffect: (parent: UInt64?, effect: UInt64?) {
    unmanagedStore._withUnsafeGuaranteedRef { store in
      (store.storage.pointee.currentCause.parent, store.storage.pointee.currentCause.effect)
    }
  }

  /// The store's state now: before `next` is called, the state before the action; after `next`
  /// returns, the state after it.
  @inlinable public var state: State {
    unmanagedStore._withUnsafeGuaranteedRef { $0.storage.pointee.state }
  }

  /// The values of the store's propagated task-locals for the action being handled, for a
  /// middleware that holds the action back and sends it again later (time travel); `nil` when
  /// the store propagates none.
  package var taskLocals: TaskLocalSnapshot? { store.propagation?.capture() }

  /// The name of the middleware this context was passed to (``AnyMiddleware/name``): the label
  /// of the cause of what it sends or runs without a label of its own.
  public var middlewareName: String {
    unmanagedStore._withUnsafeGuaranteedRef { $0.middleware[middlewareIndex].name }
  }

  /// Queues `action`; it is processed after the current action, with this middleware as its cause.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - context: The context label; defaults to the current action's.
  ///   - kind: The kind of cause to record, e.g. `.thunk` for a thunk middleware.
  ///   - label: A label for the cause, e.g. the thunk's name; defaults to the middleware's name
  ///     (``middlewareName``), so logs and journals say which middleware sent the action.
  ///   - fileID: The file it is sent from (``ActionMetadata/site``); leave the default.
  ///   - line: The line; leave the default.
  ///   - function: The function; leave the default.
  public func send(
    _ action: Action, context: String? = nil, as kind: Cause.Kind = .middleware, label: String? = nil,
    fileID: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
  ) {
    store.sendFromMiddleware(
      action, context: context, kind: kind, label: label ?? middlewareName,
      site: CallSite(fileID: fileID, line: line, function: function))
  }

  /// Where the action being handled was sent (see ``ActionMetadata/site``), without reading the
  /// clock as ``metadata`` may; `nil` when the store does not capture call sites.
  @inlinable public var site: CallSite? {
    unmanagedStore._withUnsafeGuaranteedRef { $0.capturesCallSites ? $0.storage.pointee.currentSite : nil }
  }

  /// Where the effect, thunk or timer that sent the action being handled was created (see
  /// ``ActionMetadata/effectSite``).
  @inlinable public var effectSite: CallSite? {
    unmanagedStore._withUnsafeGuaranteedRef {
      $0.capturesCallSites ? $0.storage.pointee.currentEffectSite : nil
    }
  }

  /// Runs `effect` as if the reducer had returned it, with a cause of the given kind whose
  /// parent is the current action (or no parent when handling an effect event).
  ///
  /// Thunk and timer middlewares use this: their work is tracked, cancellable by id, cancelled
  /// with the store, and awaited by ``Store/waitUntilIdle()``.
  ///
  /// - Parameters:
  ///   - effect: The work.
  ///   - kind: The kind of cause its actions carry.
  ///   - label: The cause's label; defaults to the effect's cancellation id, if it has one, and
  ///     otherwise to the middleware's name (``middlewareName``).
  public func run(_ effect: Effect<Action>, as kind: Cause.Kind = .middleware, label: String? = nil) {
    store.startFromMiddleware(effect, kind: kind, label: label, sender: middlewareName)
  }

  /// Runs `effect` like ``run(_:as:label:)``, started at `site`: the effect site of the actions
  /// its `.send` parts send, for modules that start work for their callers (thunks).
  package func run(_ effect: Effect<Action>, as kind: Cause.Kind, label: String?, site: CallSite) {
    store.startFromMiddleware(effect, kind: kind, label: label, sender: middlewareName, site: site)
  }

  /// Cancels every in-flight effect, thunk and timer with `id`.
  public func cancel(id: some Hashable & Sendable) {
    store.cancelEffects(id: EffectID(id))
  }
}
