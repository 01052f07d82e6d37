import ChronicleMiddleware
import ChronicleStore
import Foundation
import Synchronization
import Testing

@testable import ChronicleTracer

/// A feature whose work runs through an effect, a thunk and a timer in turn.
private struct Relay: Reducer {
  struct State: Equatable, Sendable, Codable { var steps: [String] = [] }

  enum Action: Equatable, Sendable, Codable {
    case begin, startThunk, thunkDone, tick, hang, stop, boom
  }

  struct Boom: Error {}

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .begin:
      state.steps.append("begin")
      return .run { send in await send(.startThunk) }
    case .startThunk:
      state.steps.append("thunk")
      return .none
    case .thunkDone:
      state.steps.append("thunk done")
      return .none
    case .tick:
      state.steps.append("tick")
      return .none
    case .hang:
      // Waits for input that never comes, until cancelled.
      return .run { _ in for await _ in AsyncStream<Never>.makeStream().stream {} }.cancellable(id: "hang")
    case .stop:
      return .cancel(id: "hang")
    case .boom:
      return .run { _ in throw Boom() }
    }
  }
}

/// Stands in for the thunk middleware: `.startThunk` runs work as a thunk named "loader".
private let thunks = AnyMiddleware<Relay.State, Relay.Action>(name: "thunks") { action, context, next in
  next(action)
  if action == .startThunk {
    context.run(.run { send in await send(.thunkDone) }, as: .thunk, label: "loader")
  }
}

/// Stands in for the timer middleware: `.thunkDone` starts a one-shot timer "tick".
private let timers = AnyMiddleware<Relay.State, Relay.Action>(name: "timers") { action, context, next in
  next(action)
  if action == .thunkDone {
    context.run(.run { send in await send(.tick) }.cancellable(id: "tick"), as: .timer, label: "tick")
  }
}

/// Sends one action under each shape of cause: the user's, an effect's, with and without a
/// label, and kinds the tracer reads by their representation and by their name.
private struct Shapes: Reducer {
  typealias State = Int
  enum Action: Equatable, Sendable, Codable { case start, fromEffect, typed, fromOther, fromOwnKind }

  func reduce(into state: inout Int, action: Action) -> Effect<Action> {
    state += 1
    return action == .start ? .run { send in await send(.fromEffect) } : .none
  }
}

/// After `.start`, sends as the user with a label, as an effect with a label, and runs work of
/// an app's own kind without a label.
private let shapes = AnyMiddleware<Int, Shapes.Action>(name: "shapes") { action, context, next in
  next(action)
  guard action == .start else { return }
  context.send(.typed, as: .user, label: "typed")
  context.send(.fromOther, as: .effect)
  context.run(.run { send in await send(.fromOwnKind) }, as: Cause.Kind("socket"))
}

@Suite struct CausalityTests {
  @Test func everyShapeOfCauseIsJournaledAsTheStoreProcessedIt() async {
    let journal = Journal(reducer: Shapes())
    let seen = Mutex<[Cause]>([])
    let witness = AnyMiddleware<Int, Shapes.Action>(name: "witness") { action, context, next in
      let cause = context.cause
      seen.withLock { $0.append(cause) }
      next(action)
    }
    let store = Store(initialState: 0, reducer: Shapes(), middleware: [.tracer(journal), shapes, witness])
    store.send(.start)
    await store.waitUntilIdle()
    let entries = Array(journal.snapshot().entries)
    let causes = seen.withLock { $0 }
    #expect(entries.count == 5)
    #expect(entries.map(\.cause) == causes)
    #expect(
      Set(causes.map { "\($0.kind)/\($0.label ?? "-")" })
        == ["user/-", "user/typed", "effect/-", "effect/shapes", "socket/shapes"])
  }

  private func makeStore() -> (Store<Relay.State, Relay.Action>, Journal<Relay.State, Relay.Action>) {
    let journal = Journal(reducer: Relay())
    let store = Store(
      initialState: Relay.State(), reducer: Relay(),
      middleware: [.tracer(journal), thunks, timers, .tracerProbe(journal)])
    return (store, journal)
  }

  @Test func causesLinkAnEffectAThunkAndATimerToTheActionsThatStartedThem() async {
    let (store, journal) = makeStore()
    store.send(.begin, context: "Screen")
    await store.waitUntilIdle()
    let snapshot = journal.snapshot()
    let entries = Array(snapshot.entries)
    #expect(entries.map(\.action) == [.begin, .startThunk, .thunkDone, .tick])
    #expect(entries.map(\.context) == ["Screen", "Screen", "Screen", "Screen"])
    #expect(entries[0].cause == .user)
    #expect(entries[1].cause == Cause(kind: .effect, parent: 1, effect: 1))
    #expect(entries[2].cause == Cause(kind: .thunk, parent: 2, effect: 2, label: "loader"))
    #expect(entries[3].cause == Cause(kind: .timer, parent: 3, effect: 3, label: "tick"))
    // Following the parents leads back to the user's action.
    var index = 3
    var chain = [index]
    while let parent = snapshot.entry(at: index)?.cause.parent,
      let previous = snapshot.index(ofSequence: parent)
    {
      index = previous
      chain.append(index)
    }
    #expect(chain == [3, 2, 1, 0])
    #expect(snapshot.state(after: 3)?.steps == ["begin", "thunk", "thunk done", "tick"])
  }

  @Test func lifecycleEventsAreTiedToTheEntriesThatStartedThem() async {
    let (store, journal) = makeStore()
    store.send(.begin)
    await store.waitUntilIdle()
    let events = Array(journal.snapshot().effectEvents)
    let started = events.filter { $0.phase == .started }
    let finished = events.filter { $0.phase == .finished }
    #expect(started.map(\.effect) == [1, 2, 3])
    #expect(started.map(\.cause.parent) == [1, 2, 3])
    #expect(started.map(\.cause.kind) == [.effect, .thunk, .timer])
    #expect(started.map(\.ids) == [[], [], ["tick"]])
    #expect(Set(finished.map(\.effect)) == [1, 2, 3])
    for event in started {
      let end = events.first { $0.effect == event.effect && $0.phase == .finished }!
      #expect(event.time <= end.time)
      // Started while its parent entry (position = parent - 1) was being processed.
      #expect(event.position == Int(event.cause.parent!) - 1)
    }
  }

  @Test func cancelledAndFailedEffectsAreRecorded() async {
    let (store, journal) = makeStore()
    store.send(.hang)
    store.send(.stop)
    store.send(.boom)
    await store.waitUntilIdle()
    let events = Array(journal.snapshot().effectEvents)
    #expect(
      events.contains {
        $0.effect == 1 && $0.phase == .cancelled && $0.cause.parent == 1 && $0.ids == ["hang"]
      })
    #expect(events.contains { $0.effect == 2 && $0.phase == .failed("Boom()") && $0.cause.parent == 3 })
    #expect(!events.contains { $0.effect == 1 && $0.phase == .finished })
  }
}
