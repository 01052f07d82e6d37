import ChronicleStore
import ChronicleTestSupport
import Dispatch
import Foundation
import Testing

/// A dependency as apps declare one: a plain task-local.
enum Endpoint {
  @TaskLocal static var name = "default"
}

/// A feature that writes down the `Endpoint` its reducer and its effects see.
enum Probe {
  struct State: Equatable, Sendable { var log: [String] = [] }

  enum Action: Equatable, Sendable {
    /// The reducer writes down what it sees.
    case read(String)
    /// The reducer starts an effect that sends back what it sees.
    case load(String)
    /// What an effect saw; the reducer writes it down with what it sees itself.
    case loaded(String, effect: String)
    /// Like `load`, but the action sent back starts an effect in turn.
    case loadTwice
    /// Sent back by `loadTwice`'s effect: the reducer starts another effect.
    case loadAgain(effect: String)
  }

  static let reducer = Reduce<State, Action> { state, action in
    switch action {
    case .read(let tag):
      state.log.append("\(tag): reducer \(Endpoint.name)")
      return .none
    case .load(let tag):
      state.log.append("\(tag): reducer \(Endpoint.name)")
      return .run { send in await send(.loaded(tag, effect: Endpoint.name)) }
    case .loaded(let tag, let effect):
      state.log.append("\(tag): effect \(effect), its action's reducer \(Endpoint.name)")
      return .none
    case .loadTwice:
      return .run { send in await send(.loadAgain(effect: Endpoint.name)) }
    case .loadAgain(let effect):
      state.log.append("first effect \(effect), its action's reducer \(Endpoint.name)")
      return .run { send in await send(.loaded("second", effect: Endpoint.name)) }
    }
  }
}

/// A middleware that, on `trigger`, sends each of `sends` re-entrantly, each with its own
/// `Endpoint`: they are queued and processed after `trigger`, in its sender's context.
func resender(
  on trigger: Probe.Action, sends: [(endpoint: String, action: Probe.Action)]
) -> AnyMiddleware<Probe.State, Probe.Action> {
  let sends = sends.map { ($0.endpoint, $0.action) }
  return AnyMiddleware(name: "resender") { action, context, next in
    next(action)
    guard action == trigger else { return }
    for (endpoint, queued) in sends {
      Endpoint.$name.withValue(endpoint) { context.send(queued, as: .user) }
    }
  }
}

func probeStore(
  middleware: [AnyMiddleware<Probe.State, Probe.Action>] = [], propagating: [PropagatedTaskLocal]
) -> Store<Probe.State, Probe.Action> {
  Store(initialState: Probe.State(), reducer: Probe.reducer, middleware: middleware, propagating: propagating)
}

@Suite("Task-locals reach effects")
struct TaskLocalPropagationTests {
  @Test func theReducerSeesTheValueSetAroundSend() {
    let store = probeStore(propagating: [.taskLocal(Endpoint.$name)])
    Endpoint.$name.withValue("staging") { store.send(.read("a")) }
    #expect(store.state.log == ["a: reducer staging"])
  }

  @Test func aRunEffectSeesTheValueSetAroundTheSendThatStartedIt() async {
    let store = Store(
      initialState: Probe.State(), reducer: Probe.reducer, propagating: [.taskLocal(Endpoint.$name)])
    Endpoint.$name.withValue("staging") { store.send(.load("a")) }
    await store.waitUntilIdle()
    #expect(store.state.log == ["a: reducer staging", "a: effect staging, its action's reducer staging"])
  }

