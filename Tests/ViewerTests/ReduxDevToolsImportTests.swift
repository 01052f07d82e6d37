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

/// The steps of the Redux DevTools extension's import that docs/formats/redux-devtools.md
/// relies on, re-implemented from its source (reduxjs/redux-devtools at 4b1d1d6). Values are
/// JSON as `JSONSerialization` reads it, which is what `jsan.parse` reads of a file without
/// jsan's references.
private enum DevToolsImport {
  struct NotAnObject: Error {}

  /// A lifted state: `actionsById`, `computedStates`, `stagedActionIds`, `skippedActionIds`,
  /// `committedState`, …
  typealias LiftedState = [String: Any]

  /// The file imported into an instance whose `features.import` is `true` (an instance made by
  /// `connect({features: {import: true}})`, as the viewer page's):
  /// packages/redux-devtools-app-core/src/reducers/instances.ts, `instances`, case
  /// `LIFTED_ACTION` with `message: 'IMPORT'`: when `state.options[id].features.import === true`
  /// the instance's lifted state becomes `parseJSON(action.state)`, the file as it is; no
  /// reducer runs.
  static func intoInstanceImporting(_ file: Data) throws -> LiftedState {
    try object(file)
  }

  /// The file imported into the instance of a page's Redux store (whose `features.import` is
  /// `"custom"`): the extension hands the file to the page, where
  /// - extension/src/pageScript/api/importState.ts, `importState`: a file with a `payload`
  ///   member (the custom form) gives `nextLiftedState = parse(payload)`, the actions, and
  ///   `preloadedState = parse(preloadedState)`; any other file is the lifted state itself;
  /// - extension/src/pageScript/index.ts, `importPayloadFrom`: the store dispatches
  ///   `{type: 'IMPORT_STATE', ...nextLiftedState}`, with no `noRecompute`;
  /// - packages/redux-devtools-instrument/src/instrument.ts, `liftReducerWith`, case
  ///   `IMPORT_STATE`: an array of actions becomes `actionsById` `{0: @@INIT, 1: …}` staged
  ///   in order from `committedState = preloadedState`; a lifted state replaces everything, and
  ///   only `noRecompute` would set `minInvalidatedStateIndex` to `Infinity`; it stays 0; then
  ///   `recomputeStates` runs from it.
  static func intoPageStore(
    _ file: Data, reducer: (_ state: Any?, _ action: [String: Any]) -> Any?
  ) throws -> LiftedState {
    let parsed = try object(file)
    var lifted: LiftedState
    if let payload = parsed["payload"] as? String {
      let actions = try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [Any] ?? []
      var actionsById: [String: Any] = ["0": ["type": "PERFORM_ACTION", "action": ["type": "@@INIT"]]]
      var stagedActionIds = [0]
      for (offset, action) in actions.enumerated() {
        actionsById[String(offset + 1)] = ["type": "PERFORM_ACTION", "action": action]
        stagedActionIds.append(offset + 1)
      }
      lifted = [
        "actionsById": actionsById, "stagedActionIds": stagedActionIds, "skippedActionIds": [Int](),
        "nextActionId": actions.count + 1, "currentStateIndex": actions.count, "computedStates": [Any](),
      ]
      if let preloaded = parsed["preloadedState"] as? String {
        lifted["committedState"] = try JSONSerialization.jsonObject(
          with: Data(preloaded.utf8), options: .fragmentsAllowed)
      }
    } else {
      lifted = parsed
    }
    lifted["computedStates"] = recomputeStates(lifted, from: 0, reducer: reducer)
    return lifted
  }

  /// packages/redux-devtools-instrument/src/instrument.ts, `recomputeStates`: the states from
  /// `minInvalidatedStateIndex` on are the reducer's, each from the one before it (the first
  /// from `committedState`); a skipped action keeps the entry before it.
  static func recomputeStates(
    _ lifted: LiftedState, from minInvalidatedStateIndex: Int,
    reducer: (_ state: Any?, _ action: [String: Any]) -> Any?
  ) -> [[String: Any]] {
    let stagedActionIds = lifted["stagedActionIds"] as? [Int] ?? []
    let skippedActionIds = lifted["skippedActionIds"] as? [Int] ?? []
    let actionsById = lifted["actionsById"] as? [String: Any] ?? [:]
    var next = Array((lifted["computedStates"] as? [[String: Any]] ?? []).prefix(minInvalidatedStateIndex))
    for position in minInvalidatedStateIndex..<stagedActionIds.count {
      let actionId = stagedActionIds[position]
      let action = (actionsById[String(actionId)] as? [String: Any])?["action"] as? [String: Any] ?? [:]
      let previousEntry = position > 0 ? next[position - 1] : nil
      let previousState = previousEntry.map { $0["state"] } ?? lifted["committedState"]
      if skippedActionIds.contains(actionId) {
        next.append(previousEntry ?? [:])
      } else {
        next.append(["state": reducer(previousState, action) as Any])
      }
    }
    return next
  }

  /// What a monitor shows of a lifted state: for each staged action, its type and the state at
  /// its position in `computedStates`
  /// (packages/redux-devtools-inspector-monitor/src/DevtoolsInspector.tsx,
  /// `createIntermediateState`: `actions[currentActionId]` and
  /// `computedStates[stagedActionIds.indexOf(currentActionId)]`).
  static func shown(_ lifted: LiftedState) -> [(type: String, state: Any?)] {
    let stagedActionIds = lifted["stagedActionIds"] as? [Int] ?? []
    let actionsById = lifted["actionsById"] as? [String: Any] ?? [:]
    let computedStates = lifted["computedStates"] as? [[String: Any]] ?? []
    return stagedActionIds.enumerated().map { position, actionId in
      let action = (actionsById[String(actionId)] as? [String: Any])?["action"] as? [String: Any]
      let state = position < computedStates.count ? computedStates[position]["state"] : nil
      return (action?["type"] as? String ?? "?", state)
    }
  }

  private static func object(_ file: Data) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: file) as? [String: Any] else {
      throw NotAnObject()
    }
    return object
  }
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
    let lifted = try DevToolsImport.intoInstanceImporting(snapshot.reduxDevTools(.liftedState))
    let shown = DevToolsImport.shown(lifted)
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
    let lifted = try DevToolsImport.intoPageStore(snapshot.reduxDevTools(.liftedState), reducer: pageReducer)
    let shown = DevToolsImport.shown(lifted)
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
    let lifted = try DevToolsImport.intoPageStore(snapshot.reduxDevTools(.custom), reducer: pageReducer)
    let shown = DevToolsImport.shown(lifted)
    #expect(shown.map(\.type) == ["@@INIT", "increment", "draw", "increment"])
    #expect(
      try states(shown) == [
        Tickets.State(count: 0, ticket: 0), Tickets.State(count: 1, ticket: 0),
        Tickets.State(count: 1, ticket: 7), Tickets.State(count: 2, ticket: 7),
      ])
  }

  @Test func anInstanceDeclaringImportShowsNothingOfACustomFile() throws {
    let lifted = try DevToolsImport.intoInstanceImporting(ticketSession().reduxDevTools(.custom))
    #expect(DevToolsImport.shown(lifted).isEmpty)
  }
}
