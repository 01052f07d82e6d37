import ChronicleStore
import ChronicleTestSupport
import ChronicleTracer
import Foundation
import Synchronization

/// The counter feature the tracer and formats tests record.
public struct Counter: Reducer {
  public struct State: Equatable, Sendable, Codable {
    public var count = 0
    public var log: [String] = []

    public init(count: Int = 0, log: [String] = []) {
      self.count = count
      self.log = log
    }
  }

  public enum Action: Equatable, Sendable, Codable {
    case increment
    case decrement
    case add(Int)
    case note(String)
    case chain(remaining: Int)
    case load
    case loaded(Int)
    case fail
  }

  public struct Failure: Error {
    public init() {}
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .decrement:
      state.count -= 1
      return .none
    case .add(let amount):
      state.count += amount
      return .none
    case .note(let text):
      state.log.append(text)
      return .none
    case .chain(let remaining):
      state.count += 1
      return remaining > 0 ? .send(.chain(remaining: remaining - 1)) : .none
    case .load:
      return .run { send in await send(.loaded(42)) }.cancellable(id: "load")
    case .loaded(let value):
      state.count = value
      return .none
    case .fail:
      return .run { _ in throw Failure() }
    }
  }
}

public typealias CounterJournal = Journal<Counter.State, Counter.Action>
public typealias CounterStore = Store<Counter.State, Counter.Action>

/// A store recording into a new journal, with the probe last.
public func makeTracedStore(
  _ configuration: CounterJournal.Configuration = .init(),
  middleware: [AnyMiddleware<Counter.State, Counter.Action>] = [],
  probe: Bool = true
) -> (CounterStore, CounterJournal) {
  let journal = CounterJournal(reducer: Counter(), configuration: configuration)
  var chain: [AnyMiddleware<Counter.State, Counter.Action>] = [.tracer(journal)]
  chain += middleware
  if probe { chain.append(.tracerProbe(journal)) }
  let store = CounterStore(initialState: Counter.State(), reducer: Counter(), middleware: chain)
  return (store, journal)
}

/// A middleware that records the state after each action that reached the reducer, keyed by
/// sequence number: the live states a journal must reproduce.
public func liveStates(
  into recorder: Recorder<(UInt64, Counter.State)>
) -> AnyMiddleware<Counter.State, Counter.Action> {
  AnyMiddleware(name: "liveStates") { action, context, next in
    next(action)
    recorder.append((context.metadata.sequence, context.state))
  }
}
