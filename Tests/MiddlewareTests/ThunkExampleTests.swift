import ChronicleMiddleware
import ChronicleStore
import Testing

// The thunk example of the README: a todo list loaded through an API dependency.

struct TodoAPI: Sendable {
  var fetchAll: @Sendable () async throws -> [String]
}

enum Todos {
  struct State: Equatable, Sendable {
    var titles: [String] = []
    var error: String?
  }

  enum Action: Equatable, Sendable {
    case load
    case loaded([String])
    case failed(String)
  }

  static let reducer = Reduce<State, Action> { state, action in
    switch action {
    case .load: state.error = nil
    case .loaded(let titles): state.titles = titles
    case .failed(let message): state.error = message
    }
    return .none
  }
}

extension Thunk where State == Todos.State, Action == Todos.Action, Dependencies == TodoAPI {
  static var loadTodos: Self {
    Thunk("loadTodos") { send, _, api in
      await send(.loaded(try await api.fetchAll()))
    }
    .cancellable(id: "load", cancelInFlight: true)
  }
}

struct Offline: Error {}

@Suite("Thunk example")
struct ThunkExampleTests {
  func makeStore(api: TodoAPI) -> Store<Todos.State, Todos.Action> {
    let store = Store(
      initialState: Todos.State(), reducer: Todos.reducer,
      middleware: [
        .thunks(dependencies: api, onError: { .failed("\($0.error)") }) { action in
          action == .load ? .loadTodos : nil
        }
      ])
    return store
  }

  @Test func loadTodosSendsWhatTheAPIReturned() async {
    let store = makeStore(api: TodoAPI { ["Milk", "Eggs"] })
    store.send(.load)
    await store.waitUntilIdle()
    #expect(store.state.titles == ["Milk", "Eggs"])
  }

  @Test func loadTodosReportsAnErrorAsAnAction() async {
    let store = makeStore(api: TodoAPI { throw Offline() })
    store.send(.load)
    await store.waitUntilIdle()
    #expect(store.state.error == "Offline()")
  }

  @Test func dispatchingTheThunkDirectly() async {
    let store = Store(initialState: Todos.State(), reducer: Todos.reducer)
    store.dispatch(.loadTodos, dependencies: TodoAPI { ["Milk"] })
    await store.waitUntilIdle()
    #expect(store.state.titles == ["Milk"])
  }
}
