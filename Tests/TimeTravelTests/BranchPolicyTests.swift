import ChronicleStore
import ChronicleTestSupport
import ChronicleTimeTravel
import Testing

@Suite struct BranchPolicyTests {
  @Test func aLiveSendInThePastStartsABranchFromTheStateShown() {
    let (store, journal, travel) = makeTravellingStore(policy: .branch)
    for amount in [1, 2, 3] { store.send(.add(amount)) }
    travel.jump(to: 1)
    store.send(.add(10))
    #expect(store.state == tally([1, 10]))
    #expect(!travel.isInPast)
    #expect(journal.snapshot().entries.map(\.action) == [.add(1), .add(10)])
    #expect(travel.heldActions.isEmpty)
    #expect(travel.droppedActions.isEmpty)
  }

  @Test func theFutureLeftByALiveSendIsKeptAndSwitchable() {
    let (store, journal, travel) = makeTravellingStore(policy: .branch)
    for amount in [1, 2, 3] { store.send(.add(amount)) }
    travel.jump(to: 1)
    store.send(.add(10))
    #expect(travel.branches.map(\.forkIndex) == [1])
    #expect(travel.branches.map(\.futureCount) == [2])
    #expect(travel.switchToBranch(travel.branches[0].id))
    #expect(store.state == tally([1, 2, 3]))
    #expect(journal.snapshot().entries.map(\.action) == [.add(1), .add(2), .add(3)])
    #expect(travel.branches.map(\.futureCount) == [1])
  }

  @Test func actionsAfterTheBranchingOneFlowInTheNewPresent() {
    let (store, journal, travel) = makeTravellingStore(policy: .branch)
    for amount in [1, 2] { store.send(.add(amount)) }
    travel.undo()
    store.send(.add(10))
    store.send(.add(20))
    #expect(store.state == tally([1, 10, 20]))
    #expect(journal.snapshot().entries.map(\.action) == [.add(1), .add(10), .add(20)])
    #expect(travel.branches.count == 1)
  }

  @Test func theBranchingActionIsJournaledWithItsOwnCause() {
    let (store, journal, travel) = makeTravellingStore(policy: .branch)
    for amount in [1, 2] { store.send(.add(amount)) }
    travel.undo()
    let tick = Cause(kind: .timer, parent: 1, label: "tick")
    store.send(.add(10), context: "clock", cause: tick)
    #expect(journal.entry(at: 1)?.cause == tick)
    #expect(journal.entry(at: 1)?.context == "clock")
  }

  @Test func aLiveSendInThePresentIsAnOrdinarySend() {
    let (store, journal, travel) = makeTravellingStore(policy: .branch)
    store.send(.add(1))
    store.send(.add(2))
    #expect(store.state == tally([1, 2]))
    #expect(journal.count == 2)
    #expect(travel.branches.isEmpty)
  }

  @Test func aLiveSendAtTheStartOfTheJournalBranchesFromTheBaseState() {
    let (store, journal, travel) = makeTravellingStore(policy: .branch)
    for amount in [1, 2] { store.send(.add(amount)) }
    travel.jump(to: 0)
    store.send(.add(7))
    #expect(store.state == tally([7]))
    #expect(journal.snapshot().entries.map(\.action) == [.add(7)])
    #expect(travel.branches.map(\.futureCount) == [2])
  }
}

@Suite struct BranchPolicyReadmeTests {
  @Test func theReadmeExampleKeepsTheFutureALiveSendReplaced() {
    let journal = Journal(reducer: Tally())
    let travel = TimeTravel(journal: journal, policy: .branch)
    let store = Store(
      initialState: Tally.State(), reducer: Tally(),
      middleware: [.timeTravel(travel), .tracer(journal)])
    travel.attach(store)
    store.send(.add(1))
    store.send(.add(2))
    travel.undo()
    store.send(.add(10))  // a branch: count == 11; the old future is in `travel.branches`
    #expect(store.state.count == 11)
    #expect(travel.branches.count == 1)
    travel.switchToBranch(travel.branches[0].id)  // count == 3 again
    #expect(store.state.count == 3)
  }
}
