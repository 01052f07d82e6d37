import ChronicleClocks
import ChronicleMiddleware
import ChronicleStore
import ChronicleTestSupport
import Testing

/// A middleware that records the ids of each effect started, as text, and whether each is one
/// the library attached (`*` after it).
func startedIDs<State: Sendable, Action: Sendable>(
  _ recorder: Recorder<[String]>
) -> AnyMiddleware<State, Action> {
  AnyMiddleware(name: "ids") { action, _, next in
    next(action)
  } event: { event, _ in
    if event.phase == .started { recorder.append(event.ids.map { $0.isImplicit ? "\($0)*" : "\($0)" }) }
  }
}

@Suite("Effect ids as shown")
struct EffectIDDisplayTests {
  @Test func aDebouncedActionsTimerShowsTheIDTheUserGave() async {
    let clock = TestClock()
    let ids = Recorder<[String]>()
    let store = watchStore(
      clock,
      middleware: [
        startedIDs(ids),
        .debounce(for: .milliseconds(300), clock: clock) { action in
          if case .query = action { "search" } else { nil }
        },
      ])
    store.send(.query("s"))
    await clock.advance(by: .zero)
    #expect(ids.values == [["search", "all timers*"]])
    await clock.advance(by: .milliseconds(300))
    await store.waitUntilIdle()
  }

  @Test func aThrottleWindowShowsTheIDTheUserGave() async {
    let clock = TestClock()
    let ids = Recorder<[String]>()
    let store = watchStore(
      clock,
      middleware: [
        startedIDs(ids),
        .throttle(for: .seconds(1), clock: clock, latest: false) { action in
          if case .query = action { "search" } else { nil }
        },
      ])
    store.send(.query("s"))
    await clock.advance(by: .zero)
    #expect(ids.values == [["search", "all timers*"]])
    await clock.advance(by: .seconds(1))
    await store.waitUntilIdle()
  }

  @Test func aTimerShowsItsIDAndTheGroupOfAllTimersIsImplicit() async {
    let clock = TestClock()
    let ids = Recorder<[String]>()
    let store = watchStore(
      clock, middleware: [startedIDs(ids), .timers(clock: clock, commands: Watch.commands)])
    store.send(.once("tick", after: 10))
    await clock.advance(by: .zero)
    #expect(ids.values == [["tick", "all timers*"]])
    await clock.advance(by: .milliseconds(10))
    await store.waitUntilIdle()
  }
}
