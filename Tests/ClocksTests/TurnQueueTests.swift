import ChronicleTestSupport
import Testing

@testable import ChronicleClocks

@Suite("Turn queue") struct TurnQueueTests {
  @Test func turnsAreGrantedInTheOrderTheyWereAskedFor() async {
    let turns = TurnQueue()
    #expect(await turns.beginTurn())
    let order = Recorder<Int>()
    var waiters: [Task<Void, Never>] = []
    for index in 0..<3 {
      waiters.append(
        Task {
          #expect(await turns.beginTurn())
          order.append(index)
          turns.endTurn()
        })
      while turns.waitingCount <= index { await Task.yield() }
    }

    turns.endTurn()
    for waiter in waiters { await waiter.value }

    #expect(order.values == [0, 1, 2])
  }

  @Test func cancelledWaiterIsSkipped() async {
    let turns = TurnQueue()
    #expect(await turns.beginTurn())
    let cancelled = Task { await turns.beginTurn() }
    while turns.waitingCount == 0 { await Task.yield() }
    let next = Task {
      let granted = await turns.beginTurn()
      if granted { turns.endTurn() }
      return granted
    }
    while turns.waitingCount == 1 { await Task.yield() }

    cancelled.cancel()
    #expect(await cancelled.value == false)
    #expect(turns.waitingCount == 1)
    turns.endTurn()

    #expect(await next.value == true)
    #expect(turns.waitingCount == 0)
  }

  @Test func alreadyCancelledTaskGetsNoTurn() async {
    let turns = TurnQueue()
    let attempt = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await turns.beginTurn()
    }
    #expect(await attempt.value == false)
    #expect(await turns.beginTurn())
    turns.endTurn()
  }
}
