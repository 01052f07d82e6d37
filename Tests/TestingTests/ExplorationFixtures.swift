import ChronicleClocks
import ChronicleMiddleware
import ChronicleStore
import ChronicleTesting

/// The worked example of the exploration article: a todo list that keeps its selection twice, as
/// the row's index (for the list) and the todo's id (for the detail screen). Its bug needs five
/// specific actions: two todos, the first completed, the second selected, completed todos cleared —
/// the index is not shifted, so the two no longer agree.
struct ExampleTodos: Reducer {
  struct Todo: Equatable, Codable, Sendable {
    var id: Int
    var title: String
    var done = false
  }

  struct State: Equatable, Codable, Sendable {
    var todos: [Todo] = []
    var nextID = 0
    var selected: Int?
    var selectedID: Int?

    /// The invariant: the selected row is the selected todo.
    static func selectionAgrees(_ state: State) -> Bool {
      guard let selected = state.selected else { return state.selectedID == nil }
      return state.todos.indices.contains(selected) && state.todos[selected].id == state.selectedID
    }
  }

  enum Action: Equatable, Sendable, Codable {
    case add(String)
    case toggle(Int)
    case select(Int)
    case delete(Int)
    case clearCompleted
  }

  /// Whether the reducer has the fix (by default), read when a reducer is made: a test sets it
  /// to run the generated test against the buggy reducer.
  @TaskLocal static var isFixed = true

  var isFixed = ExampleTodos.isFixed

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let title):
      state.todos.append(Todo(id: state.nextID, title: title))
      state.nextID += 1
    case .toggle(let index):
      guard state.todos.indices.contains(index) else { return .none }
      state.todos[index].done.toggle()
    case .select(let index):
      guard state.todos.indices.contains(index) else { return .none }
      state.selected = index
      state.selectedID = state.todos[index].id
    case .delete(let index):
      guard state.todos.indices.contains(index) else { return .none }
      state.todos.remove(at: index)
      if let selected = state.selected, selected >= index {
        state.selected = selected == index ? nil : selected - 1
        if selected == index { state.selectedID = nil }
      }
    case .clearCompleted:
      let doneBefore = state.selected.map { state.todos[..<$0].filter(\.done).count } ?? 0
      if let selected = state.selected, state.todos[selected].done {
        state.selected = nil
        state.selectedID = nil
      } else if isFixed, let selected = state.selected {
        state.selected = selected - doneBefore
      }
      state.todos.removeAll(where: \.done)
    }
    return .none
  }

  static let titles = ["milk", "eggs", "bread"]

  /// Random actions that refer to the todos there are.
  static let actions = ActionGenerator<State, Action>(simplify: simplify) { random, state in
    let count = state.todos.count
    guard count > 0 else { return .add(titles[random.next(below: titles.count)]) }
    switch random.next(below: 9) {
    case 0, 1, 2: return .add(titles[random.next(below: titles.count)])
    case 3, 4: return .toggle(random.next(below: count))
    case 5, 6: return .select(random.next(below: count))
    case 7: return .delete(random.next(below: count))
    default: return .clearCompleted
    }
  }

  /// Simpler forms: the shortest title, a todo nearer the top.
  static func simplify(_ action: Action) -> [Action] {
    switch action {
    case .add(let title): title == "a" ? [] : [.add("a")]
    case .toggle(let index): (0..<index).map(Action.toggle)
    case .select(let index): (0..<index).map(Action.select)
    case .delete(let index): (0..<index).map(Action.delete)
    case .clearCompleted: []
    }
  }

  static let selectionAgrees = Invariant<State, Action>(
    "the selected row is the selected todo", expression: "ExampleTodos.State.selectionAgrees",
    holds: State.selectionAgrees)
}

/// A payment that must not start for an order already paid; the bug: a second `pay` after the
/// first payment finished starts another. Found only when the payment effect finishes between two
/// user actions.
struct Checkout: Reducer {
  struct State: Equatable, Codable, Sendable {
    var paying = false
    var paid = false
  }

  enum Action: Equatable, Sendable, Codable {
    case pay
    case paid
    case cancel
  }

