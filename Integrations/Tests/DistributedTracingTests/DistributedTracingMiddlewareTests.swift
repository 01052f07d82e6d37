import ChronicleClocks
import ChronicleDistributedTracing
import ChronicleInspection
import ChronicleMiddleware
import ChronicleStore
import Testing
import Tracing

enum Shop {
  struct State: Equatable, Sendable {
    var items: [String] = []
    var count = 0
    @Redacted var card = ""
  }

  enum Action: Equatable, Sendable {
    case add(String)
    case load
    case loaded(Int)
    case save
    case watch
    case stopWatching
    case pay(Redacted<String>)
    case sync
    case remind
    case login(user: String, token: String)
    case sign(token: String)
  }

  struct Offline: Error, CustomStringConvertible {
    var description: String { "offline" }
  }

  /// An error whose secret only a key rule names.
  struct Unsigned: Error {
    var token: String
  }

  static func reducer(clock: TestClock) -> Reduce<State, Action> {
    Reduce { state, action in
      switch action {
      case .add(let item):
        state.items.append(item)
        return .none
      case .load:
        return .run { send in await send(.loaded(3)) }.cancellable(id: "load")
      case .loaded(let count):
        state.count = count
        return .none
      case .save:
        return .run { _ in throw Offline() }
      case .watch:
        return .run { _ in try await clock.sleep(for: .seconds(60)) }.cancellable(id: "watch")
      case .stopWatching:
        return .cancel(id: "watch")
      case .pay(let card):
        state.card = card.wrappedValue
        return .none
      case .sign(let token):
        return .run { _ in throw Unsigned(token: token) }
      case .sync, .remind, .login:
        return .none
      }
    }
  }

  static func store(
    tracer: RecordingTracer, redaction: Redaction = .default,
    middleware: [AnyMiddleware<State, Action>] = []
  ) -> Store<State, Action> {
    Store(
      initialState: State(), reducer: reducer(clock: TestClock()),
      middleware: [.distributedTracing(tracer: tracer, redaction: redaction)] + middleware)
  }
}

