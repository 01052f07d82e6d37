import ChronicleStore
import ChronicleTimeTravel
import Testing

@Suite struct CommitTests {
  @Test func commitMakesTheShownStateTheBase() {
    let (store, journal, travel) = makeTravellingStore()
    for amount in [1, 2, 3] { store.send(.add(amount)) }
    travel.undo()
    travel.commit()
    #expect(store.state == tally([1, 2]))
    #expect(journal.count == 0)
    #expect(journal.baseState == tally([1, 2]))
    #expect(!travel.isInPast)
    store.send(.add(7))
    #expect(store.state == tally([1, 2, 7]))
    travel.undo()
    #expect(store.state == tally([1, 2]))
  }

  @Test func commitFoldsSkippedEntriesOut() {
    let (store, journal, travel) = makeTravellingStore()
    for amount in [1, 2, 3] { store.send(.add(amount)) }
    travel.toggleSkip(0)
    travel.commit()
    #expect(journal.baseState == tally([2, 3]))
    #expect(travel.skippedEntries.isEmpty)
  }

  @Test func rollbackReturnsToTheLastCommit() {
    let (store, journal, travel) = makeTravellingStore()
    for amount in [1, 2] { store.send(.add(amount)) }
    travel.commit()
    for amount in [3, 4] { store.send(.add(amount)) }
    travel.undo()
    travel.rollback()
    #expect(store.state == tally([1, 2]))
    #expect(journal.count == 0)
    #expect(!travel.isInPast)
  }

  @Test func resetReturnsToTheStateAtAttach() {
    let (store, journal, travel) = makeTravellingStore()
    for amount in [1, 2] { store.send(.add(amount)) }
    travel.commit()
    store.send(.add(3))
    travel.undo()
    travel.send(.add(4))
    #expect(travel.branches.count == 1)
    travel.reset()
    #expect(store.state == Tally.State())
    #expect(journal.count == 0)
    #expect(travel.branches.isEmpty)
    store.send(.add(9))
    #expect(store.state == tally([9]))
  }
}
