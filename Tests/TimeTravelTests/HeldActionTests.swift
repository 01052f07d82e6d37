import ChronicleMiddleware
import ChronicleStore
import ChronicleTestSupport
import ChronicleTracer
import Testing

@testable import ChronicleTimeTravel

/// A counter of plain integers, for a journal that holds many entries cheaply.
struct Sum: Reducer {
  func reduce(into state: inout Int, action: Int) -> Effect<Int> {
    state += action
    return .none
  }
}

@Suite struct HeldActionTests {
  @Test func aHeldActionIsJournaledWithTheCauseAndContextItArrivedWith() {
    let (store, journal, travel) = makeTravellingStore(policy: .locked)
    store.send(.add(1))
    travel.undo()
    let tick = Cause(kind: .timer, parent: 1, effect: 3, label: "tick")
    store.send(.add(10), context: "clock", cause: tick)
    #expect(travel.heldActions.map(\.cause) == [tick])
    travel.returnToPresent()
    #expect(store.state == tally([1, 10]))
    #expect(journal.entry(at: 1)?.cause == tick)
    #expect(journal.entry(at: 1)?.context == "clock")
  }

  @Test func anEffectsActionHeldInThePastKeepsItsEffectCause() async {
    let journal = Journal<Int, Int>(reducer: Sum())
    let travel = TimeTravel(journal: journal, policy: .locked)
    let store = Store(initialState: 0, middleware: [.timeTravel(travel), .tracer(journal)]) {
      (state: inout Int, action: Int) -> Effect<Int> in
      state += action
      return action == 1 ? .run { send in await send(100) } : .none
    }
    travel.attach(store)
    store.send(2)
    travel.undo()
    // Started from the present's past: sent while the store shows the state before #1.
    store.run(.send(1), as: .effect, parent: nil)
    #expect(travel.heldActions.map(\.action) == [1])
    travel.returnToPresent()
    await store.waitUntilIdle()
    #expect(store.state == 103)
    #expect(journal.snapshot().entries.map(\.action) == [2, 1, 100])
    #expect(journal.entry(at: 1)?.cause == Cause(kind: .effect))
    #expect(journal.entry(at: 2)?.cause.kind == .effect)
    #expect(journal.entry(at: 2)?.cause.parent == 3)
  }

  // The limit only stops a hang: alone this takes about a second in a debug build, but in the
  // whole suite on two shared cores it waited more than a minute for a thread. (Taking each held
  // action off the front of an array made applying them quadratic: 10.3 s rather than 2.1 s
  // alone; `theHeldQueueKeepsArrivalOrderAcrossItsCompaction` checks the queue itself.)
  @Test(.timeLimit(.minutes(10)))
  func returningToThePresentApplies100000HeldActionsInOrder() {
    let journal = Journal<Int, Int>(reducer: Sum(), configuration: .init(maxEntries: nil, maxBytes: nil))
    let travel = TimeTravel(journal: journal, policy: .locked)
    let store = Store(initialState: 0, reducer: Sum(), middleware: [.timeTravel(travel), .tracer(journal)])
    travel.attach(store)
    store.send(1)
    travel.undo()
    for value in 1...100_000 { store.send(value) }
    #expect(store.state == 0)
    travel.returnToPresent()
    #expect(store.state == 1 + 100_000 * 100_001 / 2)
    #expect(travel.heldActions.isEmpty)
    #expect(journal.count == 100_001)
    #expect(journal.entry(at: 1)?.action == 1)
    #expect(journal.entry(at: 50_000)?.action == 50_000)
    #expect(journal.entry(at: 100_000)?.action == 100_000)
  }

  @Test func theHeldQueueKeepsArrivalOrderAcrossItsCompaction() {
    var queue = LiveActionQueue<Int>()
    var taken: [Int] = []
    for value in 0..<3_000 {
      queue.append(LiveAction(action: value, context: nil, cause: .user, sequence: UInt64(value)))
      if value % 3 == 0, let first = queue.popFirst() { taken.append(first.action) }
    }
    #expect(queue.elements.map(\.action) == Array(1_000..<3_000))
    while let first = queue.popFirst() { taken.append(first.action) }
    #expect(taken == Array(0..<3_000))
    #expect(queue.isEmpty)
  }
}

/// A dependency as apps declare one: a plain task-local.
enum Language {
  @TaskLocal static var code = "en"
}

@Suite struct HeldActionTaskLocalTests {
  @Test func aHeldActionIsAppliedWithTheTaskLocalsItWasSentWith() async {
    let reducer = Reduce<[String], String> { state, action in
      state.append("\(action): reducer \(Language.code)")
      return action == "load" ? .run { send in await send("loaded by an effect in \(Language.code)") } : .none
    }
    let journal = Journal<[String], String>(reducer: reducer)
    let travel = TimeTravel(journal: journal, policy: .locked)
    let store = Store(
      initialState: [String](), reducer: reducer, middleware: [.timeTravel(travel), .tracer(journal)],
      propagating: [.taskLocal(Language.$code)])
    travel.attach(store)
    store.send("first")
    travel.undo()
    Language.$code.withValue("fr") { store.send("load") }
    #expect(travel.heldActions.map(\.action) == ["load"])
    travel.returnToPresent()
    await store.waitUntilIdle()
    #expect(
      store.state == [
        "first: reducer en", "load: reducer fr", "loaded by an effect in fr: reducer fr",
      ])
  }
}
