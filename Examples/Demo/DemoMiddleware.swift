import Chronicle

/// The demo's todo API: answers after a short delay, as a server would.
struct TodoAPI: Sendable {
  var fetchAll: @Sendable () async throws -> [DemoApp.Todo]

  static let demo = TodoAPI {
    try await Task.sleep(for: .milliseconds(20))
    return [
      DemoApp.Todo(id: 1, title: "Buy milk"), DemoApp.Todo(id: 2, title: "Mow the lawn"),
      DemoApp.Todo(id: 3, title: "Call mum"),
    ]
  }
}

extension Thunk where State == DemoApp.State, Action == DemoApp.Action, Dependencies == TodoAPI {
  /// Loads the todos through the API.
  static var loadTodos: Self {
    Thunk("loadTodos") { send, _, api in
      await send(.todosLoaded(try await api.fetchAll()))
    }
    .cancellable(id: "load", cancelInFlight: true)
  }
}

/// The demo's middlewares after time travel's: the tracer first, so that it sees every action as
/// sent, and its probe last.
func demoMiddleware(
  journal: Journal<DemoApp.State, DemoApp.Action>
) -> [AnyMiddleware<DemoApp.State, DemoApp.Action>] {
  [
    .tracer(journal),
    .debounce(for: .milliseconds(30), clock: ContinuousClock()) { action in
      if case .search = action { "search" } else { nil }
    },
    .thunks(dependencies: TodoAPI.demo) { action in action == .loadTodos ? .loadTodos : nil },
    .timers(clock: ContinuousClock()) { action in
      switch action {
      case .startStopwatch: .repeating(id: "stopwatch", every: .milliseconds(DemoApp.tick), send: .tick)
      case .stopStopwatch: .cancel(id: "stopwatch")
      default: nil
      }
    },
    .logger(collapsed: true, timestamp: false),
    // Last: tells the tracer which actions reached the reducer (the debouncer holds some back).
    .tracerProbe(journal),
  ]
}