  let clock: TestClock
  var isFixed = false

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .pay:
      guard !state.paying, !(isFixed && state.paid) else { return .none }
      state.paying = true
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.paid)
      }
      .cancellable(id: "payment")
    case .paid:
      state.paying = false
      state.paid = true
      return .none
    case .cancel:
      state.paying = false
      return .cancel(id: "payment")
    }
  }

  /// An order is never paid twice: no payment starts once it is paid.
  static func paysOnce(_ state: State) -> Bool { !(state.paid && state.paying) }

  static let paysOnceInvariant = Invariant<State, Action>(
    "never pays a paid order", expression: "Checkout.paysOnce", holds: paysOnce)
}

/// A search box that searches 300 ms after the last keystroke; the bug: clearing the box does
/// not cancel the pending search, which then runs for an empty query. Found only when the clock
/// moves 300 ms after a keystroke and a clear.
struct DebouncedSearch: Reducer {
  struct State: Equatable, Codable, Sendable {
    var query = ""
    var searches: [String] = []
  }

  enum Action: Equatable, Sendable, Codable {
    case type(String)
    case clear
    case search
  }

  /// Whether the reducer has the fix (by default), read when a reducer is made.
  @TaskLocal static var isFixed = true

  let clock: TestClock
  var isFixed = DebouncedSearch.isFixed

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .type(let text):
      state.query += text
      return .run { [clock] send in
        try await clock.sleep(for: .milliseconds(300))
        await send(.search)
      }
      .cancellable(id: "search", cancelInFlight: true)
    case .clear:
      state.query = ""
      return isFixed ? .cancel(id: "search") : .none
    case .search:
      state.searches.append(state.query)
      return .none
    }
  }

  static let actions = ActionGenerator<State, Action>.weighted(
    [(3, .type("a")), (3, .type("b")), (1, .clear)],
    simplify: { $0 == .type("b") ? [.type("a")] : [] })

  /// A search never runs for an empty query.
  static func searchesSomething(_ old: State, _ action: Action, _ new: State) -> Bool {
    action != .search || new.searches.last?.isEmpty == false
  }

  static let searchesAreNotEmpty = Invariant<State, Action>(
    "never searches for nothing", expression: "DebouncedSearch.searchesSomething", holds: searchesSomething)
}

/// A counter kept in an `Int8` that wraps instead of trapping: after 128 increments it is
/// negative.
struct SmallCounter: Reducer {
  struct State: Equatable, Codable, Sendable {
    var count: Int8 = 0
  }

  enum Action: Equatable, Sendable {
    case increment
    case decrement
    case reset
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count &+= 1
    case .decrement: state.count = max(0, state.count - 1)
    case .reset: state.count = 0
    }
    return .none
  }

  static let actions = ActionGenerator<State, Action>.weighted([
    (20, .increment), (1, .decrement), (0, .reset),
  ])

  static let neverNegative = Invariant<State, Action>("the count is never negative") { $0.count >= 0 }
}

/// A stopwatch ticked by the timers middleware; the bug: `reset` stops the watch in the state,
/// but the middleware cancels the timer only for `stop`, so a tick still arrives afterwards.
struct TimedStopwatch: Reducer {
  struct State: Equatable, Codable, Sendable {
    var isRunning = false
    var seconds = 0
  }

  enum Action: Equatable, Sendable, Codable {
    case start
    case stop
    case reset
    case tick
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start: state.isRunning = true
    case .stop: state.isRunning = false
    case .reset: state = State()
    case .tick: state.seconds += 1
    }
    return .none
  }

  /// The app's timers: a tick every second from `start` until `stop`.
  static func timers(_ clock: TestClock) -> [AnyMiddleware<State, Action>] {
    [
      .timers(clock: clock) { action in
        switch action {
        case .start: .repeating(id: "stopwatch", every: .seconds(1), send: .tick)
        case .stop: .cancel(id: "stopwatch")
        case .reset, .tick: nil
        }
      }
    ]
  }

  /// The watch only ticks while it runs.
  static let ticksOnlyWhileRunning = Invariant<State, Action>("ticks only while running") { old, action, _ in
    action != .tick || old.isRunning
  }
}
