import ChronicleMiddleware
import ChronicleStore
import ChronicleTestSupport
import Testing

typealias FeedThunk = Thunk<Feed.State, Feed.Action, Channels>

extension Thunk where State == Feed.State, Action == Feed.Action, Dependencies == Channels {
  /// Relays every value of channel `name` as `.got`, until the channel is closed.
  static func relay(_ name: String) -> Self {
    Thunk("relay \(name)") { send, _, channels in
      for await value in channels.stream(name) { await send(.got(value)) }
    }
  }

  /// Waits for one value on channel `name`, then throws.
  static func failing(_ name: String) -> Self {
    Thunk("failing \(name)") { _, _, channels in
      _ = await channels.next(name)
      throw TestError()
    }
  }

  /// Sends `.got` with the count it reads from the live state, twice, synchronously.
  static var readCountTwice: Self {
    .sync("readCountTwice") { send, state, _ in
      send(.got("count \(state.current?.count ?? -1)"))
      send(.increment)
      send(.got("count \(state.current?.count ?? -1)"))
    }
  }
}

/// A store whose `.start(name)` starts the thunk `route` picks for it.
func thunkStore(
  _ channels: Channels,
  seen: Recorder<String> = Recorder(),
  events: Recorder<String>? = nil,
  onError: (@Sendable (ThunkFailure) -> Feed.Action?)? = nil,
  route: @escaping @Sendable (String) -> FeedThunk?
) -> Store<Feed.State, Feed.Action> {
  Store(
    initialState: Feed.State(), reducer: Feed.reducer,
    middleware: [
      causeRecorder(seen, events: events),
      .thunks(dependencies: channels, onError: onError) { action in
        if case .start(let name) = action { return route(name) }
        return nil
      },
    ])
}

