import ChronicleInspection
import ChronicleLogging
import ChronicleMiddleware
import ChronicleStore
import Logging
import Synchronization
import Testing

enum Notes {
  struct State: Equatable, Sendable {
    var count = 0
    var titles: [String: String] = [:]
    @Redacted var password = ""
  }

  enum Action: Equatable, Sendable {
    case increment
    case title(String, String)
    case setPassword(Redacted<String>)
    case load
    case loaded(Int)
    case save
  }

  struct Offline: Error, CustomStringConvertible {
    var description: String { "offline" }
  }

  static let reducer = Reduce<State, Action> { state, action in
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .title(let key, let title):
      state.titles[key] = title
      return .none
    case .setPassword(let password):
      state.password = password.wrappedValue
      return .none
    case .load:
      return .run { send in await send(.loaded(3)) }.cancellable(id: "load")
    case .loaded(let count):
      state.count = count
      return .none
    case .save:
      return .run { _ in throw Offline() }
    }
  }
}

/// Every read of the monotonic clock is 12.5 µs after the previous one.
final class SteppingClock: Sendable {
  private let ticks = Mutex<Int64>(0)

  func read() -> Duration {
    ticks.withLock { ticks in
      defer { ticks += 1 }
      return .nanoseconds(ticks * 12_500)
    }
  }
}

func notesStore(
  effects: Bool = false, diff: Bool = true, level: LogLevel = .info, to recorder: LogHandlerRecorder
) -> Store<Notes.State, Notes.Action> {
  let clock = SteppingClock()
  let options = LoggerOptions<Notes.State, Notes.Action>(
    diff: diff, level: level, effects: effects, monotonic: { clock.read() })
  return Store(
    initialState: Notes.State(), reducer: Notes.reducer,
    middleware: [.logger(options, sink: .swiftLog(recorder.logger()))])
}

@Suite("LogSink.swiftLog")
struct SwiftLogSinkTests {
  @Test func anActionIsOneMessageWithItsDiffAndCauseAsMetadata() {
    let recorder = LogHandlerRecorder()
    let store = notesStore(to: recorder)
    store.send(.increment, context: "Counter")
    #expect(
      recorder.values == [
        LoggedMessage(
          level: .info, message: "Notes.Action.increment",
          metadata: [
            "chronicle.sequence": "1",
            "chronicle.context": "Counter",
            "chronicle.cause.kind": "user",
            "chronicle.duration_ns": "12500",
            "chronicle.changed_paths": ["count"],
            "chronicle.changes": ["count: 0 → 1"],
          ])
      ])
  }

  @Test func theMessageHasNoLineBreakWhateverTheDiff() {
    let recorder = LogHandlerRecorder()
    let store = notesStore(to: recorder)
    store.send(.title("a", "Milk"))
    store.send(.title("b", "Eggs"))
    store.send(.increment)
    #expect(recorder.values.map(\.message).allSatisfy { !$0.contains("\n") })
    #expect(recorder.values.map(\.message).count == 3)
  }

  @Test func aChangedPathKeepsADictionaryKeyThatHoldsAColon() {
    let recorder = LogHandlerRecorder()
    let store = notesStore(to: recorder)
    store.send(.title("to do: milk", "Milk"))
    #expect(recorder.values.first?.metadata["chronicle.changed_paths"] == [#"titles["to do: milk"]"#])
    #expect(recorder.values.first?.metadata["chronicle.changes"] == [#"titles["to do: milk"]: added "Milk""#])
  }

  @Test func anActionSentByAnEffectNamesTheEffectAndTheActionThatStartedIt() async {
    let recorder = LogHandlerRecorder()
    let store = notesStore(to: recorder)
    store.send(.load)
    await store.waitUntilIdle()
    #expect(recorder.values.count == 2)
    #expect(
      recorder.values.last
        == LoggedMessage(
          level: .info, message: "Notes.Action.loaded(3)",
          metadata: [
            "chronicle.sequence": "2",
            "chronicle.cause.kind": "effect",
            "chronicle.cause.parent": "1",
            "chronicle.cause.effect": "1",
            "chronicle.cause.label": "load",
            "chronicle.duration_ns": "12500",
            "chronicle.changed_paths": ["count"],
            "chronicle.changes": ["count: 0 → 3"],
          ]))
  }

  @Test func effectEventsAreTheirOwnMessages() async {
    let recorder = LogHandlerRecorder()
    let store = notesStore(effects: true, to: recorder)
    store.send(.load)
    await store.waitUntilIdle()
    let effectMessages = recorder.values.filter { $0.metadata["chronicle.effect"] != nil }
    #expect(
      effectMessages == [
        LoggedMessage(
          level: .info, message: #"effect "load" started"#,
          metadata: [
            "chronicle.effect": "1",
            "chronicle.effect.phase": "started",
            "chronicle.cause.kind": "effect",
            "chronicle.cause.parent": "1",
            "chronicle.cause.label": "load",
          ]),
        LoggedMessage(
          level: .info, message: #"effect "load" finished"#,
          metadata: [
            "chronicle.effect": "1",
            "chronicle.effect.phase": "finished",
            "chronicle.cause.kind": "effect",
            "chronicle.cause.parent": "1",
            "chronicle.cause.label": "load",
          ]),
      ])
  }

  @Test func aFailedEffectIsAnErrorWithTheErrorInMetadata() async {
    let recorder = LogHandlerRecorder()
    let store = notesStore(to: recorder)
    store.send(.save)
    await store.waitUntilIdle()
    #expect(
      recorder.values.last
        == LoggedMessage(
          level: .error, message: "effect failed",
          metadata: [
            "chronicle.effect": "1",
            "chronicle.effect.phase": "failed",
            "chronicle.effect.error": "offline",
            "chronicle.cause.kind": "effect",
            "chronicle.cause.parent": "1",
          ]))
  }

  @Test func theLoggersLevelBecomesTheMessagesLevel() {
    let recorder = LogHandlerRecorder()
    let store = notesStore(level: .notice, to: recorder)
    store.send(.increment)
    #expect(recorder.values.map(\.level) == [.notice])
  }

  @Test func withTheDiffOffBothStatesAreMetadata() {
    let recorder = LogHandlerRecorder()
    let store = notesStore(diff: false, to: recorder)
    store.send(.increment)
    #expect(
      recorder.values.first?.metadata["chronicle.state.before"]
        == #"Notes.State(count: 0, titles: [:], password: <redacted>)"#)
    #expect(
      recorder.values.first?.metadata["chronicle.state.after"]
        == #"Notes.State(count: 1, titles: [:], password: <redacted>)"#)
    #expect(recorder.values.first?.metadata["chronicle.changes"] == nil)
  }

  @Test func aSecretNeverReachesTheLogHandler() {
    let recorder = LogHandlerRecorder()
    let store = notesStore(to: recorder)
    store.send(.setPassword(Redacted("hunter2")))
    store.send(.setPassword(Redacted("s3cr3t")))
    let secrets = ["hunter2", "s3cr3t"]
    for message in recorder.values {
      let text = message.message + "\(message.metadata)"
      #expect(!secrets.contains { text.contains($0) }, "\(text)")
    }
    #expect(recorder.values.first?.metadata["chronicle.changes"] == ["password: <redacted> → <redacted>"])
  }
}
