import ChronicleStore
import ChronicleTestSupport
import ChronicleTracer
import Foundation
import Synchronization

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
