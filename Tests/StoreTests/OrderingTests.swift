import ChronicleStore
import ChronicleTestSupport
import Testing

@Suite("One total order")
struct OrderingTests {
  @Test func stateReadRightAfterSendIsFresh() {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    store.send(.increment)
    #expect(store.state.count == 1)
    store.send(.add(41))
    #expect(store.state.count == 42)
  }

  @Test func sendEffectIsProcessedAfterTheCurrentActionBeforeSendReturns() {
    let recorder = Recorder<String>()
    let store = Store(
      initialState: 0,
      middleware: [recordingMiddleware("m", into: recorder)]
    ) { (state: inout Int, action: Int) -> Effect<Int> in
      state = state * 10 + action
      return action == 1 ? .send(2) : .none
    }
    store.send(1)
    #expect(store.state == 12)
    #expect(recorder.values == ["m before 1", "m after 1", "m before 2", "m after 2"])
  }

  @Test func reentrantSendFromMiddlewareIsQueuedNotRecursive() {
    let recorder = Recorder<String>()
    let echo = AnyMiddleware<Counter.State, Counter.Action>(name: "echo") { action, context, next in
      if action == .increment { context.send(.note("after increment")) }
      next(action)
      recorder.append("echo done with \(action)")
    }
    let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [echo])
    store.send(.increment)
    #expect(recorder.values == ["echo done with increment", "echo done with note(\"after increment\")"])
    #expect(store.state == Counter.State(count: 1, log: ["after increment"]))
  }

  @Test func chainOf100000ReentrantSendsNeitherRecursesNorOverflowsAndKeepsFIFO() {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let seen = Recorder<Int>()
    let subscription = store.observe(\.count, immediately: false) { seen.append($0) }
    store.send(.chain(remaining: 99_999))
    #expect(store.state.count == 100_000)
    #expect(seen.values == Array(1...100_000))
    subscription.cancel()
  }

  @Test func reentrantSendFromSubscriberDoesNotOverwriteTheUpdate() {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let subscription = store.observe(\.count, immediately: false) { [weak store] count in
      if count == 1 { store?.send(.add(10)) }
    }
    store.send(.increment)
    #expect(store.state.count == 11)
    subscription.cancel()
  }

  @Test func eightTasksSendingTenThousandEachLoseNothingAndObserversSeeEveryState() async {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let seen = Recorder<Int>()
    let subscription = store.observe(\.count, immediately: false) { seen.append($0) }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<10_000 { store.send(.increment) }
        }
      }
    }
    #expect(store.state.count == 80_000)
    #expect(seen.values == Array(1...80_000))
    subscription.cancel()
  }

  @Test func twoQuickSendsAreBothObserved() {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let seen = Recorder<Int>()
    let subscription = store.observe(\.count) { seen.append($0) }
    store.send(.increment)
    store.send(.increment)
    #expect(seen.values == [0, 1, 2])
    subscription.cancel()
  }

  @Test func stateIsAWholeSnapshotWhileOtherThreadsSend() async {
    struct Pair: Equatable, Sendable { var a = 0, b = 0 }
    let store = Store(initialState: Pair()) { (state: inout Pair, _: Void) -> Effect<Void> in
      state.a += 1
      state.b += 1
      return .none
    }
    let torn = Recorder<Pair>()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 { group.addTask { for _ in 0..<5_000 { store.send(()) } } }
      group.addTask {
        for _ in 0..<20_000 {
          let snapshot = store.state
          if snapshot.a != snapshot.b { torn.append(snapshot) }
        }
      }
    }
    #expect(torn.values.isEmpty)
    #expect(store.state == Pair(a: 20_000, b: 20_000))
  }
}
