import ChronicleStore
import ChronicleTestSupport
import Observation
import Testing

@Suite("Subscriptions")
struct SubscriptionTests {
  @Test func observeDeliversImmediatelyThenEveryChange() {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let seen = Recorder<Int>()
    let subscription = store.observe(\.count) { seen.append($0) }
    store.send(.increment)
    store.send(.add(2))
    #expect(seen.values == [0, 1, 3])
    subscription.cancel()
  }

  @Test func observeSkipsRepeatsOfEquatableValues() {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let seen = Recorder<Int>()
    let subscription = store.observe(\.count, immediately: false) { seen.append($0) }
    store.send(.note("no count change"))
    store.send(.increment)
    store.send(.add(0))
    #expect(seen.values == [1])
    subscription.cancel()
  }

  @Test func observeWithoutRemovingDuplicatesSeesEveryAction() {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let seen = Recorder<Int>()
    let subscription = store.observe(\.count, immediately: false, removeDuplicates: false) { seen.append($0) }
    store.send(.note("x"))
    store.send(.increment)
    #expect(seen.values == [0, 1])
    subscription.cancel()
  }

  @Test func cancelledOrReleasedSubscriptionIsNotCalledAgain() {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let seen = Recorder<Int>()
    var subscription: StoreSubscription? = store.observe(\.count, immediately: false) { seen.append($0) }
    store.send(.increment)
    subscription = nil
    store.send(.increment)
    let cancelled = store.observe(\.count, immediately: false) { seen.append(-$0) }
    cancelled.cancel()
    cancelled.cancel()
    store.send(.increment)
    #expect(seen.values == [1])
    _ = subscription
  }

  @Test func twoObserversEachSeeEveryState() {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let first = Recorder<Int>()
    let second = Recorder<Int>()
    let a = store.observe(\.count) { first.append($0) }
    let b = store.observe(\.count) { second.append($0) }
    for _ in 0..<100 { store.send(.increment) }
    #expect(first.values == Array(0...100))
    #expect(second.values == Array(0...100))
    a.cancel()
    b.cancel()
  }

  @Test func observingFromInsideASubscriberStartsWithTheCurrentState() {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let inner = Recorder<Int>()
    let holder = Recorder<StoreSubscription>()
    let outer = store.observe(\.count, immediately: false) { [weak store] count in
      guard count == 1, let store else { return }
      holder.append(store.observe(\.count) { inner.append($0) })
    }
    store.send(.increment)
    store.send(.increment)
    #expect(inner.values == [1, 2])
    outer.cancel()
    holder.values.forEach { $0.cancel() }
  }

  @Test func cancellingFromInsideItsOwnCallbackStopsIt() {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let seen = Recorder<Int>()
    let holder = Recorder<StoreSubscription>()
    holder.append(
      store.observe(\.count, immediately: false) { count in
        seen.append(count)
        holder.values.first?.cancel()
      })
    store.send(.increment)
    store.send(.increment)
    #expect(seen.values == [1])
  }

  @Test func everyConsumerOfStatesSeesEveryStateInOrder() async {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    // Each iterator subscribes when it is made, with its own buffer.
    var first = store.states.makeAsyncIterator()
    var second = store.states.makeAsyncIterator()
    for _ in 0..<50 { store.send(.increment) }
    var firstCounts: [Int] = []
    var secondCounts: [Int] = []
    for _ in 0...50 {
      firstCounts.append(await first.next()!.count)
      secondCounts.append(await second.next()!.count)
    }
    #expect(firstCounts == Array(0...50))
    #expect(secondCounts == Array(0...50))
  }

  @Test func valuesOfSkipsRepeats() async {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    var counts = store.values(of: \.count).makeAsyncIterator()
    store.send(.note("same count"))
    store.send(.increment)
    store.send(.note("same again"))
    store.send(.increment)
    #expect(await counts.next() == 0)
    #expect(await counts.next() == 1)
    #expect(await counts.next() == 2)
  }

  @Test func statesFinishWhenTheStoreIsReleased() async {
    var store: Store<Counter.State, Counter.Action>? = Store(
      initialState: Counter.State(), reducer: Counter())
    var states = store!.states.makeAsyncIterator()
    store?.send(.increment)
    store = nil
    #expect(await states.next()?.count == 0)
    #expect(await states.next()?.count == 1)
    #expect(await states.next() == nil)
  }

  @Test func observationTrackingIsToldOfChanges() async {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let changed = Signal()
    let seen = withObservationTracking {
      store.state.count
    } onChange: {
      changed.fire()
    }
    #expect(seen == 0)
    #expect(!changed.isFired)
    store.send(.increment)
    #expect(changed.isFired)
  }
}
