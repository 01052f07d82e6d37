import ChronicleStore
import ChronicleTestSupport
import Testing

/// A parent feature holding a counter, an optional detail counter and a list of rows.
enum App {
  struct Row: Identifiable, Equatable, Sendable {
    var id: Int
    var value = 0
  }

  struct State: Equatable, Sendable {
    var counter = Counter.State()
    var detail: Counter.State?
    var rows: [Row] = []
    var log: [String] = []
  }

  enum Action: Equatable, Sendable {
    case counter(Counter.Action)
    case detail(Counter.Action)
    case row(id: Int, action: RowAction)
    case openDetail, closeDetail
    case addRow(Int), removeRow(Int)
  }

  enum RowAction: Equatable, Sendable {
    case bump
    case startListening
    case heard(String)
  }

  static let counterPath = ActionPath<Action, Counter.Action>(embed: Action.counter) {
    if case .counter(let action) = $0 { action } else { nil }
  }
  static let detailPath = ActionPath<Action, Counter.Action>(embed: Action.detail) {
    if case .detail(let action) = $0 { action } else { nil }
  }
  static let rowPath = ElementActionPath<Action, Int, RowAction>(embed: Action.row) {
    if case .row(let id, let action) = $0 { (id, action) } else { nil }
  }
}

/// A row whose `startListening` effect relays values from a channel named after the row.
func rowReducer(_ channels: Channels) -> Reduce<App.Row, App.RowAction> {
  Reduce { row, action in
    switch action {
    case .bump:
      row.value += 1
      return .none
    case .startListening:
      let name = "row\(row.id)"
      return .run { send in
        for await value in channels.stream(name) { await send(.heard(value)) }
      }
    case .heard(let value):
      row.value = Int(value) ?? -1
      return .none
    }
  }
}

func appReducer(_ channels: Channels) -> Reduce<App.State, App.Action> {
  let core = CombineReducers<App.State, App.Action> {
    Scope(state: \App.State.counter, action: App.counterPath) { Counter() }
    Reduce<App.State, App.Action> { state, action in
      switch action {
      case .openDetail: state.detail = Counter.State()
      case .closeDetail: state.detail = nil
      case .addRow(let id): state.rows.append(App.Row(id: id))
      case .removeRow(let id): state.rows.removeAll { $0.id == id }
      case .counter(.increment): state.log.append("parent saw counter increment")
      default: break
      }
      return .none
    }
  }
  return
    core
    .ifLet(\App.State.detail, action: App.detailPath) { DetailCounter(channels: channels) }
    .forEach(\App.State.rows, action: App.rowPath) { rowReducer(channels) }
}

/// A counter whose `load` listens to channel "detail" until cancelled.
struct DetailCounter: Reducer {
  let channels: Channels
  func reduce(into state: inout Counter.State, action: Counter.Action) -> Effect<Counter.Action> {
    if case .note("listen") = action {
      return .run { send in
        for await value in channels.stream("detail") { await send(.note(value)) }
      }
    }
    return Counter().reduce(into: &state, action: action)
  }
}

@Suite("Composition")
struct CompositionTests {
  @Test func scopeRunsTheChildOnItsStateAndTheParentSeesTheAction() {
    let store = Store(initialState: App.State(), reducer: appReducer(Channels([])))
    store.send(.counter(.increment))
    store.send(.counter(.add(4)))
    #expect(store.state.counter.count == 5)
    #expect(store.state.log == ["parent saw counter increment"])
  }

  @Test func childActionsPassTheParentsMiddlewareWithTheirPath() {
    let seen = Recorder<App.Action>()
    let watcher = AnyMiddleware<App.State, App.Action> { action, _, next in
      seen.append(action)
      next(action)
    }
    let store = Store(initialState: App.State(), reducer: appReducer(Channels([])), middleware: [watcher])
    let counter = store.scope(state: \.counter, action: App.Action.counter)
    counter.send(.increment)
    #expect(seen.values == [.counter(.increment)])
    #expect(counter.state.count == 1)
  }

  @Test func optionalChildRunsOnlyWhilePresent() {
    let store = Store(initialState: App.State(), reducer: appReducer(Channels([])))
    store.send(.detail(.increment))
    #expect(store.state.detail == nil)
    store.send(.openDetail)
    store.send(.detail(.increment))
    #expect(store.state.detail?.count == 1)
  }

  @Test func optionalChildsEffectsAreCancelledWhenItsStateGoesAway() async {
    let channels = Channels(["detail"])
    let store = Store(initialState: App.State(), reducer: appReducer(channels))
    store.send(.openDetail)
    store.send(.detail(.note("listen")))
    channels.feed("detail", "first")
    await waitUntil(store) { $0.detail?.log == ["first"] }
    store.send(.closeDetail)
    channels.feed("detail", "late")
    store.send(.openDetail)
    await store.waitUntilIdle()
    #expect(store.state.detail?.log == [])
  }

  @Test func identifiedChildrenGetTheirOwnActionsAndRemovedOnesAreCancelled() async {
    let channels = Channels(["row1", "row2"])
    let store = Store(initialState: App.State(), reducer: appReducer(channels))
    store.send(.addRow(1))
    store.send(.addRow(2))
    store.send(.row(id: 2, action: .bump))
    store.send(.row(id: 9, action: .bump))
    #expect(store.state.rows == [App.Row(id: 1, value: 0), App.Row(id: 2, value: 1)])
    store.send(.row(id: 1, action: .startListening))
    store.send(.row(id: 2, action: .startListening))
    store.send(.removeRow(1))
    channels.feed("row1", "7")
    channels.feed("row2", "8")
    channels.close("row2")
    await store.waitUntil { $0.rows.first?.value == 8 }
    store.send(.addRow(1))
    channels.close("row1")
    await store.waitUntilIdle()
    #expect(store.state.rows == [App.Row(id: 2, value: 8), App.Row(id: 1, value: 0)])
  }

  @Test func scopedStoreObservesItsPart() {
    let store = Store(initialState: App.State(), reducer: appReducer(Channels([])))
    let counter = store.scope(state: \.counter, action: App.Action.counter)
    let seen = Recorder<Int>()
    let subscription = counter.observe(\.count) { seen.append($0) }
    counter.send(.increment)
    store.send(.addRow(1))
    counter.send(.increment)
    #expect(seen.values == [0, 1, 2])
    subscription.cancel()
  }
}

extension Store {
  /// Waits until `predicate` holds for the state, using a subscription (no polling, no sleeps).
  func waitUntil(_ predicate: @escaping @Sendable (State) -> Bool) async {
    let signal = Signal()
    let subscription = observe { state in if predicate(state) { signal.fire() } }
    await signal.wait()
    subscription.cancel()
  }
}

func waitUntil<State: Sendable, Action: Sendable>(
  _ store: Store<State, Action>, _ predicate: @escaping @Sendable (State) -> Bool
) async {
  await store.waitUntil(predicate)
}