  @Test func anActionAnEffectSendsBackAndThatActionsEffectSeeTheEffectsValue() async {
    // Queued, so that the effect is started in a context the store rebuilt from the send.
    let store = probeStore(
      middleware: [resender(on: .read("outer"), sends: [("staging", .loadTwice)])],
      propagating: [.taskLocal(Endpoint.$name)])
    Endpoint.$name.withValue("outer") { store.send(.read("outer")) }
    await store.waitUntilIdle()
    #expect(
      store.state.log == [
        "outer: reducer outer",
        "first effect staging, its action's reducer staging",
        "second: effect staging, its action's reducer staging",
      ])
  }

  @Test func anActionQueuedReentrantlyKeepsTheValueItWasSentWith() async {
    let store = probeStore(
      middleware: [resender(on: .read("outer"), sends: [("inner", .load("queued"))])],
      propagating: [.taskLocal(Endpoint.$name)])
    Endpoint.$name.withValue("outer") { store.send(.read("outer")) }
    await store.waitUntilIdle()
    #expect(
      store.state.log == [
        "outer: reducer outer",
        "queued: reducer inner",
        "queued: effect inner, its action's reducer inner",
      ])
  }

  @Test func twoQueuedActionsSentWithDifferentValuesEachKeepTheirOwn() async {
    let store = probeStore(
      middleware: [resender(on: .read("outer"), sends: [("one", .load("a")), ("two", .load("b"))])],
      propagating: [.taskLocal(Endpoint.$name)])
    Endpoint.$name.withValue("outer") { store.send(.read("outer")) }
    await store.waitUntilIdle()
    #expect(store.state.log.count == 5)
    #expect(Array(store.state.log.prefix(3)) == ["outer: reducer outer", "a: reducer one", "b: reducer two"])
    #expect(
      Set(store.state.log.suffix(2)) == [
        "a: effect one, its action's reducer one", "b: effect two, its action's reducer two",
      ])
  }

  @Test func everyPropagatedTaskLocalIsCarried() {
    enum Region {
      @TaskLocal static var code = "eu"
    }
    let store = Store(
      initialState: [String](),
      middleware: [
        AnyMiddleware(name: "resender") { action, context, next in
          next(action)
          guard action == "outer" else { return }
          Endpoint.$name.withValue("inner") {
            Region.$code.withValue("us") { context.send("queued", as: .user) }
          }
        }
      ],
      propagating: [.taskLocal(Endpoint.$name), .taskLocal(Region.$code)]
    ) { (state: inout [String], action: String) -> Effect<String> in
      state.append("\(action): \(Endpoint.name) \(Region.code)")
      return .none
    }
    store.send("outer")
    #expect(store.state == ["outer: default eu", "queued: inner us"])
  }

  @Test func anActionLeftInTheInboxOfABusyStoreKeepsItsSendersValue() async {
    let targetIsBusy = DispatchSemaphore(value: 0)
    let inboxFilled = DispatchSemaphore(value: 0)
    let target = probeStore(
      middleware: [busy(on: .read("owner"), signalling: targetIsBusy, until: inboxFilled)],
      propagating: [.taskLocal(Endpoint.$name)])
    let source = Store(initialState: 0) { (_: inout Int, _: Int) -> Effect<Int> in
      // Processing `source`, this thread must not wait for `target`: the action is left in
      // `target`'s inbox for the thread that owns it.
      target.send(.load("inboxed"))
      inboxFilled.signal()
      return .none
    }
    onThreads(2) { thread in
      if thread == 0 {
        Endpoint.$name.withValue("owner") { target.send(.read("owner")) }
      } else {
        targetIsBusy.wait()
        Endpoint.$name.withValue("sender") { source.send(1) }
      }
    }
    await target.waitUntilIdle()
    #expect(
      target.state.log == [
        "owner: reducer owner",
        "inboxed: reducer sender",
        "inboxed: effect sender, its action's reducer sender",
      ])
  }

  @Test func aStoreThatPropagatesNothingProcessesAQueuedActionInItsOwnersContext() async {
    let store = probeStore(
      middleware: [resender(on: .read("outer"), sends: [("inner", .load("queued"))])], propagating: [])
    Endpoint.$name.withValue("outer") { store.send(.read("outer")) }
    await store.waitUntilIdle()
    #expect(
      store.state.log == [
        "outer: reducer outer",
        "queued: reducer outer",
        "queued: effect outer, its action's reducer outer",
      ])
  }
}

/// Holds the store busy with `trigger` until `release` is signalled, after signalling `busy`.
private func busy(
  on trigger: Probe.Action, signalling busy: DispatchSemaphore, until release: DispatchSemaphore
) -> AnyMiddleware<Probe.State, Probe.Action> {
  AnyMiddleware(name: "busy") { action, _, next in
    if action == trigger {
      busy.signal()
      release.wait()
    }
    next(action)
  }
}
