import ChronicleStore
import ChronicleTestSupport
import ChronicleTimeTravel
import Testing

@Suite struct NavigationTests {
  @Test func undoAndRedoMoveOneEntry() {
    let (store, _, travel) = makeTravellingStore()
    for amount in [1, 2, 3] { store.send(.add(amount)) }
    #expect(travel.undo())
    #expect(store.state == tally([1, 2]))
    #expect(travel.position == 2)
    #expect(travel.isInPast)
    #expect(travel.undo())
    #expect(store.state == tally([1]))
    #expect(travel.redo())
    #expect(store.state == tally([1, 2]))
    #expect(travel.redo())
    #expect(store.state == tally([1, 2, 3]))
    #expect(!travel.isInPast)
    #expect(!travel.redo())
  }

  @Test func undoStopsAtTheBaseState() {
    let (store, _, travel) = makeTravellingStore()
    store.send(.add(5))
    #expect(travel.undo())
    #expect(store.state == Tally.State())
    #expect(!travel.canUndo)
    #expect(!travel.undo())
    #expect(travel.position == 0)
  }

  @Test func jumpReachesAnyEntryAcrossCheckpoints() {
    let (store, journal, travel) = makeTravellingStore(interval: 4)
    let amounts = Array(1...25)
    for amount in amounts { store.send(.add(amount)) }
    for position in [0, 3, 4, 5, 17, 24, 11] {
      #expect(travel.jump(to: position))
      #expect(store.state == tally(Array(amounts.prefix(position))))
      #expect(travel.position == position)
    }
    #expect(travel.jump(to: journal.indices.upperBound))
    #expect(store.state == tally(amounts))
    #expect(!travel.isInPast)
  }

  @Test func jumpClampsToTheJournal() {
    let (store, _, travel) = makeTravellingStore()
    for amount in [1, 2] { store.send(.add(amount)) }
    #expect(travel.jump(to: -7))
    #expect(store.state == Tally.State())
    #expect(travel.jump(to: 99))
    #expect(store.state == tally([1, 2]))
    #expect(!travel.isInPast)
  }

  @Test func subscribersSeeEachStateTheStoreMovesTo() {
    let (store, _, travel) = makeTravellingStore()
    let seen = Recorder<Int>()
    let subscription = store.observe(immediately: false) { seen.append($0.count) }
    for amount in [1, 2, 3] { store.send(.add(amount)) }
    travel.undo()
    travel.jump(to: 0)
    travel.redo()
    travel.returnToPresent()
    subscription.cancel()
    #expect(seen.values == [1, 3, 6, 3, 0, 1, 6])
  }

  @Test func timeTravelNeverRunsEffectsAgain() async {
    let runs = EffectRuns()
    let (store, _, travel) = makeTravellingStore(reducer: Tally(effectRuns: runs))
    store.send(.load)
    store.send(.add(1))
    await store.waitUntilIdle()
    #expect(runs.value == 1)
    travel.jump(to: 0)
    travel.returnToPresent()
    travel.toggleSkip(1)
    travel.toggleSkip(1)
    travel.undo()
    travel.send(.add(2))
    await store.waitUntilIdle()
    #expect(runs.value == 1)
    #expect(store.pendingEffectCount == 0)
    #expect(store.state == tally([2]))
  }

  @Test func movesDoNotRecordIntoTheJournal() {
    let (store, journal, travel) = makeTravellingStore()
    for amount in [1, 2, 3] { store.send(.add(amount)) }
    travel.jump(to: 1)
    travel.returnToPresent()
    #expect(journal.count == 3)
    #expect(journal.entry(at: 2)?.action == .add(3))
  }
}
