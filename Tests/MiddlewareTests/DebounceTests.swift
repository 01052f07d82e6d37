import ChronicleClocks
import ChronicleMiddleware
import ChronicleStore
import ChronicleTestSupport
import Testing

/// Debounces `.query` actions by their first character.
func debounceStore(
  _ clock: TestClock, seen: Recorder<String> = Recorder()
) -> Store<Watch.State, Watch.Action> {
  watchStore(
    clock,
    middleware: [
      causeRecorder(seen),
      .debounce(for: .milliseconds(300), clock: clock) { action in
        if case .query(let text) = action { text.first.map(String.init) } else { nil }
      },
    ])
}

@Suite("Debounce")
struct DebounceTests {
  @Test func searchAsYouTypeSendsOnlyTheQueryTypedLast() async {
    let clock = TestClock()
    let store = watchStore(
      clock,
      middleware: [
        .debounce(for: .milliseconds(300), clock: clock) { action in
          if case .query = action { "search" } else { nil }
        }
      ])
    for query in ["s", "sw", "swi", "swift"] {
      store.send(.query(query))
      await clock.advance(by: .milliseconds(100))
    }
    await clock.advance(by: .milliseconds(200))
    #expect(store.state.log == ["query swift"])
  }

  @Test func onlyTheLastActionOfABurstIsSentAfterTheQuietPeriod() async {
    let clock = TestClock()
    let store = debounceStore(clock)
    store.send(.query("s"))
    await clock.advance(by: .milliseconds(100))
    store.send(.query("sw"))
    await clock.advance(by: .milliseconds(100))
    store.send(.query("swi"))
    await clock.advance(by: .milliseconds(299))
    #expect(store.state.log.isEmpty)
    await clock.advance(by: .milliseconds(1))
    #expect(store.state.log == ["query swi"])
    await clock.advance(by: .seconds(5))
    #expect(store.state.log == ["query swi"])
    await store.waitUntilIdle()
    #expect(store.runningEffectCount == 0)
    #expect(clock.sleeperCount == 0)
  }

  @Test func theResentActionPassesOnceWithTheTimerAsItsCause() async {
    let clock = TestClock()
    let seen = Recorder<String>()
    let store = debounceStore(clock, seen: seen)
    store.send(.query("s"))
    store.send(.query("sw"))
    await clock.advance(by: .milliseconds(300))
    #expect(
      seen.values == [
        "#1 query(\"s\") user",
        "#2 query(\"sw\") user",
        "#3 query(\"sw\") timer \"debounce s\" ← #2 e2",
      ])
    #expect(store.state.log == ["query sw"])
  }

  @Test func eachIDIsDebouncedOnItsOwn() async {
    let clock = TestClock()
    let store = debounceStore(clock)
    store.send(.query("a1"))
    store.send(.query("b1"))
    await clock.advance(by: .milliseconds(200))
    store.send(.query("a2"))
    await clock.advance(by: .milliseconds(100))
    #expect(store.state.log == ["query b1"])
    await clock.advance(by: .milliseconds(200))
    #expect(store.state.log == ["query b1", "query a2"])
  }

  @Test func actionsWithoutAnIDPassAtOnce() {
    let clock = TestClock()
    let store = debounceStore(clock)
    store.send(.tick("x"))
    store.send(.query(""))
    #expect(store.state.log == ["tick x", "query "])
  }

  @Test func cancelAllTimersDropsTheHeldAction() async {
    let clock = TestClock()
    let store = debounceStore(clock)
    store.send(.query("s"))
    store.cancelAllTimers()
    await clock.advance(by: .seconds(1))
    #expect(store.state.log.isEmpty)
    #expect(clock.sleeperCount == 0)
  }
}
