import ChronicleStore
import ChronicleTestSupport
import ChronicleTimeTravel
import ChronicleTracer
import Synchronization

/// The feature the time-travel tests drive: a counter with a log of what was added.
struct Tally: Reducer {
  struct State: Equatable, Sendable, Codable {
    var count = 0
    var log: [Int] = []
  }

  enum Action: Equatable, Sendable, Codable {
    case add(Int)
    case reset
    /// Starts an effect that counts its runs in `EffectRuns`.
    case load
  }

  let effectRuns: EffectRuns

  init(effectRuns: EffectRuns = EffectRuns()) {
    self.effectRuns = effectRuns
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let amount):
      state.count += amount
      state.log.append(amount)
      return .none
    case .reset:
      state = State()
      return .none
    case .load:
      let runs = effectRuns
      return .run { _ in runs.count.add(1, ordering: .relaxed) }
    }
  }
}

/// Counts how many times `Tally`'s effect ran.
final class EffectRuns: Sendable {
  let count = Atomic<Int>(0)
  var value: Int { count.load(ordering: .relaxed) }
}

typealias TallyJournal = Journal<Tally.State, Tally.Action>
typealias TallyStore = Store<Tally.State, Tally.Action>

/// A store with time travel and a tracer, recording with checkpoints every `interval` entries.
func makeTravellingStore(
  policy: LiveActionPolicy = .locked, interval: Int = 4, maxEntries: Int? = nil,
  reducer: Tally = Tally()
) -> (TallyStore, TallyJournal, TimeTravel<Tally.State, Tally.Action>) {
  let journal = TallyJournal(
    reducer: reducer, configuration: .init(checkpointInterval: interval, maxEntries: maxEntries))
  let travel = TimeTravel(journal: journal, policy: policy)
  let store = TallyStore(
    initialState: Tally.State(), reducer: reducer, middleware: [.timeTravel(travel), .tracer(journal)])
  travel.attach(store)
  return (store, journal, travel)
}

/// The state after adding `amounts` to an empty tally.
func tally(_ amounts: [Int]) -> Tally.State {
  Tally.State(count: amounts.reduce(0, +), log: amounts)
}
