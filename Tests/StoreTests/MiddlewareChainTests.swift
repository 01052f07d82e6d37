import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing

@Suite("Middleware chain")
struct MiddlewareChainTests {
  @Test func middlewaresComposeInTheOrderGiven() {
    let recorder = Recorder<String>()
    let store = Store(
      initialState: Counter.State(), reducer: Counter(),
      middleware: [
        recordingMiddleware("outer", into: recorder),
        recordingMiddleware("inner", into: recorder),
        AnyMiddleware { action, context, next in
          recorder.append("reducer sees count \(context.state.count)")
          next(action)
          recorder.append("after reducer count \(context.state.count)")
        },
      ])
    store.send(.increment)
    #expect(
      recorder.values == [
        "outer before increment", "inner before increment", "reducer sees count 0",
        "after reducer count 1", "inner after increment", "outer after increment",
      ])
  }

  @Test func middlewareCanTransformAnAction() {
    let double = AnyMiddleware<Counter.State, Counter.Action> { action, _, next in
      if case .add(let amount) = action { next(.add(amount * 2)) } else { next(action) }
    }
    let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [double])
    store.send(.add(21))
    #expect(store.state.count == 42)
  }

  @Test func middlewareThatNeverCallsNextStopsTheActionAndNothingElse() {
    let seen = Recorder<Int>()
    let block = AnyMiddleware<Counter.State, Counter.Action> { action, _, next in
      if action == .decrement { return }
      next(action)
    }
    let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [block])
    let subscription = store.observe(\.count, immediately: false, removeDuplicates: false) { seen.append($0) }
    store.send(.decrement)
    store.send(.increment)
    #expect(store.state.count == 1)
    #expect(seen.values == [1])
    subscription.cancel()
  }

  @Test func callingNextTwiceRunsTheReducerOnce() {
    let twice = AnyMiddleware<Counter.State, Counter.Action> { action, _, next in
      next(action)
      next(action)
    }
    let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [twice])
    store.send(.increment)
    #expect(store.state.count == 1)
  }

  /// Past the 64 middlewares whose calls the store tracks in one word, a second `next` is still
  /// ignored: for each action, and afresh for the next one.
  @Test func callingNextTwiceDeepInALongChainRunsTheReducerOnce() {
    let pass = AnyMiddleware<Counter.State, Counter.Action> { action, _, next in next(action) }
    let twice = AnyMiddleware<Counter.State, Counter.Action> { action, _, next in
      next(action)
      next(action)
    }
    let chain = Array(repeating: pass, count: 70) + [twice] + Array(repeating: pass, count: 5)
    let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: chain)
    store.send(.increment)
    #expect(store.state.count == 1)
    store.send(.increment)
    #expect(store.state.count == 2)
  }

  @Test func metadataCarriesSequenceContextAndCause() {
    let metadata = Recorder<ActionMetadata>()
    let fields = Recorder<String>()
    let watcher = AnyMiddleware<Counter.State, Counter.Action> { action, context, next in
      metadata.append(context.metadata)
      // The same facts one by one, without the clock read `metadata` may make.
      fields.append("\(context.sequence) \(context.contextLabel ?? "-") \(context.cause)")
      if action == .increment { context.send(.note("echo"), as: .thunk, label: "echoer") }
      next(action)
    }
    let before = Date()
    let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [watcher])
    store.send(.increment, context: "CounterScreen")
    store.send(.decrement)
    let after = Date()
    let values = metadata.values
    #expect(values.map(\.sequence) == [1, 2, 3])
    #expect(values.map(\.context) == ["CounterScreen", "CounterScreen", nil])
    #expect(values.map(\.cause) == [.user, Cause(kind: .thunk, parent: 1, label: "echoer"), .user])
    #expect(values.allSatisfy { $0.timestamp >= before && $0.timestamp <= after })
    #expect(fields.values == values.map { "\($0.sequence) \($0.context ?? "-") \($0.cause)" })
    #expect(fields.values == ["1 CounterScreen user", "2 CounterScreen thunk \"echoer\" ← #1", "3 - user"])
  }

  @Test func timestampIsTakenOncePerAction() {
    let stamps = Recorder<Date>()
    let first = AnyMiddleware<Counter.State, Counter.Action> { action, context, next in
      stamps.append(context.metadata.timestamp)
      next(action)
    }
    let second = AnyMiddleware<Counter.State, Counter.Action> { action, context, next in
      next(action)
      stamps.append(context.metadata.timestamp)
    }
    let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [first, second])
    store.send(.increment)
    #expect(stamps.count == 2)
    #expect(stamps.values[0] == stamps.values[1])
  }

  @Test func middlewareStartedEffectIsTrackedWithItsCause() async {
    let causes = Recorder<Cause>()
    let thunks = AnyMiddleware<Counter.State, Counter.Action> { action, context, next in
      if action == .increment {
        context.run(.run { send in await send(.note("from thunk")) }, as: .thunk, label: "noter")
      }
      if case .note = action { causes.append(context.metadata.cause) }
      next(action)
    }
    let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [thunks])
    store.send(.increment)
    await store.waitUntilIdle()
    #expect(store.state.log == ["from thunk"])
    #expect(causes.values == [Cause(kind: .thunk, parent: 1, effect: 1, label: "noter")])
  }

  @Test func actionSentByAMiddlewareWithoutALabelIsLabelledWithTheMiddlewaresName() {
    let causes = Recorder<Cause>()
    let echo = AnyMiddleware<Counter.State, Counter.Action>(name: "echo") { action, context, next in
      if action == .increment { context.send(.note("echo")) }
      next(action)
    }
    let watcher = AnyMiddleware<Counter.State, Counter.Action>(name: "watcher") { action, context, next in
      causes.append(context.cause)
      next(action)
    }
    let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [watcher, echo])
    store.send(.increment)
    #expect(causes.values == [.user, Cause(kind: .middleware, parent: 1, label: "echo")])
  }

  @Test func effectRunByAMiddlewareWithoutALabelOrIDIsLabelledWithTheMiddlewaresName() async {
    let causes = Recorder<Cause>()
    let noter = AnyMiddleware<Counter.State, Counter.Action>(name: "noter") { action, context, next in
      if action == .increment { context.run(.send(.note("a"))) }
      if action == .decrement { context.run(Effect.send(.note("b")).cancellable(id: "noting")) }
      if case .note = action { causes.append(context.cause) }
      next(action)
    }
    let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [noter])
    store.send(.increment)
    store.send(.decrement)
    await store.waitUntilIdle()
    #expect(
      causes.values == [
        Cause(kind: .middleware, parent: 1, label: "noter"),
        Cause(kind: .middleware, parent: 3, label: "noting"),
      ])
  }

  @Test func middlewaresSeeTheirOwnNameInTheirContext() {
    let names = Recorder<String>()
    func naming(_ name: String) -> AnyMiddleware<Counter.State, Counter.Action> {
      AnyMiddleware(name: name) { action, context, next in
        names.append(context.middlewareName)
        next(action)
      }
    }
    let store = Store(
      initialState: Counter.State(), reducer: Counter(), middleware: [naming("a"), naming("b")])
    store.send(.increment)
    #expect(names.values == ["a", "b"])
  }

  @Test func customMiddlewareTypeIsWrappedByAnyMiddleware() {
    struct Clamp: Middleware {
      func handle(
        _ action: Counter.Action, context: MiddlewareContext<Counter.State, Counter.Action>,
        next: MiddlewareNext<Counter.State, Counter.Action>
      ) {
        if action == .decrement && context.state.count == 0 { return }
        next(action)
      }
    }
    let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [AnyMiddleware(Clamp())])
    store.send(.decrement)
    store.send(.increment)
    store.send(.decrement)
    #expect(store.state.count == 0)
  }
}
