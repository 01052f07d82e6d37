import ChronicleStore
import ChronicleTracer
import Foundation
import Testing

/// A counter whose `.draw` takes a ticket number from a dependency (a server, a clock, a random
/// source): the journal records the ticket drawn, but a reducer run elsewhere draws its own.
private struct Tickets: Reducer {
  struct State: Equatable, Sendable, Codable {
    var count = 0
    var ticket = 0
  }

  enum Action: Equatable, Sendable, Codable { case increment, draw }

  let nextTicket: @Sendable () -> Int

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += 1
    case .draw: state.ticket = nextTicket()
    }
    return .none
  }
}

/// A recorded session: increment, draw (ticket 42), increment.
private func ticketSession() -> JournalSnapshot<Tickets.State, Tickets.Action> {
  let reducer = Tickets { 42 }
  let journal = Journal<Tickets.State, Tickets.Action>(reducer: reducer)
  let store = Store(initialState: Tickets.State(), reducer: reducer, middleware: [.tracer(journal)])
  store.send(.increment)
  store.send(.draw)
  store.send(.increment)
  return journal.snapshot()
}

/// The page's reducer, as a page running the app's logic in JavaScript has it: the same
/// arithmetic, its own ticket machine (which draws 7), and any other action, such as the
/// extension's `@@INIT`, leaves the state as it is, as Redux reducers do.
private func pageReducer(_ state: Any?, _ action: [String: Any]) -> Any? {
  var state = state as? [String: Any] ?? ["count": 0, "ticket": 0]
  switch action["type"] as? String {
  case "increment": state["count"] = (state["count"] as? Int ?? 0) + 1
  case "draw": state["ticket"] = 7
  default: break
  }
  return state
}

/// The states a monitor shows, read as the app's state type.
private func states(_ shown: [(type: String, state: Any?)]) throws -> [Tickets.State] {
  try shown.map { entry in
    let data = try JSONSerialization.data(withJSONObject: entry.state ?? NSNull(), options: .fragmentsAllowed)
    return try JSONDecoder().decode(Tickets.State.self, from: data)
  }
}

/// The journal's recorded states: the base state, then the state after each entry.
private func recordedStates(
  _ snapshot: JournalSnapshot<Tickets.State, Tickets.Action>
) throws -> [Tickets.State] {
  try [#require(snapshot.baseState)] + snapshot.indices.map { try #require(snapshot.state(after: $0)) }
}

@Suite struct ReduxDevToolsImportTests {
  @Test func anInstanceDeclaringImportShowsTheLiftedFilesRecordedStates() throws {
    let snapshot = ticketSession()
    let lifted = try ReduxDevToolsExtension.intoInstanceImporting(snapshot.reduxDevTools(.liftedState))
    let shown = ReduxDevToolsExtension.shown(lifted)
    #expect(shown.map(\.type) == ["@@INIT", "increment", "draw", "increment"])
    #expect(
      try states(shown) == [
        Tickets.State(count: 0, ticket: 0), Tickets.State(count: 1, ticket: 0),
        Tickets.State(count: 1, ticket: 42), Tickets.State(count: 2, ticket: 42),
      ])
    #expect(try states(shown) == recordedStates(snapshot))
  }

  @Test func aPageStoreRecomputesTheLiftedFilesStatesWithItsReducer() throws {
    let snapshot = ticketSession()
    let lifted = try ReduxDevToolsExtension.intoPageStore(
      snapshot.reduxDevTools(.liftedState), reducer: pageReducer)
    let shown = ReduxDevToolsExtension.shown(lifted)
    #expect(shown.map(\.type) == ["@@INIT", "increment", "draw", "increment"])
    // The page's reducer draws its own ticket: the recorded 42 is not what the monitor shows.
    #expect(
      try states(shown) == [
        Tickets.State(count: 0, ticket: 0), Tickets.State(count: 1, ticket: 0),
        Tickets.State(count: 1, ticket: 7), Tickets.State(count: 2, ticket: 7),
      ])
  }

  @Test func aPageStoreComputesTheCustomFilesStatesWithItsReducer() throws {
    let snapshot = ticketSession()
    let lifted = try ReduxDevToolsExtension.intoPageStore(
      snapshot.reduxDevTools(.custom), reducer: pageReducer)
    let shown = ReduxDevToolsExtension.shown(lifted)
    #expect(shown.map(\.type) == ["@@INIT", "increment", "draw", "increment"])
    #expect(
      try states(shown) == [
        Tickets.State(count: 0, ticket: 0), Tickets.State(count: 1, ticket: 0),
        Tickets.State(count: 1, ticket: 7), Tickets.State(count: 2, ticket: 7),
      ])
  }

  @Test func anInstanceDeclaringImportShowsNothingOfACustomFile() throws {
    let lifted = try ReduxDevToolsExtension.intoInstanceImporting(ticketSession().reduxDevTools(.custom))
    #expect(ReduxDevToolsExtension.shown(lifted).isEmpty)
  }
}
