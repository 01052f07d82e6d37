import ChroniclePersistence
import ChronicleStore
import ChronicleTestSupport
import Testing

extension StoreKey where State == Counter.State, Action == Counter.Action {
  static let counter = StoreKey("counter")
}

@Suite("Store registry")
struct StoreRegistryTests {
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
}
