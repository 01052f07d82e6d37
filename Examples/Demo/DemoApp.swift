import Chronicle

/// The demo's app: a todo list loaded from an API, a stopwatch, a search field and a login form.
struct DemoApp: Reducer {
  struct Todo: Equatable, Sendable, Codable {
    var id: Int
    var title: String
    var done = false
  }

  struct State: Equatable, Sendable, Codable {
    var todos: [Todo] = []
    var isLoading = false
    var stopwatch = 0  // milliseconds
    var isRunning = false
    var query = ""
    var matches: [String] = []
    var user = ""
    @Redacted var password = ""
    var isLoggedIn = false
  }

  enum Action: Equatable, Sendable, Codable {
    case loadTodos
    case todosLoaded([Todo])
    case toggle(id: Int)
    case add(String)
    case startStopwatch
    case tick
    case stopStopwatch
    case search(String)
    case user(String)
    case password(Redacted<String>)
    case submitLogin
  }

  /// The stopwatch's tick, in milliseconds: short, so the demo finishes at once.
  static let tick = 10
  /// The stopwatch stops itself after this many milliseconds.
  static let stopwatchLimit = 50
  /// The line that introduces the stopwatch. Built here rather than interpolated in main.swift's
  /// top-level code: there, after an `await`, LeakSanitizer reports the interpolation's buffer as
  /// leaked, and the demo exits 1 under AddressSanitizer.
  static var stopwatchHeading: String {
    "── stopwatch: a timer ticking every \(tick) ms until \(stopwatchLimit) ms"
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .loadTodos:
      state.isLoading = true
    case .todosLoaded(let todos):
      state.isLoading = false
      state.todos = todos
    case .toggle(let id):
      if let index = state.todos.firstIndex(where: { $0.id == id }) { state.todos[index].done.toggle() }
    case .add(let title):
      state.todos.append(Todo(id: (state.todos.map(\.id).max() ?? 0) + 1, title: title))
    case .startStopwatch:
      state.isRunning = true
    case .tick:
      guard state.isRunning else { return .none }
      state.stopwatch += Self.tick
      if state.stopwatch >= Self.stopwatchLimit { return .send(.stopStopwatch) }
    case .stopStopwatch:
      state.isRunning = false
    case .search(let query):
      state.query = query
      state.matches = state.todos.map(\.title).filter { $0.localizedCaseInsensitiveContains(query) }
    case .user(let name):
      state.user = name
    case .password(let secret):
      state.password = secret.wrappedValue
    case .submitLogin:
      state.isLoggedIn = !state.user.isEmpty && !state.password.isEmpty
    }
    return .none
  }
}
