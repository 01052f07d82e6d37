// A stopwatch: `.start` starts a timer that ticks every 100 ms, `.stop` cancels it, `.reset`
// cancels it and zeroes the time. The timer middleware runs the timer on a real clock and the
// logger prints every action with what it changed. Run it with `swift run stopwatch`.
import Chronicle

struct Stopwatch: Reducer {
  struct State: Equatable, Sendable {
    var isRunning = false
    var milliseconds = 0
  }

  enum Action: Equatable, Sendable { case start, stop, reset, tick }

  static let tick = 100  // milliseconds

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start: state.isRunning = true
    case .stop: state.isRunning = false
    case .reset: state = State()
    case .tick: state.milliseconds += Self.tick
    }
    return .none
  }
}

let stopwatch = Store(
  initialState: Stopwatch.State(), reducer: Stopwatch(),
  middleware: [
    .timers(clock: ContinuousClock()) { action in
      switch action {
      case .start: .repeating(id: "stopwatch", every: .milliseconds(Stopwatch.tick), send: .tick)
      case .stop, .reset: .cancel(id: "stopwatch")
      case .tick: nil
      }
    },
    .logger(collapsed: true),
  ])

let clock = ContinuousClock()
stopwatch.send(.start)
try await clock.sleep(for: .milliseconds(450))
stopwatch.send(.stop)
print("stopped at \(stopwatch.state.milliseconds) ms")
stopwatch.send(.start)
try await clock.sleep(for: .milliseconds(350))
stopwatch.send(.reset)
await stopwatch.waitUntilIdle()  // the timer is cancelled: nothing is left running
print("after reset: \(stopwatch.state.milliseconds) ms")
