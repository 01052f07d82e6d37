import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing
import TracerFixtures

@testable import ChronicleTracer

private enum Beat: Equatable, Sendable, TraceableAction {
  case tick, tap

  var shouldTrace: Bool { self != .tick }
}

@Suite struct FilterTests {
  @Test func pausingLeavesActionsOutAndTheJournalStillReplays() {
    let (store, journal) = makeTracedStore(.init(checkpointInterval: 50))
    store.send(.increment)
    journal.pause()
    #expect(journal.isPaused)
    store.send(.add(10))
    store.send(.add(10))
    journal.resume()
    store.send(.increment)
    let snapshot = journal.snapshot()
    #expect(snapshot.entries.map(\.sequence) == [1, 4])
    #expect(snapshot.checkpoints.map(\.index) == [0, 1])
    #expect(snapshot.checkpoints.map(\.kind) == [.resync, .resync])
    #expect(snapshot.state(after: 0) == Counter.State(count: 1))
    #expect(snapshot.state(after: 1) == Counter.State(count: 22))
  }

  @Test func theUntracedContextOptsASendOut() {
    let (store, journal) = makeTracedStore()
    store.send(.increment, context: TraceFilter<Counter.Action>.untracedContext)
    store.send(.increment, context: "Screen")
    #expect(journal.snapshot().entries.map(\.sequence) == [2])
    #expect(journal.state(after: 0) == Counter.State(count: 2))
  }

  @Test func actionsCanOptOutThemselves() {
    let reduce: @Sendable (inout Int, Beat) -> Effect<Beat> = { state, _ in
      state += 1
      return .none
    }
    let journal = Journal<Int, Beat>(reduce: reduce)
    let store = Store<Int, Beat>(initialState: 0, middleware: [.tracer(journal)], reduce: reduce)
    for beat in [Beat.tap, .tick, .tick, .tap] { store.send(beat) }
    #expect(journal.snapshot().entries.map(\.action) == [.tap, .tap])
    #expect(journal.state(after: 1) == 4)
  }

  @Test func allowAndDenyListsSelectContextsActionsAndCauses() {
    var filter = TraceFilter<Counter.Action>.all
    filter.deniedActions = ["note"]
    filter.allowedContexts = ["Screen", "Other"]
    filter.deniedContexts = ["Other"]
    filter.deniedCauses = [.effect]
    let (store, journal) = makeTracedStore(.init(filter: filter))
    store.send(.increment, context: "Screen")
    store.send(.note("x"), context: "Screen")
    store.send(.increment, context: "Other")
    store.send(.increment)
    store.send(.chain(remaining: 1), context: "Screen")
    #expect(journal.snapshot().entries.map(\.sequence) == [1, 5])
    #expect(journal.state(after: 1) == Counter.State(count: 4, log: ["x"]))
  }

  @Test func aPredicateSeesTheActionAndItsMetadata() {
    let filter = TraceFilter<Counter.Action> { action, metadata in
      metadata.sequence % 2 == 1 && action != .decrement
    }
    let (store, journal) = makeTracedStore(.init(filter: filter))
    for action in [Counter.Action.increment, .increment, .decrement, .increment, .increment] {
      store.send(action)
    }
    #expect(journal.snapshot().entries.map(\.sequence) == [1, 5])
    #expect(journal.state(after: 1) == Counter.State(count: 3))
  }
}
