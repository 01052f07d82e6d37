import ChronicleStore
import ChronicleTimeTravel
import Testing

@Suite struct BranchTests {
  @Test func sendingFromThePastKeepsTheOldFutureAsABranch() {
    let (store, journal, travel) = makeTravellingStore()
    for amount in [1, 2, 3] { store.send(.add(amount)) }
    travel.jump(to: 1)
    travel.send(.add(10))
    #expect(store.state == tally([1, 10]))
    #expect(!travel.isInPast)
    #expect(journal.snapshot().entries.map(\.action) == [.add(1), .add(10)])
    let branches = travel.branches
    #expect(branches.count == 1)
    #expect(branches[0].forkIndex == 1)
    #expect(branches[0].futureCount == 2)
    #expect(branches[0].history.entries.map(\.action) == [.add(1), .add(2), .add(3)])
  }

  @Test func switchingToABranchRestoresItAndKeepsTheLineLeft() {
    let (store, journal, travel) = makeTravellingStore()
    for amount in [1, 2, 3] { store.send(.add(amount)) }
    travel.jump(to: 1)
    travel.send(.add(10))
    store.send(.add(20))
    #expect(travel.switchToBranch(travel.branches[0].id))
    #expect(store.state == tally([1, 2, 3]))
    #expect(journal.snapshot().entries.map(\.action) == [.add(1), .add(2), .add(3)])
    let kept = travel.branches
    #expect(kept.count == 1)
    #expect(kept[0].history.entries.map(\.action) == [.add(1), .add(10), .add(20)])
    travel.undo()
    #expect(store.state == tally([1, 2]))
    #expect(travel.switchToBranch(kept[0].id))
    #expect(store.state == tally([1, 10, 20]))
    store.send(.add(30))
    travel.undo()
    #expect(store.state == tally([1, 10, 20]))
  }

  @Test func switchingToAnUnknownBranchFails() {
    let (store, _, travel) = makeTravellingStore()
    store.send(.add(1))
    #expect(!travel.switchToBranch(42))
    #expect(store.state == tally([1]))
  }

  @Test func sendingInThePresentIsAnOrdinarySend() {
    let (store, _, travel) = makeTravellingStore()
    store.send(.add(1))
    travel.send(.add(2))
    #expect(store.state == tally([1, 2]))
    #expect(travel.branches.isEmpty)
  }

  @Test func aBranchReplaysAfterItsFork() {
    let (store, journal, travel) = makeTravellingStore(interval: 2)
    for amount in 1...9 { store.send(.add(amount)) }
    travel.jump(to: 5)
    travel.send(.add(100))
    for amount in [200, 300] { store.send(.add(amount)) }
    let expected = [1, 2, 3, 4, 5, 100, 200, 300]
    #expect(store.state == tally(expected))
    #expect(journal.state(after: journal.indices.last!) == tally(expected))
    travel.jump(to: 6)
    #expect(store.state == tally(Array(expected.prefix(6))))
  }
}
