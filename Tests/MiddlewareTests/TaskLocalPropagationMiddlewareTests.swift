import ChronicleClocks
import ChronicleMiddleware
import ChronicleStore
import ChronicleTestSupport
import Dispatch
import Foundation
import Testing

/// A dependency as apps declare one: a plain task-local.
enum Tenant {
  @TaskLocal static var id = "none"
}

/// A feature whose thunks, timers and debounced actions write down the `Tenant` they see.
enum Tenanted {
  struct State: Equatable, Sendable { var log: [String] = [] }

  enum Action: Equatable, Sendable {
    /// Makes the router send the action under test re-entrantly, with its own `Tenant`.
    case route
    /// Held up by the middleware `holding` gives the store.
    case hold
    case loadThunk
    case startTimer
    case tick
    case query(String)
    case got(String)
  }

  static let reducer = Reduce<State, Action> { state, action in
    switch action {
    case .tick: state.log.append("tick: reducer \(Tenant.id)")
    case .query(let text): state.log.append("query \(text): reducer \(Tenant.id)")
    case .got(let text): state.log.append("\(text): reducer \(Tenant.id)")
    case .route, .hold, .loadThunk, .startTimer: break
    }
    return .none
  }

  static let loadThunk = Thunk<State, Action, Void>("load") { send, _, _ in
    await send(.got("thunk saw \(Tenant.id)"))
  }

  /// On `.route`, sends `action` with `Tenant` set to `tenant`: it is queued and processed after
  /// `.route`, in the context of `.route`'s sender, as an action a router or a child store sends.
  static func router(sending action: Action, as tenant: String) -> AnyMiddleware<State, Action> {
    AnyMiddleware(name: "router") { received, context, next in
      next(received)
      guard received == .route else { return }
      Tenant.$id.withValue(tenant) { context.send(action, as: .user) }
    }
  }

  static func store(
    routing action: Action, as tenant: String, clock: TestClock, holding: [AnyMiddleware<State, Action>] = []
  ) -> Store<State, Action> {
    Store(
      initialState: State(), reducer: reducer,
      middleware: holding + [
        router(sending: action, as: tenant),
        .thunks { $0 == .loadThunk ? loadThunk : nil },
        .timers(clock: clock) { $0 == .startTimer ? .once(id: "t", after: .seconds(1), send: .tick) : nil },
        .debounce(for: .milliseconds(300), clock: clock) { action in
          if case .query = action { "search" } else { nil }
        },
      ],
      propagating: [.taskLocal(Tenant.$id)])
  }
}

@Suite("Task-locals reach thunks and timers")
struct TaskLocalPropagationMiddlewareTests {
  @Test func aThunkStartedByAQueuedActionSeesTheValueTheActionWasSentWith() async {
    let store = Tenanted.store(routing: .loadThunk, as: "acme", clock: TestClock())
    Tenant.$id.withValue("outer") { store.send(.route) }
    await store.waitUntilIdle()
    #expect(store.state.log == ["thunk saw acme: reducer acme"])
  }

  @Test func aTimerStartedByAQueuedActionTicksWithTheValueTheActionWasSentWith() async {
    let clock = TestClock()
    let store = Tenanted.store(routing: .startTimer, as: "acme", clock: clock)
    Tenant.$id.withValue("outer") { store.send(.route) }
    await clock.advance(by: .seconds(1))
    #expect(store.state.log == ["tick: reducer acme"])
  }

  @Test func aDebouncedActionIsSentOnWithTheValueItWasSentWith() async {
    let clock = TestClock()
    let store = Tenanted.store(routing: .query("swift"), as: "acme", clock: clock)
    Tenant.$id.withValue("outer") { store.send(.route) }
    await clock.advance(by: .milliseconds(300))
    #expect(store.state.log == ["query swift: reducer acme"])
  }

  @Test func theLatestActionAThrottleWindowHeldIsSentOnWithTheValueItWasSentWith() async {
    let clock = TestClock()
    let store = Store(
      initialState: Tenanted.State(), reducer: Tenanted.reducer,
      middleware: [
        .throttle(for: .seconds(1), clock: clock, latest: true) { action in
          if case .query = action { "search" } else { nil }
        }
      ],
      propagating: [.taskLocal(Tenant.$id)])
    Tenant.$id.withValue("first") { store.send(.query("a")) }
    Tenant.$id.withValue("latest") { store.send(.query("b")) }
    await clock.advance(by: .seconds(1))
    #expect(store.state.log == ["query a: reducer first", "query b: reducer latest"])
    store.cancelAllTimers()
  }

  @Test func aThunkDispatchedIntoABusyStoreFromAnotherStoreRunsWithTheDispatchersValue() async {
    let targetIsBusy = DispatchSemaphore(value: 0)
    let thunkLeft = DispatchSemaphore(value: 0)
    let hold = AnyMiddleware<Tenanted.State, Tenanted.Action>(name: "hold") { action, _, next in
      if action == .hold {
        targetIsBusy.signal()
        thunkLeft.wait()
      }
      next(action)
    }
    let target = Tenanted.store(routing: .tick, as: "unused", clock: TestClock(), holding: [hold])
    let source = Store(initialState: 0) { (_: inout Int, _: Int) -> Effect<Int> in
      // Processing `source`, this thread must not wait for `target`: the thunk is left in
      // `target`'s inbox, for the thread that owns it to start.
      target.dispatch(Tenanted.loadThunk)
      thunkLeft.signal()
      return .none
    }
    let done = DispatchGroup()
    let threads: [(tenant: String, work: @Sendable () -> Void)] = [
      ("owner", { target.send(.hold) }),
      (
        "acme",
        {
          targetIsBusy.wait(); source.send(1)
        }
      ),
    ]
    for (tenant, work) in threads {
      done.enter()
      Thread {
        Tenant.$id.withValue(tenant) { work() }
        done.leave()
      }.start()
    }
    done.wait()
    await target.waitUntilIdle()
    #expect(target.state.log == ["thunk saw acme: reducer acme"])
  }
}
