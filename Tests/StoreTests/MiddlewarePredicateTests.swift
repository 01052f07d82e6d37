import ChronicleStore
import ChronicleTestSupport
import Dispatch
import Testing

@Suite("Middleware predicates")
struct MiddlewarePredicateTests {
  /// A middleware that handles only the actions `accepts` accepts, recording what it sees and
  /// counting how often its predicate is asked.
  func selective(
    _ name: String, into recorder: Recorder<String>, asked: Recorder<Counter.Action>? = nil,
    accepts: @escaping @Sendable (Counter.Action) -> Bool
  ) -> AnyMiddleware<Counter.State, Counter.Action> {
    AnyMiddleware(name: name) { action in
      asked?.append(action)
      return accepts(action)
    } handle: { action, context, next in
      recorder.append(
        "\(name) #\(context.sequence) \(action) [\(context.contextLabel ?? "-")] \(context.cause)")
      next(action)
    }
  }

  @Test func aRejectedActionSkipsTheMiddlewareAndStillReachesTheReducer() {
    let recorder = Recorder<String>()
    let asked = Recorder<Counter.Action>()
    let store = Store(
      initialState: Counter.State(), reducer: Counter(),
      middleware: [
        selective("adds", into: recorder, asked: asked) { if case .add = $0 { true } else { false } }
      ])
    store.send(.increment, context: "A")
    store.send(.add(5), context: "B")
    store.send(.decrement)
    store.send(.add(10))
    #expect(store.state.count == 15)
    // Sequence numbers count every action, seen or not; context and cause are the action's own,
    // not left over from the last action a middleware saw.
    #expect(recorder.values == ["adds #2 add(5) [B] user", "adds #4 add(10) [-] user"])
    // Asked once per action, before anything else.
    #expect(asked.values == [.increment, .add(5), .decrement, .add(10)])
  }

  @Test func subscribersAndObservationSeeRejectedActions() {
    let recorder = Recorder<String>()
    let counts = Recorder<Int>()
    let store = Store(
      initialState: Counter.State(), reducer: Counter(),
      middleware: [selective("none", into: recorder) { _ in false }])
    let subscription = store.observe(\.count, immediately: false, removeDuplicates: false) {
      counts.append($0)
    }
    store.send(.increment)
    store.send(.add(2))
    #expect(counts.values == [1, 3])
    #expect(recorder.values.isEmpty)
    subscription.cancel()
  }

  @Test func eachMiddlewareSeesOnlyWhatItsOwnPredicateAccepts() {
    let recorder = Recorder<String>()
    let store = Store(
      initialState: Counter.State(), reducer: Counter(),
      middleware: [
        selective("increments", into: recorder) { $0 == .increment },
        recordingMiddleware("all", into: recorder),
        selective("decrements", into: recorder) { $0 == .decrement },
      ])
    store.send(.increment)
    store.send(.decrement)
    store.send(.add(1))
    #expect(store.state.count == 1)
    #expect(
      recorder.values == [
        "increments #1 increment [-] user", "all before increment", "all after increment",
        "all before decrement", "decrements #2 decrement [-] user", "all after decrement",
        "all before add(1)", "all after add(1)",
      ])
  }

  @Test func severalSelectiveMiddlewaresAreEachAskedOncePerAction() {
    let recorder = Recorder<String>()
    let askedFirst = Recorder<Counter.Action>()
    let askedSecond = Recorder<Counter.Action>()
    let store = Store(
      initialState: Counter.State(), reducer: Counter(),
      middleware: [
        selective("increments", into: recorder, asked: askedFirst) { $0 == .increment },
        selective("decrements", into: recorder, asked: askedSecond) { $0 == .decrement },
      ])
    store.send(.add(3))
    store.send(.decrement)
    store.send(.note("n"))
    store.send(.increment)
    #expect(store.state.count == 3)
    #expect(store.state.log == ["n"])
    #expect(recorder.values == ["decrements #2 decrement [-] user", "increments #4 increment [-] user"])
    #expect(askedFirst.values == [.add(3), .decrement, .note("n"), .increment])
    #expect(askedSecond.values == [.add(3), .decrement, .note("n"), .increment])
  }

  @Test func aTransformedActionIsJudgedByTheMiddlewaresAfterTheTransformer() {
    let recorder = Recorder<String>()
    let double = AnyMiddleware<Counter.State, Counter.Action>(name: "double") { action in
      if case .add = action { true } else { false }
    } handle: { action, _, next in
      if case .add(let amount) = action { next(.note("doubled \(amount)")) }
    }
    let store = Store(
      initialState: Counter.State(), reducer: Counter(),
      middleware: [double, selective("notes", into: recorder) { if case .note = $0 { true } else { false } }])
    store.send(.add(2))
    store.send(.increment)
    #expect(store.state.count == 1)
    #expect(store.state.log == ["doubled 2"])
    #expect(recorder.values == ["notes #1 note(\"doubled 2\") [-] user"])
  }

  @Test func wrappingKeepsThePredicate() {
    let recorder = Recorder<String>()
    let inner = selective("increments", into: recorder) { $0 == .increment }
    let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [AnyMiddleware(inner)])
    store.send(.decrement)
    store.send(.increment)
    #expect(recorder.values == ["increments #2 increment [-] user"])
  }

  @Test func effectEventsOfARejectedActionCarryItsContext() async {
    let events = Recorder<String>()
    let middleware = AnyMiddleware<Counter.State, Counter.Action>(name: "events") { _ in
      false
    } handle: { action, _, next in
      next(action)
    } event: { event, context in
      events.append(
        "\(event.phase) of #\(context.sequence) [\(context.contextLabel ?? "-")] \(context.cause)")
    }
    let store = Store<Counter.State, Counter.Action>(initialState: Counter.State(), middleware: [middleware])
    {
      state, action in
      state.count += 1
      return action == .increment ? .run { _ in } : .none
    }
    store.send(.decrement, context: "First")
    store.send(.increment, context: "Second")
    await store.waitUntilIdle()
    #expect(events.values.first == "started of #2 [Second] user")
    #expect(events.values.count == 2)
  }

  @Test func sendsFromManyThreadsToAGatedStoreLoseNothing() {
    let recorder = Recorder<String>()
    let store = Store(
      initialState: Counter.State(), reducer: Counter(),
      middleware: [selective("decrements", into: recorder) { $0 == .decrement }])
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for index in 0..<1_000 {
        store.send(index % 4 == 0 ? .decrement : .increment, context: "thread \(thread)")
      }
    }
    #expect(store.state.count == 8 * (750 - 250))
    let seen = recorder.values
    #expect(seen.count == 8 * 250)
    // Every action the middleware saw is a decrement with its own context, numbered uniquely.
    #expect(seen.allSatisfy { $0.contains(" decrement [thread ") })
    #expect(Set(seen.map { $0.split(separator: " ")[1] }).count == seen.count)
  }
}
