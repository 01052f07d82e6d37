import ChronicleStore
import ChronicleTestSupport
import Testing

/// A feature whose effects are driven by the test through async streams, so nothing sleeps.
enum Work {
  struct State: Equatable, Sendable { var received: [String] = [] }

  enum Action: Equatable, Sendable {
    case start(name: String, id: String?, cancelInFlight: Bool)
    case startMerged(id: String)
    case startConcatenated
    case cancel(String)
    case received(String)
  }
}

func workReducer(_ channels: Channels, started: Recorder<String>) -> Reduce<Work.State, Work.Action> {
  @Sendable func relay(_ name: String) -> Effect<Work.Action> {
    .run { send in
      started.append(name)
      for await value in channels.stream(name) { await send(.received("\(name):\(value)")) }
    }
  }
  return Reduce { state, action in
    switch action {
    case .start(let name, let id, let cancelInFlight):
      if let id { return relay(name).cancellable(id: id, cancelInFlight: cancelInFlight) }
      return relay(name)
    case .startMerged(let id):
      return .merge(relay("a"), relay("b")).cancellable(id: id)
    case .startConcatenated:
      return .concatenate(relay("a"), .send(.received("between")), relay("b"))
    case .cancel(let id):
      return .cancel(id: id)
    case .received(let value):
      state.received.append(value)
      return .none
    }
  }
}

