import ChronicleClocks
import ChronicleMiddleware
import ChronicleStore
import ChronicleTestSupport
import Testing

/// Throttles `.query` actions by their first character, in windows of one second.
func throttleStore(
  _ clock: TestClock, latest: Bool, seen: Recorder<String> = Recorder()
) -> Store<Watch.State, Watch.Action> {
  watchStore(
    clock,
    middleware: [
      causeRecorder(seen),
      .throttle(for: .seconds(1), clock: clock, latest: latest) { action in
        if case .query(let text) = action { text.first.map(String.init) } else { nil }
      },
    ])
}

@Suite("Throttle")
struct ThrottleTests {
  @Test func firstActionPassesAndTheRestOfItsWindowIsDropped() async {
    let clock = TestClock()
    let store = throttleStore(clock, latest: false)
    store.send(.query("a"))
    await clock.advance(by: .milliseconds(100))
    store.send(.query("ab"))
    await clock.advance(by: .milliseconds(899))
    store.send(.query("abc"))
    await clock.advance(by: .milliseconds(1))
    #expect(store.state.log == ["query a"])
    store.send(.query("abcd"))
    #expect(store.state.log == ["query a", "query abcd"])
    await clock.advance(by: .seconds(1))
    await store.waitUntilIdle()
    #expect(store.state.log == ["query a", "query abcd"])
    #expect(clock.sleeperCount == 0)
  }

  @Test func withLatestTheLastActionOfAWindowIsSentWhenItCloses() async {
    let clock = TestClock()
    let seen = Recorder<String>()
    let store = throttleStore(clock, latest: true, seen: seen)
    store.send(.query("a"))  // t = 0: passes, opens a window until 1 s
    await clock.advance(by: .milliseconds(100))
    store.send(.query("ab"))
    await clock.advance(by: .milliseconds(100))
    store.send(.query("abc"))
    await clock.advance(by: .milliseconds(799))
    #expect(store.state.log == ["query a"])
    await clock.advance(by: .milliseconds(1))  // t = 1 s: "abc" sent, next window until 2 s
    #expect(store.state.log == ["query a", "query abc"])
    await clock.advance(by: .milliseconds(500))
    store.send(.query("abcd"))
    await clock.advance(by: .milliseconds(500))  // t = 2 s: "abcd" sent, next window until 3 s
    #expect(store.state.log == ["query a", "query abc", "query abcd"])
    await clock.advance(by: .seconds(1))  // t = 3 s: nothing held, the window closes
    store.send(.query("abcde"))
    #expect(store.state.log == ["query a", "query abc", "query abcd", "query abcde"])
    #expect(
      seen.values.filter { $0.contains("timer") } == [
        "#4 query(\"abc\") timer \"throttle a\" ← #1 e1",
        "#6 query(\"abcd\") timer \"throttle a\" ← #1 e1",
      ])
    store.cancelAllTimers()
  }

  @Test func eachIDIsThrottledOnItsOwn() async {
    let clock = TestClock()
    let store = throttleStore(clock, latest: false)
    store.send(.query("a1"))
    store.send(.query("b1"))
    store.send(.query("a2"))
    store.send(.query("b2"))
    #expect(store.state.log == ["query a1", "query b1"])
    store.cancelAllTimers()
  }

  @Test func aCancelledWindowLetsTheNextActionThrough() async {
    let clock = TestClock()
    let store = throttleStore(clock, latest: true)
    store.send(.query("a"))
    store.send(.query("ab"))
    store.cancelAllTimers()
    store.send(.query("abc"))
    #expect(store.state.log == ["query a", "query abc"])
    await clock.advance(by: .seconds(1))
    #expect(store.state.log == ["query a", "query abc"])
    store.cancelAllTimers()
  }
}
