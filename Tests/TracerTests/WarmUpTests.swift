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
  @Test func theTracerIsWarmedUpBeforeTheRestOfTheChainRuns() {
    let journal = Journal<Int, Int>(reducer: Stamping(calls: Recorder()))
    let warmedUp = Recorder<Bool>()
    let witness = AnyMiddleware<Int, Int> { action, _, next in
      warmedUp.append(journal.warmedUp.load(ordering: .relaxed))
      next(action)
    }
    let store = Store(
      initialState: 0, reducer: Stamping(calls: Recorder()),
      middleware: [.tracer(journal), witness, .tracerProbe(journal)])
    let warmedUpBefore = journal.warmedUp.load(ordering: .relaxed)
    store.send(1)
    #expect(!warmedUpBefore)
    #expect(warmedUp.values == [true])
  }

  // The journal and the store share the reducer's recorder, as an app's reducer shares what it
  // counts or logs: a call made by the tracer on either's behalf is seen.
  @Test func theFirstActionRunsTheReducerOnceInsideItsMeasuredSpan() {
    let calls = Recorder<Int64>()
    let journal = Journal<Int, Int>(reducer: Stamping(calls: calls))
    let store = Store(
      initialState: 0, reducer: Stamping(calls: calls), middleware: [.tracer(journal), .tracerProbe(journal)])
    store.send(1)
    let snapshot = journal.snapshot()
    let start = snapshot.content.originMonotonic + snapshot.content.entries[0].time
    #expect(calls.values.count == 1)
    #expect(calls.values.allSatisfy { $0 >= start })
    #expect(store.state == 1)
  }

  @Test func everyActionRunsTheReducerExactlyOnce() {
    let calls = Recorder<Int64>()
    let journal = Journal<Int, Int>(
      reducer: Stamping(calls: calls), configuration: .init(checkpointInterval: 1))
    let store = Store(initialState: 0, reducer: Stamping(calls: calls), middleware: [.tracer(journal)])
    for action in 1...5 { store.send(action) }
    #expect(calls.values.count == 5)
    #expect(store.state == 15)
  }
}