@Suite("Effects")
struct EffectTests {
  @Test func runEffectSendsBackThroughTheChainWithItsCause() async {
    let causes = Recorder<String>()
    let tracer = AnyMiddleware<Work.State, Work.Action>(name: "causes") { action, context, next in
      let metadata = context.metadata
      causes.append("#\(metadata.sequence) \(action) \(metadata.cause) \(metadata.context ?? "-")")
      next(action)
    }
    let channels = Channels(["a"])
    let store = Store(
      initialState: Work.State(), reducer: workReducer(channels, started: Recorder()), middleware: [tracer])
    store.send(.start(name: "a", id: nil, cancelInFlight: false), context: "Screen")
    channels.feed("a", "1")
    channels.close("a")
    await store.waitUntilIdle()
    #expect(store.state.received == ["a:1"])
    #expect(
      causes.values == [
        "#1 start(name: \"a\", id: nil, cancelInFlight: false) user Screen",
        "#2 received(\"a:1\") effect ← #1 Screen",
      ])
  }

  @Test func twoIdenticalInFlightEffectsDoNotCancelEachOther() async {
    let channels = Channels(["a"])
    let store = Store(initialState: Work.State(), reducer: workReducer(channels, started: Recorder()))
    store.send(.start(name: "a", id: nil, cancelInFlight: false))
    store.send(.start(name: "a", id: nil, cancelInFlight: false))
    #expect(store.runningEffectCount == 2)
    channels.close("a")
    await store.waitUntilIdle()
    #expect(store.runningEffectCount == 0)
  }

  @Test func aCancelledEffectStillRunningCountsAsRunningButNotPending() async {
    let channels = Channels(["a"])
    let store = Store(initialState: 0) { (_: inout Int, _: String) -> Effect<String> in
      // A detached task's value is awaited whatever the cancellation: the effect outlives it.
      .run { _ in _ = await Task.detached { await channels.next("a") }.value }.cancellable(id: "work")
    }
    store.send("start")
    #expect(store.runningEffectCount == 1)
    #expect(store.pendingEffectCount == 1)
    store.cancel(id: "work")
    #expect(store.runningEffectCount == 1)
    #expect(store.pendingEffectCount == 0)
    channels.feed("a", "done")
    await store.waitUntilIdle()
    #expect(store.runningEffectCount == 0)
  }

  @Test func cancelCancelsEveryInFlightEffectWithThatID() async {
    let channels = Channels(["a", "b", "c"])
    let store = Store(initialState: Work.State(), reducer: workReducer(channels, started: Recorder()))
    store.send(.start(name: "a", id: "load", cancelInFlight: false))
    store.send(.start(name: "b", id: "load", cancelInFlight: false))
    store.send(.start(name: "c", id: "other", cancelInFlight: false))
    store.send(.cancel("load"))
    channels.feed("a", "late")
    channels.feed("b", "late")
    channels.feed("c", "1")
    channels.close("c")
    await store.waitUntilIdle()
    #expect(store.state.received == ["c:1"])
  }

  @Test func cancelIDOnMergeIsHonouredForEveryMergedEffect() async {
    let channels = Channels(["a", "b"])
    let store = Store(initialState: Work.State(), reducer: workReducer(channels, started: Recorder()))
    store.send(.startMerged(id: "pair"))
    #expect(store.runningEffectCount == 2)
    store.cancel(id: "pair")
    channels.feed("a", "late")
    channels.feed("b", "late")
    await store.waitUntilIdle()
    #expect(store.state.received.isEmpty)
  }

  @Test func cancelInFlightReplacesTheRunningEffect() async {
    let channels = Channels(["a", "b"])
    let store = Store(initialState: Work.State(), reducer: workReducer(channels, started: Recorder()))
    store.send(.start(name: "a", id: "search", cancelInFlight: true))
    store.send(.start(name: "b", id: "search", cancelInFlight: true))
    channels.feed("a", "stale")
    channels.feed("b", "fresh")
    channels.close("b")
    await store.waitUntilIdle()
    #expect(store.state.received == ["b:fresh"])
  }

  @Test func noActionOfACancelledEffectReachesTheReducerAfterCancelReturns() async {
    let reduced = Recorder<Int>()
    let store = Store(initialState: 0) { (state: inout Int, action: Int) -> Effect<Int> in
      if action == 0 {
        return .run { send in
          var next = 1
          while !Task.isCancelled {
            await send(next)
            next += 1
          }
        }
        .cancellable(id: "flood")
      }
      reduced.append(action)
      state = action
      return .none
    }
    store.send(0)
    let firstTick = Signal()
    let subscription = store.observe(\.self, immediately: false) { _ in firstTick.fire() }
    await firstTick.wait()
    store.cancel(id: "flood")
    let countAtCancel = reduced.count
    await store.waitUntilIdle()
    #expect(reduced.count == countAtCancel)
    #expect(reduced.values == Array(1...countAtCancel))
    subscription.cancel()
  }

  @Test func concatenateRunsEffectsOneAfterAnother() async {
    let channels = Channels(["a", "b"])
    let started = Recorder<String>()
    let store = Store(initialState: Work.State(), reducer: workReducer(channels, started: started))
    store.send(.startConcatenated)
    channels.feed("b", "early")  // buffered; b does not start before a has finished
    channels.feed("a", "1")
    channels.close("a")
    channels.close("b")
    await store.waitUntilIdle()
    #expect(started.values == ["a", "b"])
    #expect(store.state.received == ["a:1", "between", "b:early"])
  }

  @Test func cancellingAConcatenationStopsItsCurrentAndLaterParts() async {
    let channels = Channels(["a", "b"])
    let started = Recorder<String>()
    let base = workReducer(channels, started: started)
    let store = Store(initialState: Work.State()) { (state: inout Work.State, action: Work.Action) in
      if action == .startConcatenated {
        return base.reduce(into: &state, action: action).cancellable(id: "sequence")
      }
      return base.reduce(into: &state, action: action)
    }
    store.send(.startConcatenated)
    store.cancel(id: "sequence")
    channels.feed("a", "late")
    await store.waitUntilIdle()
    #expect(store.state.received.isEmpty)
    #expect(!started.values.contains("b"))
  }

  @Test func cancellingAnUnknownIDDoesNothing() {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    store.cancel(id: "never started")
    store.send(.increment)
    #expect(store.state.count == 1)
  }

  @Test func releasedStoreCancelsItsEffects() async {
    let cancelled = Signal()
    let sent = Recorder<Int>()
    var store: Store<Int, Int>? = Store(initialState: 0) { (state: inout Int, action: Int) -> Effect<Int> in
      sent.append(action)
      guard action == 0 else { return .none }
      return .run { send in
        await withTaskCancellationHandler {
          for await _ in AsyncStream<Int>.makeStream().stream {}
        } onCancel: {
          cancelled.fire()
        }
        await send(99)
      }
    }
    store?.send(0)
    weak let weakStore = store
    store = nil
    #expect(weakStore == nil)
    await cancelled.wait()
    #expect(sent.values == [0])
  }

  @Test func sendingFromAnEffectAfterTheStoreIsReleasedIsDropped() async {
    let captured = Recorder<Send<Int>>()
    var store: Store<Int, Int>? = Store(initialState: 0) { (state: inout Int, action: Int) -> Effect<Int> in
      state += action
      return action == 0 ? .run { send in captured.append(send) } : .none
    }
    store?.send(0)
    await store?.waitUntilIdle()
    store = nil
    await captured.values[0](5)  // no store: dropped, no crash
    #expect(captured.count == 1)
  }

  @Test func effectLifecycleEventsReachMiddlewares() async {
    let events = Recorder<String>()
    let watcher = AnyMiddleware<Int, Int>(
      name: "events", handle: { action, _, next in next(action) },
      event: { event, _ in
        events.append("\(event.phase) effect \(event.effect) from #\(event.cause.parent ?? 0)")
      })
    struct Failure: Error {}
    let store = Store(initialState: 0, middleware: [watcher]) {
      (state: inout Int, action: Int) -> Effect<Int> in
      switch action {
      case 1: return .run { _ in }
      case 2: return .run { _ in throw Failure() }
      case 3: return .run { _ in for await _ in AsyncStream<Int>.makeStream().stream {} }.cancellable(id: 3)
      default: return .none
      }
    }
    store.send(1)
    await store.waitUntilIdle()
    store.send(2)
    await store.waitUntilIdle()
    store.send(3)
    store.cancel(id: 3)
    await store.waitUntilIdle()
    #expect(
      events.values == [
        "started effect 1 from #1", "finished effect 1 from #1",
        "started effect 2 from #2", "failed(\"Failure()\") effect 2 from #2",
        "started effect 3 from #3", "cancelled effect 3 from #3",
      ])
  }

  @Test func catchHandlerReceivesTheErrorAndCanSend() async {
    struct Boom: Error {}
    let store = Store(initialState: [String]()) { (state: inout [String], action: String) -> Effect<String> in
      state.append(action)
      guard action == "load" else { return .none }
      return .run { _ in
        throw Boom()
      } catch: { error, send in
        await send("failed: \(error)")
      }
    }
    store.send("load")
    await store.waitUntilIdle()
    #expect(store.state == ["load", "failed: Boom()"])
  }

  @Test func waitUntilIdleReturnsAtOnceWhenNothingRuns() async {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    await store.waitUntilIdle()
    #expect(store.runningEffectCount == 0)
  }

  @Test func mappedEffectDeliversTransformedActions() async {
    let store = Store(initialState: [String]()) { (state: inout [String], action: String) -> Effect<String> in
      state.append(action)
      guard action == "go" else { return .none }
      let child: Effect<Int> = .merge(.send(1), .run { send in await send(2) })
      return child.map { "child \($0)" }
    }
    store.send("go")
    await store.waitUntilIdle()
    #expect(store.state == ["go", "child 1", "child 2"])
  }
}
