import ChronicleStore
import ChronicleTestSupport
import Testing

@Suite("Stream bindings")
struct StreamBindingTests {
  @Test func boundSequenceSendsActionsWithAStreamCause() async {
    let causes = Recorder<Cause>()
    let watcher = AnyMiddleware<Counter.State, Counter.Action> { action, context, next in
      causes.append(context.metadata.cause)
      next(action)
    }
    let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [watcher])
    let (numbers, input) = AsyncStream.makeStream(of: Int.self)
    let binding = store.bind(numbers, id: "numbers", context: "Feed") { $0 > 0 ? .add($0) : nil }
    input.yield(2)
    input.yield(-1)
    input.yield(3)
    input.finish()
    await store.waitUntilIdle()
    #expect(store.state.count == 5)
    #expect(causes.values.map(\.kind) == [.stream, .stream])
    #expect(causes.values.map(\.label) == ["numbers", "numbers"])
    binding.cancel()
  }

  @Test func cancellingABindingStopsItsActions() async {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let (numbers, input) = AsyncStream.makeStream(of: Int.self)
    let binding = store.bind(numbers, id: "numbers") { .add($0) }
    input.yield(1)
    await store.waitUntil { $0.count == 1 }
    binding.cancel()
    input.yield(10)
    await store.waitUntilIdle()
    #expect(store.state.count == 1)
  }
}
