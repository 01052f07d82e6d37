import ChronicleStore
import ChronicleTimeTravel
import Testing

@Suite struct SkipTests {
  @Test func skippingAnEntryRecomputesEveryLaterState() {
    let (store, _, travel) = makeTravellingStore(interval: 2)
    for amount in [1, 2, 3, 4, 5] { store.send(.add(amount)) }
    #expect(travel.toggleSkip(1))
    #expect(store.state == tally([1, 3, 4, 5]))
    #expect(travel.skippedEntries == [1])
    travel.jump(to: 4)
    #expect(store.state == tally([1, 3, 4]))
    travel.jump(to: 1)
    #expect(store.state == tally([1]))
  }

  @Test func togglingAgainAppliesTheEntry() {
    let (store, _, travel) = makeTravellingStore(interval: 2)
    for amount in [1, 2, 3] { store.send(.add(amount)) }
    travel.toggleSkip(0)
    travel.toggleSkip(2)
    #expect(store.state == tally([2]))
    travel.toggleSkip(0)
    #expect(store.state == tally([1, 2]))
    #expect(travel.skippedEntries == [2])
  }

  @Test func liveActionsContinueFromTheStateWithoutTheSkippedEntry() {
    let (store, _, travel) = makeTravellingStore(interval: 2)
    for amount in [1, 2, 3] { store.send(.add(amount)) }
    travel.toggleSkip(1)
    store.send(.add(10))
    #expect(store.state == tally([1, 3, 10]))
    travel.jump(to: 4)
    #expect(store.state == tally([1, 3, 10]))
    travel.undo()
    #expect(store.state == tally([1, 3]))
  }

  @Test func unskippingRestoresTheEntryInStatesRecordedWhileItWasSkipped() {
    let (store, journal, travel) = makeTravellingStore(interval: 1)
    for amount in [1, 2, 3] { store.send(.add(amount)) }
    travel.toggleSkip(1)
    for amount in [10, 20] { store.send(.add(amount)) }
    #expect(store.state == tally([1, 3, 10, 20]))
    travel.toggleSkip(1)
    #expect(store.state == tally([1, 2, 3, 10, 20]))
    travel.jump(to: 4)
    #expect(store.state == tally([1, 2, 3, 10]))
    #expect(journal.count == 5)
  }

  @Test func statesFromAResyncCheckpointOnStartFromItsStateWhateverIsSkippedBefore() {
    let (store, journal, travel) = makeTravellingStore(interval: 100)
    for amount in [1, 2, 3] { store.send(.add(amount)) }
    journal.pause()
    store.send(.add(100))
    journal.resume()
    // Entry 3 stores the store's state before it: the journal alone cannot lead there.
    for amount in [4, 5] { store.send(.add(amount)) }
    travel.toggleSkip(1)
    #expect(store.state == tally([1, 2, 3, 100, 4, 5]))
    travel.jump(to: 4)
    #expect(store.state == tally([1, 2, 3, 100, 4]))
    travel.jump(to: 3)
    #expect(store.state == tally([1, 3]))
  }

  @Test func skippingOutsideTheJournalDoesNothing() {
    let (store, _, travel) = makeTravellingStore()
    store.send(.add(1))
    #expect(!travel.toggleSkip(5))
    #expect(travel.skippedEntries.isEmpty)
    #expect(store.state == tally([1]))
  }
}
