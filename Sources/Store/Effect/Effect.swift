/// Work that a reducer asks the store to run after an action: send more actions, run async code,
/// combine and cancel such work.
///
/// ```swift
/// case .load:
///   return .run { send in await send(.loaded(try await api.load())) }
///     .cancellable(id: "load", cancelInFlight: true)
/// case .cancel:
///   return .cancel(id: "load")
/// ```
///
/// Effects run off the caller's thread (except ``send(_:fileID:line:function:)``, which queues its action right after
/// the current one) and every action they send passes through the whole middleware chain with
/// its cause recorded. Replay and time travel never run effects.
public struct Effect<Action: Sendable>: Sendable {
  // Every case but `none` is `indirect`: their payloads (a resilient `TaskPriority`, a 40-byte
  // existential id, an action and its call site) would otherwise make `Effect` large or
  // runtime-sized, copied through memory on every `return .none` (`send/no-middleware` paid 17
  // instructions for `.send`'s inline call site, the floor 7). Boxed, an `Effect` is the size of a
  // reference, and `.none` costs nothing; a `.send` allocates its box, which is small beside queueing
  // the action (`send/effect-send` in Benchmarks/callgrind.sh).
  @usableFromInline
  enum Operation: Sendable {
    case none
    indirect case send(Action, CallSite)
    indirect case run(
      priority: TaskPriority?,
      operation: @Sendable (Send<Action>) async throws -> Void,
      handler: (@Sendable (any Error, Send<Action>) async -> Void)?,
      site: CallSite
    )
    indirect case merge([Effect])
    indirect case concatenate([Effect])
    indirect case cancellable(id: EffectID, cancelInFlight: Bool, Effect)
    indirect case cancel(EffectID)
  }

  @usableFromInline let operation: Operation

  @inlinable init(_ operation: Operation) { self.operation = operation }

  /// No work. Returning `.none` costs nothing.
  @inlinable public static var none: Effect { Effect(.none) }

  /// Whether this effect does nothing.
  @inlinable public var isNone: Bool {
    if case .none = operation { return true }
    return false
  }

  /// Sends `action` right after the current action, on the same thread, before `send` returns.
  ///
  /// The action's ``ActionMetadata/site`` is where this was called (`fileID`, `line`,
  /// `function`: leave the defaults).
  @inlinable public static func send(
    _ action: Action, fileID: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
  ) -> Effect {
    Effect(.send(action, CallSite(fileID: fileID, line: line, function: function)))
  }

  /// Runs `operation` in a new task; it sends actions with the `Send` it receives.
  ///
  /// The actions it sends carry this call's site as their ``ActionMetadata/effectSite``, beside
  /// the site of the `send` that sent each (``ActionMetadata/site``).
  ///
  /// - Parameters:
  ///   - priority: The task's priority.
  ///   - operation: The async work. Throwing a `CancellationError` after cancellation is not a failure.
  ///   - handler: Called with any other error the operation throws. Without it, the error is
  ///     reported to middlewares as a failed effect (``EffectEvent/Phase/failed(_:)``).
  ///   - fileID: The file the effect is created in; leave the default.
  ///   - line: The line; leave the default.
  ///   - function: The function; leave the default.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
  ) -> Effect {
    Effect(
      .run(
        priority: priority, operation: operation, handler: handler,
        site: CallSite(fileID: fileID, line: line, function: function)))
  }

  /// Sends `action` like ``send(_:fileID:line:function:)``, with a call site given as a value:
  /// for modules that create effects for their callers (thunks, timers).
  package static func send(_ action: Action, site: CallSite) -> Effect { Effect(.send(action, site)) }

  /// Runs `operation` like ``run(priority:operation:catch:fileID:line:function:)``, created at
  /// `site`: for modules that create effects for their callers (thunks, timers).
  package static func run(
    priority: TaskPriority? = nil, site: CallSite,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil
  ) -> Effect {
    Effect(.run(priority: priority, operation: operation, handler: handler, site: site))
  }

  /// Runs all `effects` at the same time.
  public static func merge(_ effects: Effect...) -> Effect { merge(effects) }

  /// Runs all `effects` at the same time.
  public static func merge(_ effects: some Sequence<Effect>) -> Effect {
    let effects = effects.filter { !$0.isNone }
    switch effects.count {
    case 0: return .none
    case 1: return effects[0]
    default: return Effect(.merge(effects))
    }
  }

  /// Runs `effects` one after another: each starts when the previous one has finished.
  public static func concatenate(_ effects: Effect...) -> Effect { concatenate(effects) }

  /// Runs `effects` one after another: each starts when the previous one has finished.
  public static func concatenate(_ effects: some Sequence<Effect>) -> Effect {
    let effects = effects.filter { !$0.isNone }
    switch effects.count {
    case 0: return .none
    case 1: return effects[0]
    default: return Effect(.concatenate(effects))
    }
  }

  /// Runs this effect and `other` at the same time.
  public func merge(with other: Effect) -> Effect { .merge(self, other) }

  /// Runs `other` after this effect has finished.
  public func concatenate(with other: Effect) -> Effect { .concatenate(self, other) }

  /// Makes this effect cancellable with `id`.
  ///
  /// The id applies to everything inside, including effects nested in merges and concatenations.
  /// Several in-flight effects may share an id; ``cancel(id:)`` cancels all of them.
  ///
  /// - Parameters:
  ///   - id: The cancellation id: any hashable, sendable value.
  ///   - cancelInFlight: Cancel the effects already running with this id before starting.
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Effect {
    if isNone { return self }
    return Effect(.cancellable(id: EffectID(id), cancelInFlight: cancelInFlight, self))
  }

  /// Cancels every in-flight effect, timer and thunk with `id`. After the store has processed it,
  /// none of their actions reaches the reducer. Unknown ids are ignored.
  public static func cancel(id: some Hashable & Sendable) -> Effect { Effect(.cancel(EffectID(id))) }

  /// Converts the actions this effect sends, e.g. to embed a child feature's effect in its parent.
  public func map<Other: Sendable>(_ transform: @escaping @Sendable (Action) -> Other) -> Effect<Other> {
    switch operation {
    case .none: return .none
    case .send(let action, let site): return Effect<Other>(.send(transform(action), site))
    case .run(let priority, let operation, let handler, let site):
      var mappedHandler: (@Sendable (any Error, Send<Other>) async -> Void)?
      if let handler {
        mappedHandler = { error, send in await handler(error, send.map(transform)) }
      }
      return Effect<Other>(
        .run(
          priority: priority, operation: { send in try await operation(send.map(transform)) },
          handler: mappedHandler, site: site))
    case .merge(let effects): return Effect<Other>(.merge(effects.map { $0.map(transform) }))
    case .concatenate(let effects): return Effect<Other>(.concatenate(effects.map { $0.map(transform) }))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Effect<Other>(.cancellable(id: id, cancelInFlight: cancelInFlight, effect.map(transform)))
    case .cancel(let id): return Effect<Other>(.cancel(id))
    }
  }
}
