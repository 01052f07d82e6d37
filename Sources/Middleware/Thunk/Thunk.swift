import ChronicleStore

/// A named unit of work — synchronous or asynchronous — that reads the state, uses dependencies
/// and sends actions: redux-thunk's `(dispatch, getState, extraArgument) => …` for Swift.
///
/// ```swift
/// extension Thunk where State == Todos.State, Action == Todos.Action, Dependencies == TodoAPI {
///   static var loadTodos: Self {
///     Thunk("loadTodos") { send, state, api in
///       await send(.loaded(try await api.fetchAll()))
///     }
///     .cancellable(id: "load", cancelInFlight: true)
///   }
/// }
/// ```
///
/// Start a thunk in response to an action with ``ChronicleStore/AnyMiddleware/thunks(dependencies:onError:route:)``,
/// or directly with ``ChronicleStore/Store/dispatch(_:dependencies:context:onError:)``. Either way
/// its work is tracked by the store like an effect: middlewares see it start and finish under its
/// name (``/ChronicleStore/EffectEvent`` with a ``ChronicleStore/Cause/Kind/thunk`` cause labelled
/// with ``name``), every action it sends carries it as its cause, it can be cancelled by id, it is
/// cancelled with the store, and ``/ChronicleStore/Store/waitUntilIdle()`` waits for it.
public struct Thunk<State: Sendable, Action: Sendable, Dependencies: Sendable>: Sendable {
  /// The asynchronous body: sends actions with `send`, reads the live state with `state`.
  public typealias AsyncBody =
    @Sendable (
      _ send: Send<Action>, _ state: StateReader<State>, _ dependencies: Dependencies
    ) async throws -> Void

  /// The synchronous body: sends actions with `send`, reads the live state with `state`.
  public typealias SyncBody =
    @Sendable (
      _ send: ThunkSend<Action>, _ state: StateReader<State>, _ dependencies: Dependencies
    ) throws -> Void

  enum Body: Sendable {
    case async(priority: TaskPriority?, AsyncBody)
    case sync(SyncBody)
  }

  /// The thunk's name: the label of its cause in logs and traces.
  public let name: String
  /// The cancellation id, if the thunk is cancellable (see ``cancellable(id:cancelInFlight:)``).
  public private(set) var id: EffectID?
  /// Whether starting the thunk first cancels the work in flight with the same ``id``.
  public private(set) var cancelInFlight = false
  let body: Body
  /// Where the thunk was created: the ``/ChronicleStore/ActionMetadata/effectSite`` of the
  /// actions it sends.
  public let site: CallSite

  /// Creates an asynchronous thunk. It runs in its own task, like an `Effect.run`.
  ///
  /// - Parameters:
  ///   - name: The name its cause carries in logs and traces.
  ///   - priority: The task's priority.
  ///   - body: The work. It receives a `Send` (every action it sends is processed before `send`
  ///     returns, with the thunk as its cause), a reader of the store's live state, and the
  ///     dependencies. Errors it throws go to the `onError` handler given where it is started.
  ///   - fileID: Where the thunk is created (``site``); leave the default.
  ///   - line: The line; leave the default.
  ///   - function: The function; leave the default.
  public init(
    _ name: String, priority: TaskPriority? = nil, fileID: StaticString = #fileID, line: UInt = #line,
    function: StaticString = #function, body: @escaping AsyncBody
  ) {
    self.name = name
    self.body = .async(priority: priority, body)
    self.site = CallSite(fileID: fileID, line: line, function: function)
  }

  /// Creates a synchronous thunk, which runs to its end on the thread that starts it.
  ///
  /// ```swift
  /// let addTwice = Thunk<Counter.State, Counter.Action, Void>.sync("addTwice") { send, _, _ in
  ///   send(.increment)
  ///   send(.increment)
  /// }
  /// ```
  ///
  /// Started by an action, its actions are queued and processed right after that action (the
  /// store never processes actions recursively), so `state` does not show them yet. Dispatched
  /// with ``ChronicleStore/Store/dispatch(_:dependencies:context:onError:)`` from outside the
  /// store, each action is processed before `send` returns.
  ///
  /// - Parameters:
  ///   - name: The name its cause carries in logs and traces.
  ///   - fileID: Where the thunk is created (``site``); leave the default.
  ///   - line: The line; leave the default.
  ///   - function: The function; leave the default.
  ///   - body: The work. Errors it throws go to the `onError` handler given where it is started.
  public static func sync(
    _ name: String, fileID: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
    body: @escaping SyncBody
  ) -> Thunk {
    Thunk(name: name, body: .sync(body), site: CallSite(fileID: fileID, line: line, function: function))
  }

  private init(name: String, body: Body, site: CallSite) {
    self.name = name
    self.body = body
    self.site = site
  }

  /// Makes the thunk cancellable with `id`: ``/ChronicleStore/Store/cancel(id:)`` or a reducer's
  /// `.cancel(id:)` cancels every run of it in flight, and no action it sends reaches the
  /// reducer afterwards.
  ///
  /// - Parameters:
  ///   - id: The cancellation id: any hashable, sendable value.
  ///   - cancelInFlight: Cancel the work in flight with this id (earlier runs of this thunk,
  ///     effects, timers) before starting.
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Thunk {
    var thunk = self
    thunk.id = EffectID(id)
    thunk.cancelInFlight = cancelInFlight
    return thunk
  }
}
