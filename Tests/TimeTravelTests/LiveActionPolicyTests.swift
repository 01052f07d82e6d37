import ChronicleStore
import ChronicleTestSupport
import ChronicleTimeTravel
import Testing

@Suite struct LiveActionPolicyTests {
  @Test func lockedHoldsLiveActionsUntilThePresent() {
    let (store, journal, travel) = makeTravellingStore(policy: .locked)
    for amount in [1, 2] { store.send(.add(amount)) }
    travel.undo()
    store.send(.add(10), context: "timer")
    store.send(.add(20))
    #expect(store.state == tally([1]))
    #expect(travel.heldActions.map(\.action) == [.add(10), .add(20)])
    #expect(travel.heldActions.map(\.context) == ["timer", nil])
    #expect(journal.count == 2)
    travel.redo()
    #expect(store.state == tally([1, 2, 10, 20]))
    #expect(travel.heldActions.isEmpty)
    #expect(journal.snapshot().entries.map(\.action) == [.add(1), .add(2), .add(10), .add(20)])
    #expect(journal.entry(at: 2)?.context == "timer")
  }

  @Test func lockedAppliesHeldActionsAfterABranchAction() {
    let (store, _, travel) = makeTravellingStore(policy: .locked)
    for amount in [1, 2] { store.send(.add(amount)) }
    travel.undo()
    store.send(.add(10))
    travel.send(.add(5))
    #expect(store.state == tally([1, 5, 10]))
  }

  @Test func droppedStopsLiveActionsAndRecordsThem() {
    let (store, journal, travel) = makeTravellingStore(policy: .dropped)
    for amount in [1, 2] { store.send(.add(amount)) }
    travel.undo()
    store.send(.add(10), context: "effect")
    #expect(store.state == tally([1]))
    travel.returnToPresent()
    #expect(store.state == tally([1, 2]))
    let dropped = travel.droppedActions
    #expect(dropped.map(\.action) == [.add(10)])
    #expect(dropped.map(\.context) == ["effect"])
    #expect(dropped.map(\.sequence) == [3])
    #expect(journal.count == 2)
    store.send(.add(3))
    #expect(store.state == tally([1, 2, 3]))
  }

  @Test func liveActionsFromEffectsAreHeldToo() async {
    let (store, _, travel) = makeTravellingStore(policy: .locked)
    store.send(.add(1))
    travel.undo()
    let task = Task { store.send(.add(2), context: "effect") }
    await task.value
    #expect(store.state == Tally.State())
    travel.returnToPresent()
    #expect(store.state == tally([1, 2]))
  }

  /// Senders on several threads race with a thread moving through the past: every state shown
  /// in the past is the recorded one, and every live action is applied once, in each sender's
  /// order, after the store returned to the present.
  @Test(arguments: [LiveActionPolicy.locked, .dropped])
  func liveActionsNeverInterleaveWithThePast(policy: LiveActionPolicy) async {
    let (store, journal, travel) = makeTravellingStore(policy: policy, interval: 8)
    for amount in 1...20 { store.send(.add(-amount)) }
    let senders = 4
    let perSender = 300
    let mismatches = Recorder<Int>()
    await withTaskGroup(of: Void.self) { group in
      for sender in 0..<senders {
        group.addTask {
          for step in 0..<perSender { store.send(.add(sender * 10_000 + step)) }
        }
      }
      group.addTask {
        for round in 0..<200 {
          // In the past (only this task moves the store), the state shown must not change.
          if travel.jump(to: round % 15), travel.isInPast {
            let position = travel.position
            if store.state != travel.state(before: position) { mismatches.append(position) }
          }
          if round % 3 == 0 {
            travel.returnToPresent()
            // Moves that fail in the present must not leave live actions blocked.
            travel.redo()
            travel.commit()
            let last = travel.position - 1
            travel.toggleSkip(last)
            travel.toggleSkip(last)
          }
        }
        travel.returnToPresent()
      }
    }
    #expect(mismatches.values.count == 0)
    #expect(!travel.isInPast)
    #expect(travel.heldActions.isEmpty)
    let applied = store.state.log.dropFirst(20)
    let dropped = travel.droppedActions.map { action -> Int in
      guard case .add(let amount) = action.action else { return -1 }
      return amount
    }
    switch policy {
    case .locked: #expect(applied.count == senders * perSender && dropped.isEmpty)
    case .dropped: #expect(applied.count + dropped.count == senders * perSender)
    case .branch: Issue.record("branches change the past: not an argument of this test")
    }
    for sender in 0..<senders {
      let mine = applied.filter { $0 / 10_000 == sender }
      #expect(mine == mine.sorted())
      let all = (mine + dropped.filter { $0 / 10_000 == sender }).sorted()
      #expect(all == Array((0..<perSender).map { sender * 10_000 + $0 }))
    }
    #expect(store.state.count == store.state.log.reduce(0, +))
    let journalAgrees = journal.state(before: journal.indices.upperBound) == store.state
    #expect(journalAgrees)
  }
}
