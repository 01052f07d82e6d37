import ChronicleMiddleware
import ChronicleStore
import ChronicleTestSupport
import ChronicleTimeTravel
import ChronicleTracer
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

@Suite struct BranchPolicyRaceTests {
  /// Senders on several tasks race with a task moving through the past: every live action ends
  /// up in the current line or in a branch, none is left held or dropped, and the current line's
  /// entries reproduce the store's state.
  @Test func liveActionsRacingWithMovesAreEachAppliedInSomeLine() async {
    let (store, journal, travel) = makeTravellingStore(policy: .branch, interval: 8)
    for amount in 1...10 { store.send(.add(-amount)) }
    let senders = 4
    let perSender = 200
    await withTaskGroup(of: Void.self) { group in
      for sender in 0..<senders {
        group.addTask {
          for step in 0..<perSender { store.send(.add(sender * 10_000 + step)) }
        }
      }
      group.addTask {
        for round in 0..<400 {
          travel.jump(to: round % 12)
          if round % 4 == 0 { travel.returnToPresent() }
        }
        travel.returnToPresent()
      }
    }
    travel.returnToPresent()
    #expect(travel.heldActions.isEmpty)
    #expect(travel.droppedActions.isEmpty)
    #expect(!travel.isInPast)
    let line = journal.snapshot()
    #expect(travel.state(before: line.indices.upperBound) == store.state)
    var seen: [Int: Int] = [:]
    let lines = [line] + travel.branches.map(\.history)
    for history in lines {
      for action in history.entries.map(\.action) {
        if case .add(let amount) = action, amount >= 0 { seen[amount, default: 0] += 1 }
      }
    }
    let sent = (0..<senders).flatMap { sender in (0..<perSender).map { sender * 10_000 + $0 } }
    #expect(sent.allSatisfy { seen[$0, default: 0] >= 1 })
  }
}
