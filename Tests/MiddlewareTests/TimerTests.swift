import ChronicleClocks
import ChronicleMiddleware
import ChronicleStore
import ChronicleTestSupport
import Testing

/// A feature whose timers the timer middleware starts and stops.
enum Watch {
  struct State: Equatable, Sendable {
    var ticks: [String: Int] = [:]
    var log: [String] = []
  }

  enum Action: Equatable, Sendable {
    case start(String, every: Int, sending: String? = nil)
    case once(String, after: Int)
    case stop(String)
    case stopAll
    case startPair
    case tick(String)
    case query(String)
  }

  static let reducer = Reduce<State, Action> { state, action in
    switch action {
    case .tick(let name):
      state.ticks[name, default: 0] += 1
      state.log.append("tick \(name)")
    case .query(let text):
      state.log.append("query \(text)")
    default:
      break
    }
    return .none
  }

  static func commands(_ action: Action) -> TimerCommand<Action>? {
    switch action {
    case .start(let id, let milliseconds, let payload):
      .repeating(id: id, every: .milliseconds(milliseconds), send: .tick(payload ?? id))
    case .once(let id, let milliseconds):
      .once(id: id, after: .milliseconds(milliseconds), send: .tick(id))
    case .stop(let id):
      .cancel(id: id)
    case .stopAll:
      .cancelAll
    case .startPair:
      .merge(
        .repeating(id: "a", every: .milliseconds(100), send: .tick("a")),
        .repeating(id: "b", every: .milliseconds(300), send: .tick("b")))
    case .tick, .query:
      nil
    }
  }
}

func watchStore(
  _ clock: TestClock, middleware: [AnyMiddleware<Watch.State, Watch.Action>]
) -> Store<Watch.State, Watch.Action> {
  Store(initialState: Watch.State(), reducer: Watch.reducer, middleware: middleware)
}

func timerStore(_ clock: TestClock, seen: Recorder<String> = Recorder()) -> Store<Watch.State, Watch.Action> {
  watchStore(clock, middleware: [causeRecorder(seen), .timers(clock: clock, commands: Watch.commands)])
}

@Suite("Timers")
struct TimerTests {
  @Test func timerTicksWithATestClock() async {
    let clock = TestClock()
    let store = Store(
      initialState: Watch.State(), reducer: Watch.reducer,
      middleware: [.timers(clock: clock, commands: Watch.commands)])
    store.send(.start("tick", every: 100))
    await clock.advance(by: .seconds(1))
    #expect(store.state.ticks["tick"] == 10)
    store.send(.stop("tick"))
  }

  @Test func repeatingTimerTicksOncePerIntervalAcrossAdvances() async {
    let clock = TestClock()
    let store = timerStore(clock)
    store.send(.start("a", every: 100))
    await clock.advance(by: .milliseconds(99))
    #expect(store.state.ticks["a"] == nil)
    await clock.advance(by: .milliseconds(1))
    #expect(store.state.ticks["a"] == 1)
    await clock.advance(by: .milliseconds(250))
    #expect(store.state.ticks["a"] == 3)
    await clock.advance(by: .milliseconds(50))
    #expect(store.state.ticks["a"] == 4)
    await clock.advance(by: .seconds(10))
    #expect(store.state.ticks["a"] == 104)
    store.send(.stop("a"))
  }

  @Test func oneShotTimerFiresOnceAndEnds() async {
    let clock = TestClock()
    let store = timerStore(clock)
    store.send(.once("a", after: 300))
    await clock.advance(by: .milliseconds(299))
    #expect(store.state.ticks["a"] == nil)
    await clock.advance(by: .seconds(5))
    #expect(store.state.ticks["a"] == 1)
    await store.waitUntilIdle()
    #expect(store.runningEffectCount == 0)
    #expect(clock.sleeperCount == 0)
  }