@Suite("distributedTracing middleware")
struct DistributedTracingMiddlewareTests {
  @Test func anActionIsASpanNamedAfterItsCaseWithItsMetadataAsAttributes() throws {
    let tracer = RecordingTracer()
    let store = Shop.store(tracer: tracer)
    store.send(.add("Milk"), context: "Cart")
    let span = try #require(tracer.recorded.first)
    #expect(tracer.recorded.count == 1)
    #expect(span.name == "add")
    #expect(span.parent == nil)
    #expect(span.links == [])
    #expect(
      span.attributes == [
        "chronicle.sequence": "1",
        "chronicle.context": "Cart",
        "chronicle.action": #"Shop.Action.add("Milk")"#,
        "chronicle.cause.kind": "user",
      ])
    #expect(span.ended)
  }

  @Test func anActionSentInsideASpanIsItsChild() {
    let tracer = RecordingTracer()
    let store = Shop.store(tracer: tracer)
    let request = tracer.startSpan("GET /cart")
    ServiceContext.withValue(request.context) { store.send(.add("Milk")) }
    #expect(tracer.spans(named: "add").map(\.parent) == [request.id])
  }

  @Test func anEffectIsAChildOfItsActionAndTheActionItSendsAChildOfTheEffectLinkedToItsCause() async throws {
    let tracer = RecordingTracer()
    let store = Shop.store(tracer: tracer)
    store.send(.load)
    await store.waitUntilIdle()
    #expect(tracer.recorded.map(\.name) == ["load", "effect load", "loaded"])
    let (load, effect, loaded) = (tracer.recorded[0], tracer.recorded[1], tracer.recorded[2])
    #expect(effect.parent == load.id)
    #expect(
      effect.attributes == [
        "chronicle.effect": "1",
        "chronicle.effect.ids": #"["\"load\""]"#,
        "chronicle.effect.outcome": "finished",
        "chronicle.cause.kind": "effect",
        "chronicle.cause.parent": "1",
        "chronicle.cause.label": "load",
      ])
    #expect(loaded.parent == effect.id)
    #expect(loaded.links == [RecordedLink(span: load.id, attributes: ["chronicle.link": "cause"])])
    #expect(
      loaded.attributes == [
        "chronicle.sequence": "2",
        "chronicle.action": "Shop.Action.loaded(3)",
        "chronicle.cause.kind": "effect",
        "chronicle.cause.parent": "1",
        "chronicle.cause.effect": "1",
        "chronicle.cause.label": "load",
      ])
    #expect(tracer.recorded.allSatisfy { $0.ended })
  }

  @Test func aFailedEffectRecordsItsErrorAndAnErrorStatus() async throws {
    let tracer = RecordingTracer()
    let store = Shop.store(tracer: tracer)
    store.send(.save)
    await store.waitUntilIdle()
    let effect = try #require(tracer.spans(named: "effect").first)
    #expect(effect.status == SpanStatus(code: .error, message: "offline"))
    #expect(effect.errors == ["offline"])
    #expect(effect.attributes["chronicle.effect.outcome"] == "failed")
    #expect(effect.ended)
  }

  @Test func aCancelledEffectEndsWithoutAnErrorAsCancelled() async throws {
    let tracer = RecordingTracer()
    let store = Shop.store(tracer: tracer)
    store.send(.watch)
    #expect(tracer.spans(named: "effect watch").map(\.ended) == [false])
    store.send(.stopWatching)
    await store.waitUntilIdle()
    let effect = try #require(tracer.spans(named: "effect watch").first)
    #expect(effect.ended)
    #expect(effect.attributes["chronicle.effect.outcome"] == "cancelled")
    #expect(effect.status == nil)
    #expect(effect.errors == [])
  }

  @Test func aThunkIsAChildSpanOfTheActionThatStartedIt() async throws {
    let tracer = RecordingTracer()
    let store = Shop.store(
      tracer: tracer,
      middleware: [
        .thunks { action in
          action == .sync ? Thunk("sync") { send, _, _ in await send(.add("Synced")) } : nil
        }
      ])
    store.send(.sync)
    await store.waitUntilIdle()
    #expect(tracer.recorded.map(\.name) == ["sync", "thunk sync", "add"])
    let (sync, thunk, add) = (tracer.recorded[0], tracer.recorded[1], tracer.recorded[2])
    #expect(thunk.parent == sync.id)
    #expect(thunk.attributes["chronicle.cause.kind"] == "thunk")
    #expect(add.parent == thunk.id)
    #expect(add.links.map(\.span) == [sync.id])
    #expect(add.attributes["chronicle.cause.kind"] == "thunk")
  }

  @Test func aSecretInAnActionIsRedactedInItsSpan() throws {
    let tracer = RecordingTracer()
    let store = Shop.store(tracer: tracer)
    store.send(.pay(Redacted("4242-4242")))
    let span = try #require(tracer.recorded.first)
    #expect(span.name == "pay")
    #expect(span.attributes["chronicle.action"] == "Shop.Action.pay(<redacted>)")
    #expect(!"\(tracer.recorded)".contains("4242"))
  }

  @Test func aTimerIsAChildSpanOfTheActionThatStartedIt() async throws {
    let tracer = RecordingTracer()
    let clock = TestClock()
    let store = Shop.store(
      tracer: tracer,
      middleware: [
        .timers(clock: clock) { action in
          action == .remind ? .once(id: "reminder", after: .seconds(5), send: .add("Call Ann")) : nil
        }
      ])
    store.send(.remind)
    await clock.advance(by: .seconds(5))
    await store.waitUntilIdle()
    #expect(tracer.recorded.map(\.name) == ["remind", "timer reminder", "add"])
    let (remind, timer, add) = (tracer.recorded[0], tracer.recorded[1], tracer.recorded[2])
    #expect(timer.parent == remind.id)
    #expect(timer.attributes["chronicle.cause.kind"] == "timer")
    #expect(add.parent == timer.id)
    #expect(add.links.map(\.span) == [remind.id])
  }

  @Test func aFailedEffectsErrorIsRecordedUnderThePolicy() async throws {
    let tracer = RecordingTracer()
    let store = Shop.store(tracer: tracer, redaction: Redaction(keys: ["token"]))
    store.send(.sign(token: "tok-s3cr3t"))
    await store.waitUntilIdle()
    let effect = try #require(tracer.spans(named: "effect").first)
    #expect(effect.status == SpanStatus(code: .error, message: "Shop.Unsigned(token: <redacted>)"))
    #expect(effect.errors == ["Shop.Unsigned(token: <redacted>)"])
  }

  @Test func theRedactionPolicyHidesTheKeysItNames() throws {
    let tracer = RecordingTracer()
    let store = Shop.store(tracer: tracer, redaction: Redaction(keys: ["token"]))
    store.send(.login(user: "ann", token: "tok-abc"))
    let span = try #require(tracer.recorded.first)
    #expect(span.attributes["chronicle.action"] == #"Shop.Action.login(user: "ann", token: <redacted>)"#)
  }
}