@Suite("Thunks")
struct ThunkTests {
  @Test func asyncThunkSendsItsActionsInOrderWithTheThunkAsTheirCause() async {
    let seen = Recorder<String>()
    let channels = Channels(["a"])
    let store = thunkStore(channels, seen: seen) { .relay($0) }
    store.send(.start("a"))
    channels.feed("a", "1")
    channels.feed("a", "2")
    channels.feed("a", "3")
    channels.close("a")
    await store.waitUntilIdle()
    #expect(store.state.log == ["1", "2", "3"])
    #expect(
      seen.values == [
        "#1 start(\"a\") user",
        "#2 got(\"1\") thunk \"relay a\" ← #1 e1",
        "#3 got(\"2\") thunk \"relay a\" ← #1 e1",
        "#4 got(\"3\") thunk \"relay a\" ← #1 e1",
      ])
  }

  @Test func middlewaresSeeTheThunkStartAndFinishByName() async {
    let events = Recorder<String>()
    let channels = Channels(["a"])
    let store = thunkStore(channels, events: events) { .relay($0) }
    store.send(.start("a"))
    channels.close("a")
    await store.waitUntilIdle()
    #expect(events.values == ["started e1 thunk \"relay a\" ← #1", "finished e1 thunk \"relay a\" ← #1"])
  }

  @Test func thunkReceivesItsDependenciesAndTheStateAfterItsAction() async {
    let channels = Channels(["a"])
    let store = thunkStore(channels) { _ in
      Thunk("peek") { send, state, channels in
        let value = await channels.next("a") ?? "-"
        await send(.got("\(value) log=\(state.current?.log ?? [])"))
        await send(.got("\(value) log=\(state.current?.log ?? [])"))
      }
    }
    store.send(.start("a"))
    channels.feed("a", "x")
    await store.waitUntilIdle()
    #expect(store.state.log == ["x log=[]", "x log=[\"x log=[]\"]"])
  }

  @Test func syncThunkActionsAreProcessedRightAfterTheActionThatStartedIt() {
    let seen = Recorder<String>()
    let store = thunkStore(Channels([]), seen: seen) { _ in .readCountTwice }
    store.send(.start("sync"))
    // Processed before `send` returned; queued, so the thunk's reads show the state before them.
    #expect(store.state.log == ["count 0", "count 0"])
    #expect(store.state.count == 1)
    #expect(
      seen.values == [
        "#1 start(\"sync\") user",
        "#2 got(\"count 0\") thunk \"readCountTwice\" ← #1",
        "#3 increment thunk \"readCountTwice\" ← #1",
        "#4 got(\"count 0\") thunk \"readCountTwice\" ← #1",
      ])
  }

  @Test func syncThunkActionsFollowTheReducersOwnSendEffect() {
    let seen = Recorder<String>()
    let store = Store(
      initialState: Feed.State(), reducer: Feed.reducer,
      middleware: [
        causeRecorder(seen),
        .thunks { action in
          guard case .echo = action else { return nil }
          return .sync("after") { send, _, _ in send(.got("thunk")) }
        },
      ])
    store.send(.echo("x"))
    #expect(store.state.log == ["echo x", "thunk"])
    #expect(
      seen.values == [
        "#1 echo(\"x\") user",
        "#2 got(\"echo x\") effect ← #1",
        "#3 got(\"thunk\") thunk \"after\" ← #1",
      ])
  }

  @Test func dispatchedSyncThunkProcessesEachActionBeforeSendReturns() {
    let seen = Recorder<String>()
    let store = Store(initialState: Feed.State(), reducer: Feed.reducer, middleware: [causeRecorder(seen)])
    store.dispatch(FeedThunk.readCountTwice, dependencies: Channels([]), context: "Screen")
    #expect(store.state.log == ["count 0", "count 1"])
    #expect(
      seen.values == [
        "#1 got(\"count 0\") thunk \"readCountTwice\"",
        "#2 increment thunk \"readCountTwice\"",
        "#3 got(\"count 1\") thunk \"readCountTwice\"",
      ])
  }

  @Test func dispatchedAsyncThunkCarriesItsContextAndNoParent() async {
    let contexts = Recorder<String>()
    let recorder = AnyMiddleware<Feed.State, Feed.Action>(name: "contexts") { action, context, next in
      let metadata = context.metadata
      contexts.append("\(action) \(metadata.cause) \(metadata.context ?? "-")")
      next(action)
    }
    let channels = Channels(["a"])
    let store = Store(initialState: Feed.State(), reducer: Feed.reducer, middleware: [recorder])
    store.dispatch(.relay("a"), dependencies: channels, context: "Inbox")
    channels.feed("a", "1")
    channels.close("a")
    await store.waitUntilIdle()
    #expect(contexts.values == ["got(\"1\") thunk \"relay a\" Inbox"])
  }

  @Test func dispatchWithoutDependencies() async {
    let store = Store(initialState: Feed.State(), reducer: Feed.reducer)
    store.dispatch(Thunk<Feed.State, Feed.Action, Void>("hello") { send, _, _ in await send(.got("hello")) })
    await store.waitUntilIdle()
    #expect(store.state.log == ["hello"])
  }

  @Test func thrownErrorGoesToTheHandlerAsAnActionCausedByTheThunk() async {
    let seen = Recorder<String>()
    let channels = Channels(["a"])
    let store = thunkStore(channels, seen: seen, onError: { .failed($0.description) }) { .failing($0) }
    store.send(.start("a"))
    channels.feed("a", "go")
    await store.waitUntilIdle()
    #expect(store.state.log == ["failed: thunk \"failing a\" failed: boom"])
    #expect(
      seen.values.last == "#2 failed(\"thunk \\\"failing a\\\" failed: boom\") thunk \"failing a\" ← #1 e1")
  }

  @Test func thrownErrorWithoutAHandlerIsReportedAsAFailedThunk() async {
    let events = Recorder<String>()
    let channels = Channels(["a"])
    let store = thunkStore(channels, events: events) { .failing($0) }
    store.send(.start("a"))
    channels.feed("a", "go")
    await store.waitUntilIdle()
    #expect(
      events.values == [
        "started e1 thunk \"failing a\" ← #1", "failed(\"boom\") e1 thunk \"failing a\" ← #1",
      ])
  }

  @Test func syncThunkErrorGoesToTheHandler() {
    let store = thunkStore(Channels([]), onError: { .failed($0.description) }) { _ in
      .sync("throwing") { send, _, _ in
        send(.got("before"))
        throw TestError()
      }
    }
    store.send(.start("x"))
    #expect(store.state.log == ["before", "failed: thunk \"throwing\" failed: boom"])
  }

  @Test func syncThunkErrorWithoutAHandlerIsReportedAsAFailedThunk() async {
    let events = Recorder<String>()
    let store = thunkStore(Channels([]), events: events) { _ in
      .sync("throwing") { _, _, _ in throw TestError() }
    }
    store.send(.start("x"))
    await store.waitUntilIdle()
    #expect(
      events.values == ["started e1 thunk \"throwing\" ← #1", "failed(\"boom\") e1 thunk \"throwing\" ← #1"])
  }

  @Test func cancellingAnIDCancelsEveryThunkInFlightWithIt() async {
    let events = Recorder<String>()
    let channels = Channels(["a", "b", "c"])
    let store = thunkStore(channels, events: events) { name in
      name == "c" ? .relay(name) : FeedThunk.relay(name).cancellable(id: "load")
    }
    store.send(.start("a"))
    store.send(.start("b"))
    store.send(.start("c"))
    #expect(store.runningEffectCount == 3)
    store.cancel(id: "load")
    channels.feed("a", "late")
    channels.feed("b", "late")
    channels.feed("c", "1")
    channels.close("c")
    await store.waitUntilIdle()
    #expect(store.state.log == ["1"])
    #expect(store.runningEffectCount == 0)
    #expect(events.values.filter { $0.hasPrefix("cancelled") }.count == 2)
  }

  @Test func cancelInFlightReplacesTheRunningThunk() async {
    let channels = Channels(["a", "b"])
    let store = thunkStore(channels) { FeedThunk.relay($0).cancellable(id: "search", cancelInFlight: true) }
    store.send(.start("a"))
    store.send(.start("b"))
    channels.feed("a", "stale")
    channels.feed("b", "fresh")
    channels.close("b")
    await store.waitUntilIdle()
    #expect(store.state.log == ["fresh"])
  }

  @Test func reducerCancelEffectCancelsAThunk() async {
    let channels = Channels(["a"])
    let store = thunkStore(channels) { FeedThunk.relay($0).cancellable(id: "relay") }
    store.send(.start("a"))
    store.send(.cancel("relay"))
    channels.feed("a", "late")
    await store.waitUntilIdle()
    #expect(store.state.log.isEmpty)
  }

  @Test func syncThunkWithCancelInFlightCancelsTheWorkInFlight() async {
    let channels = Channels(["a"])
    let store = thunkStore(channels) { name in
      name == "a"
        ? FeedThunk.relay(name).cancellable(id: "job")
        : FeedThunk.sync("replace") { send, _, _ in send(.got("replaced")) }.cancellable(
          id: "job", cancelInFlight: true)
    }
    store.send(.start("a"))
    store.send(.start("sync"))
    channels.feed("a", "late")
    await store.waitUntilIdle()
    #expect(store.state.log == ["replaced"])
  }

  @Test func releasedStoreCancelsItsThunks() async {
    let cancelled = Signal()
    let reduced = Recorder<Feed.Action>()
    var store: Store<Feed.State, Feed.Action>? = Store(
      initialState: Feed.State(),
      reducer: Reduce { _, action in
        reduced.append(action)
        return .none
      },
      middleware: [
        .thunks { _ in
          Thunk("forever") { send, _, _ in
            await withTaskCancellationHandler {
              for await _ in AsyncStream<Int>.makeStream().stream {}
            } onCancel: {
              cancelled.fire()
            }
            await send(.got("after release"))
          }
        }
      ])
    store?.send(.increment)
    weak let weakStore = store
    store = nil
    #expect(weakStore == nil)
    await cancelled.wait()
    #expect(reduced.values == [.increment])
  }
}