  @Test func ticksCarryTheTimerAsTheirCause() async {
    let clock = TestClock()
    let seen = Recorder<String>()
    let store = timerStore(clock, seen: seen)
    store.send(.start("a", every: 100))
    await clock.advance(by: .milliseconds(200))
    store.send(.stop("a"))
    #expect(
      seen.values == [
        "#1 start(\"a\", every: 100, sending: nil) user",
        "#2 tick(\"a\") timer \"a\" ← #1 e1",
        "#3 tick(\"a\") timer \"a\" ← #1 e1",
        "#4 stop(\"a\") user",
      ])
  }

  @Test func noTickIsDeliveredAfterCancel() async {
    let clock = TestClock()
    let store = timerStore(clock)
    store.send(.start("a", every: 100))
    await clock.advance(by: .milliseconds(250))
    store.send(.stop("a"))
    await clock.advance(by: .seconds(1))
    #expect(store.state.ticks["a"] == 2)
    await store.waitUntilIdle()
    #expect(store.runningEffectCount == 0)
    #expect(clock.sleeperCount == 0)
  }

  @Test func storeCancelByIDStopsATimer() async {
    let clock = TestClock()
    let store = timerStore(clock)
    store.send(.start("a", every: 100))
    await clock.advance(by: .milliseconds(100))
    store.cancel(id: "a")
    await clock.advance(by: .seconds(1))
    #expect(store.state.ticks["a"] == 1)
  }

  @Test func cancelWhileATickIsBeingProcessedStopsTheVeryNextOne() async {
    let clock = TestClock()
    // Stops the timer from inside the processing of its third tick.
    let stopper = AnyMiddleware<Watch.State, Watch.Action>(name: "stopper") { action, context, next in
      next(action)
      if action == .tick("a") && context.state.ticks["a"] == 3 { context.cancel(id: "a") }
    }
    let store = watchStore(clock, middleware: [stopper, .timers(clock: clock, commands: Watch.commands)])
    store.send(.start("a", every: 100))
    await clock.advance(by: .seconds(1))
    #expect(store.state.ticks["a"] == 3)
    #expect(clock.sleeperCount == 0)
  }

  @Test func startingAgainRestartsTheTimerFromNow() async {
    let clock = TestClock()
    let store = timerStore(clock)
    store.send(.start("a", every: 100))
    await clock.advance(by: .milliseconds(50))
    store.send(.start("a", every: 100))
    await clock.advance(by: .milliseconds(60))
    #expect(store.state.ticks["a"] == nil)
    await clock.advance(by: .milliseconds(40))
    #expect(store.state.ticks["a"] == 1)
    await clock.advance(by: .milliseconds(100))
    #expect(store.state.ticks["a"] == 2)
    #expect(store.runningEffectCount == 1)
    store.send(.stop("a"))
  }

  @Test func cancelAllStopsEveryTimer() async {
    let clock = TestClock()
    let store = timerStore(clock)
    store.send(.startPair)
    await clock.advance(by: .milliseconds(300))
    #expect(store.state.ticks == ["a": 3, "b": 1])
    store.send(.stopAll)
    await clock.advance(by: .seconds(3))
    #expect(store.state.ticks == ["a": 3, "b": 1])
    await store.waitUntilIdle()
    #expect(clock.sleeperCount == 0)
  }

  @Test func storeCancelAllTimersStopsEveryTimer() async {
    let clock = TestClock()
    let store = timerStore(clock)
    store.send(.startPair)
    await clock.advance(by: .milliseconds(100))
    store.cancelAllTimers()
    await clock.advance(by: .seconds(3))
    #expect(store.state.ticks == ["a": 1])
  }

  @Test func timersWithDifferentIDsAndIdenticalActionsDoNotInterfere() async {
    let clock = TestClock()
    let store = timerStore(clock)
    store.send(.start("a", every: 100, sending: "same"))
    store.send(.start("b", every: 100, sending: "same"))
    await clock.advance(by: .milliseconds(100))
    #expect(store.state.ticks["same"] == 2)
    store.send(.stop("a"))
    await clock.advance(by: .milliseconds(300))
    #expect(store.state.ticks["same"] == 5)
    store.send(.start("a", every: 50, sending: "other"))
    await clock.advance(by: .milliseconds(100))
    #expect(store.state.ticks == ["same": 6, "other": 2])
    store.send(.stopAll)
  }

  @Test func ticksOfTwoTimersInterleaveInDeadlineOrder() async {
    let clock = TestClock()
    let store = timerStore(clock)
    store.send(.start("a", every: 100))
    store.send(.start("b", every: 250))
    await clock.advance(by: .milliseconds(450))
    #expect(store.state.log == ["tick a", "tick a", "tick b", "tick a", "tick a"])
    store.send(.stopAll)
  }

  @Test func releasedStoreStopsItsTimers() async {
    let clock = TestClock()
    var store: Store<Watch.State, Watch.Action>? = timerStore(clock)
    store?.send(.start("a", every: 100))
    await clock.advance(by: .milliseconds(100))
    #expect(clock.sleeperCount == 1)
    weak let weakStore = store
    store = nil
    #expect(weakStore == nil)
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(1))
  }

  @Test func tenThousandTimersStartedAndCancelledConcurrentlyLoseNothingAndLeakNothing() async {
    let clock = TestClock()
    let store = timerStore(clock)
    let count = 10_000
    // Even timers are cancelled right after they start; odd ones fire once, 1 s after starting.
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<count {
        group.addTask {
          let id = "t\(index)"
          if index.isMultiple(of: 2) {
            store.send(.start(id, every: 1000))
            store.send(.stop(id))
          } else {
            store.send(.once(id, after: 1000))
          }
        }
      }
    }
    await clock.advance(by: .seconds(1))
    await store.waitUntilIdle()
    let ticks = store.state.ticks
    #expect(ticks.count == count / 2)
    #expect(ticks.values.allSatisfy { $0 == 1 })
    #expect(ticks.keys.allSatisfy { Int($0.dropFirst())!.isMultiple(of: 2) == false })
    #expect(store.runningEffectCount == 0)
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(5))
    #expect(store.state.ticks.count == count / 2)
  }
}
