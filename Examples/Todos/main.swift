// Todos: a list loaded by a thunk and persisted between runs. Run it twice with
// `swift run todos` — the second run starts from the state the first one saved.
// Pass a folder as the first argument to choose where the state file lives.
import Chronicle
import Foundation

struct Todo: Equatable, Sendable, Codable {
  var id: Int
  var title: String
  var done = false
}

struct Todos: Reducer {
  struct State: Equatable, Sendable, Codable {
    var todos: [Todo] = []
    var runs = 0
  }

  enum Action: Equatable, Sendable {
    case launched, load, loaded([Todo]), toggle(id: Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .launched: state.runs += 1
    case .load: break
    case .loaded(let todos): if state.todos.isEmpty { state.todos = todos }
    case .toggle(let id):
      if let index = state.todos.firstIndex(where: { $0.id == id }) { state.todos[index].done.toggle() }
    }
    return .none
  }
}

/// What the app would fetch from a server.
struct TodoAPI: Sendable {
  var fetchAll: @Sendable () async throws -> [Todo]
}

let api = TodoAPI { [Todo(id: 1, title: "Milk"), Todo(id: 2, title: "Bread")] }
let loadTodos = Thunk<Todos.State, Todos.Action, TodoAPI>("loadTodos") { send, _, api in
  await send(.loaded(try await api.fetchAll()))
}

let directory = URL(
  fileURLWithPath: CommandLine.arguments.dropFirst().first
    ?? FileManager.default.temporaryDirectory
    .appendingPathComponent("chronicle-todos").path)
let persistence = StatePersistence<Todos.State>(
  key: "todos", directory: directory, coalescing: .milliseconds(50))
let restored = persistence.restore(default: Todos.State())
if let error = restored.error { print("starting fresh:", error) }

let store = Store(
  initialState: restored.state, reducer: Todos(),
  middleware: [
    .thunks(dependencies: api) { action in action == .load ? loadTodos : nil },
    .logger(collapsed: true, diff: true, timestamp: false),
  ])
let saving = persistence.attach(to: store)

store.send(.launched)
store.send(.load)
await store.waitUntilIdle()  // the thunk has loaded the list
store.send(.toggle(id: 1))
await store.waitUntilIdle()  // the coalesced write has happened
saving.cancel()
print(
  "run \(store.state.runs): \(store.state.todos.map { "\($0.done ? "☑" : "☐") \($0.title)" }.joined(separator: ", "))"
)
print("state saved in \(persistence.fileURL.path)")
