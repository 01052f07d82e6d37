import ChronicleStore
import ChronicleTestSupport
import Testing

@testable import ChronicleTracer

/// Adds each action to the state, and notes the tracer clock's reading at each call.
private struct Stamping: Reducer {
  let calls: Recorder<Int64>

  func reduce(into state: inout Int, action: Int) -> Effect<Int> {
    calls.append(MonotonicClock.now())
    state += action
    return .none
  }
}

@Suite struct WarmUpTests {
  @Test func theFirstActionIsWarmedUpBeforeItsMeasuredSpanStarts() throws {
    let calls = Recorder<Int64>()
    let journal = Journal<Int, Int>(reducer: Stamping(calls: calls))
    let store = Store(
      initialState: 0, reducer: Stamping(calls: calls), middleware: [.tracer(journal), .tracerProbe(journal)])
    store.send(1)
    let snapshot = journal.snapshot()
    let start = snapshot.content.originMonotonic + snapshot.content.entries[0].time
    // The warm-up call, on a copy of the state, then the store's own call.
    try #require(calls.values.count == 2)
    #expect(calls.values[0] < start)
    #expect(calls.values[1] >= start)
    #expect(store.state == 1)
  }

  @Test func onlyTheFirstActionIsWarmedUp() {
    let calls = Recorder<Int64>()
    let journal = Journal<Int, Int>(
      reducer: Stamping(calls: calls), configuration: .init(checkpointInterval: 1))
    let store = Store(initialState: 0, reducer: Stamping(calls: calls), middleware: [.tracer(journal)])
    for action in 1...5 { store.send(action) }
    #expect(calls.values.count == 6)
    #expect(store.state == 15)
  }
}
