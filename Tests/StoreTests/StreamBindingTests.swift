import ChronicleStore
import ChronicleTestSupport
import Testing

extension StoreKey where State == Counter.State, Action == Counter.Action {
  static let counter = StoreKey("counter")
}

@Suite("Shared stores and streams")
struct SharingAndStreamTests {
  @Test func registeredStoreIsFoundByKeyAndReceivesSends() {
    let registry = StoreRegistry()
    let store = Store(initialState: Counter.State(), reducer: Counter())
    #expect(registry.send(.increment, to: .counter) == false)
    registry.register(store, for: .counter)
    #expect(registry.store(for: .counter) === store)
    #expect(registry.send(.increment, to: .counter))
    #expect(store.state.count == 1)
    #expect(registry.unregister(.counter) === store)
    #expect(registry.store(for: .counter) == nil)
  }

  @Test func sameNameWithOtherTypesIsAnotherKey() {
    let registry = StoreRegistry()
    registry.register(Store(initialState: Counter.State(), reducer: Counter()), for: .counter)
    let other = StoreKey<Int, Int>("counter")
    #expect(registry.store(for: other) == nil)
  }

  @Test func parallelTestsOverridingTheSameKeySeeOnlyTheirOwnStore() async {
    let registry = StoreRegistry()
    let global = Store(initialState: Counter.State(), reducer: Counter())
    registry.register(global, for: .counter)
    await withTaskGroup(of: Int.self) { group in
      for index in 1...8 {
        group.addTask {
          let local = Store(initialState: Counter.State(count: index * 100), reducer: Counter())
          return await registry.withOverride(local, for: .counter) {
            for _ in 0..<index { registry.send(.increment, to: .counter) }
            await Task.yield()
            return registry.store(for: .counter)!.state.count
          }
        }
      }
      var results: [Int] = []
      for await result in group { results.append(result) }
      #expect(results.sorted() == (1...8).map { $0 * 100 + $0 })
    }
    #expect(global.state.count == 0)
    #expect(registry.store(for: .counter) === global)
  }

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
