import ChronicleInspection
import ChronicleLocks
import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing

@testable import ChronicleMiddleware

/// A feature with nested, collection and sensitive values, for the logger's golden tests.
enum Shop {
  struct Item: Equatable, Sendable {
    var name: String
    var done = false
  }

  struct Account: Equatable, Sendable {
    var user = "ann"
    @Redacted var password = "hunter2"
  }

  struct State: Equatable, Sendable {
    var items: [Item] = []
    var account = Account()
    var count = 0
  }

  enum Action: Equatable, Sendable {
    case add(String)
    case toggle(Int)
    case increment
    case login(user: String, password: Redacted<String>)
    case load
  }

  static let reducer = Reduce<State, Action> { state, action in
    switch action {
    case .add(let name):
      state.items.append(Item(name: name))
    case .toggle(let index):
      state.items[index].done.toggle()
    case .increment:
      state.count += 1
    case .login(let user, let password):
      state.account = Account(user: user, password: password.wrappedValue)
    case .load:
      return .send(.increment)
    }
    return .none
  }
}

/// A monotonic time source that moves 12.5 µs every time it is read.
final class SteppingTime: Sendable {
  private let elapsed = SanitizerVisibleMutex<Duration>(.zero)

  func read() -> Duration {
    elapsed.withLock {
      $0 += .nanoseconds(12_500)
      return $0
    }
  }
}

/// Options with fixed time: timestamps read 22:13:20.123 UTC, every action takes 12.5 µs.
func fixedTimeOptions(
  _ configure: (inout LoggerOptions<Shop.State, Shop.Action>) -> Void = { _ in }
) -> LoggerOptions<Shop.State, Shop.Action> {
  let time = SteppingTime()
  var options = LoggerOptions<Shop.State, Shop.Action>(
    now: { Date(timeIntervalSince1970: 1_700_000_000.123) },
    timeZone: .gmt,
    monotonic: { time.read() })
  configure(&options)
  return options
}

func shopStore(_ logger: AnyMiddleware<Shop.State, Shop.Action>) -> Store<Shop.State, Shop.Action> {
  Store(initialState: Shop.State(), reducer: Shop.reducer, middleware: [logger])
}

@Suite("Logger")
struct LoggerTests {
  @Test func defaultOutputIsExpandedWithTimestampDurationContextAndChanges() {
    let lines = Recorder<String>()
    let store = shopStore(.logger(fixedTimeOptions(), sink: .text { lines.append($0) }))
    store.send(.add("Milk"), context: "Shop")
    store.send(.toggle(0))
    store.send(.increment)
    #expect(
      lines.values == [
        """
        #1 Shop.Action.add("Milk") @ 22:13:20.123 (in 12.5 µs) [Shop]
          items[0]: added Shop.Item(name: "Milk", done: false)
        """,
        """
        #2 Shop.Action.toggle(0) @ 22:13:20.123 (in 12.5 µs)
          items[0].done: false → true
        """,
        """
        #3 Shop.Action.increment @ 22:13:20.123 (in 12.5 µs)
          count: 0 → 1
        """,
      ])
  }

  @Test func collapsedLoggerWithAKeyPolicy() {
    let lines = Recorder<String>()
    let store = Store(
      initialState: Shop.State(), reducer: Shop.reducer,
      middleware: [
        .logger(
          collapsed: true, duration: false, timestamp: false, redaction: Redaction(keys: ["user"]),
          sink: .text { lines.append($0) })
      ])
    store.send(.login(user: "bob", password: Redacted("swordfish")))
    #expect(
      lines.values == [
        "#1 Shop.Action.login(user: <redacted>, password: <redacted>)"
          + " — account.user: <redacted> → <redacted>; account.password: <redacted> → <redacted>"
      ])
  }

  @Test func collapsedPutsEachActionOnOneLine() {
    let lines = Recorder<String>()
    let store = shopStore(.logger(fixedTimeOptions { $0.collapsed = true }, sink: .text { lines.append($0) }))
    store.send(.add("Milk"))
    store.send(.add("Eggs"))
    store.send(.login(user: "bob", password: Redacted("swordfish")))
    store.send(.toggle(0))
    #expect(
      lines.values == [
        #"#1 Shop.Action.add("Milk") @ 22:13:20.123 (in 12.5 µs) — items[0]: added Shop.Item(name: "Milk", done: false)"#,
        #"#2 Shop.Action.add("Eggs") @ 22:13:20.123 (in 12.5 µs) — items[1]: added Shop.Item(name: "Eggs", done: false)"#,
        #"#3 Shop.Action.login(user: "bob", password: <redacted>) @ 22:13:20.123 (in 12.5 µs) — account.user: "ann" → "bob"; account.password: <redacted> → <redacted>"#,
        #"#4 Shop.Action.toggle(0) @ 22:13:20.123 (in 12.5 µs) — items[0].done: false → true"#,
      ])
  }

  @Test func anActionThatChangesNothingIsLoggedWithoutDetails() {
    let lines = Recorder<String>()
    let store = shopStore(.logger(fixedTimeOptions(), sink: .text { lines.append($0) }))
    store.send(.login(user: "ann", password: Redacted("hunter2")))
    #expect(
      lines.values == [
        #"#1 Shop.Action.login(user: "ann", password: <redacted>) @ 22:13:20.123 (in 12.5 µs)"#
      ])
  }

  @Test func withDiffOffTheWholeStateBeforeAndAfterIsLogged() {
    let lines = Recorder<String>()
    let store = shopStore(.logger(fixedTimeOptions { $0.diff = false }, sink: .text { lines.append($0) }))
    store.send(.add("Milk"))
    #expect(
      lines.values == [
        """
        #1 Shop.Action.add("Milk") @ 22:13:20.123 (in 12.5 µs)
          prev state: Shop.State(items: [], account: Shop.Account(user: "ann", password: <redacted>), count: 0)
          next state: Shop.State(items: [Shop.Item(name: "Milk", done: false)], account: Shop.Account(user: "ann", password: <redacted>), count: 0)
        """
      ])
  }

  @Test func durationAndTimestampCanBeTurnedOff() {
    let lines = Recorder<String>()
    let noDuration = shopStore(
      .logger(fixedTimeOptions { $0.duration = false }, sink: .text { lines.append($0) }))
    noDuration.send(.increment)
    let noTimestamp = shopStore(
      .logger(fixedTimeOptions { $0.timestamp = false }, sink: .text { lines.append($0) }))
    noTimestamp.send(.increment)
    #expect(
      lines.values == [
        "#1 Shop.Action.increment @ 22:13:20.123\n  count: 0 → 1",
        "#1 Shop.Action.increment (in 12.5 µs)\n  count: 0 → 1",
      ])
  }

  @Test func timestampsAreShownInTheGivenTimeZone() {
    let lines = Recorder<String>()
    let options = fixedTimeOptions {
      $0.timeZone = TimeZone(secondsFromGMT: -(3 * 3600 + 30 * 60))!
      $0.duration = false
    }
    let store = shopStore(.logger(options, sink: .text { lines.append($0) }))
    store.send(.increment)
    #expect(lines.values == ["#1 Shop.Action.increment @ 18:43:20.123\n  count: 0 → 1"])
  }

  @Test func withoutNowTheTimestampIsTheActionsMetadataTimestamp() {
    let lines = Recorder<String>()
    let timestamps = Recorder<Date>()
    let probe = AnyMiddleware<Shop.State, Shop.Action>(name: "probe") { action, context, next in
      timestamps.append(context.metadata.timestamp)
      next(action)
    }
    let options = LoggerOptions<Shop.State, Shop.Action>(
      duration: false, timeZone: TimeZone(secondsFromGMT: 0)!)
    let store = Store(
      initialState: Shop.State(), reducer: Shop.reducer,
      middleware: [probe, .logger(options, sink: .text { lines.append($0) })])
    store.send(.increment)
    let expected =
      "#1 Shop.Action.increment @ \(LogEntry.clockTime(timestamps.values[0], in: TimeZone(secondsFromGMT: 0)!))"
    #expect(lines.values == [expected + "\n  count: 0 → 1"])
  }

  @Test func predicateChoosesWhichActionsAreLoggedAndRejectedOnesStillReachTheReducer() {
    let lines = Recorder<String>()
    let asked = Recorder<Shop.Action>()
    let options = fixedTimeOptions {
      $0.predicate = { action in
        asked.append(action)
        return action != .increment
      }
    }
    let store = shopStore(.logger(options, sink: .text { lines.append($0) }))
    store.send(.increment)
    store.send(.add("Milk"))
    store.send(.increment)
    #expect(store.state.count == 2)
    #expect(asked.values == [.increment, .add("Milk"), .increment])
    #expect(
      lines.values == [
        "#2 Shop.Action.add(\"Milk\") @ 22:13:20.123 (in 12.5 µs)\n  items[0]: added Shop.Item(name: \"Milk\", done: false)"
      ])
  }

  @Test func actionAndStateTransformersReplaceWhatIsRendered() {
    let lines = Recorder<String>()
    let options = fixedTimeOptions {
      $0.actionTransformer = { action in
        if case .add(let name) = action { return "add \(name.count) letters" }
        return action
      }
      $0.stateTransformer = { state in state.items.map(\.name) }
    }
    let store = shopStore(.logger(options, sink: .text { lines.append($0) }))
    store.send(.add("Milk"))
    store.send(.increment)
    #expect(
      lines.values == [
        "#1 \"add 4 letters\" @ 22:13:20.123 (in 12.5 µs)\n  [0]: added \"Milk\"",
        "#2 Shop.Action.increment @ 22:13:20.123 (in 12.5 µs)",
      ])
  }

  @Test func causeOfActionsSentByEffectsIsShown() {
    let lines = Recorder<String>()
    let store = shopStore(.logger(fixedTimeOptions { $0.collapsed = true }, sink: .text { lines.append($0) }))
    store.send(.load, context: "Home")
    #expect(
      lines.values == [
        "#1 Shop.Action.load @ 22:13:20.123 (in 12.5 µs) [Home]",
        "#2 Shop.Action.increment @ 22:13:20.123 (in 12.5 µs) [Home] by effect ← #1 — count: 0 → 1",
      ])
  }

  @Test func recordSinkReceivesStructuredRecordsAtTheChosenLevel() {
    let records = Recorder<LogRecord>()
    let store = shopStore(
      .logger(fixedTimeOptions { $0.level = .debug }, sink: .records { records.append($0) }))
    store.send(.add("Milk"), context: "Shop")
    #expect(
      records.values == [
        LogRecord(
          level: .debug, sequence: 1, timestamp: Date(timeIntervalSince1970: 1_700_000_000.123),
          context: "Shop",
          cause: .user, action: #"Shop.Action.add("Milk")"#, effect: nil, duration: .nanoseconds(12_500),
          changes: [#"items[0]: added Shop.Item(name: "Milk", done: false)"#], stateBefore: nil,
          stateAfter: nil,
          message: #"#1 Shop.Action.add("Milk") @ 22:13:20.123 (in 12.5 µs) [Shop]"#,
          details: [#"items[0]: added Shop.Item(name: "Milk", done: false)"#])
      ])
    #expect(
      records.values[0].text == """
        #1 Shop.Action.add("Milk") @ 22:13:20.123 (in 12.5 µs) [Shop]
          items[0]: added Shop.Item(name: "Milk", done: false)
        """)
  }

  @Test func recordWithDiffOffCarriesBothStates() {
    let records = Recorder<LogRecord>()
    let options = fixedTimeOptions {
      $0.diff = false
      $0.stateTransformer = { $0.count }
    }
    let store = shopStore(.logger(options, sink: .records { records.append($0) }))
    store.send(.increment)
    #expect(records.values.map(\.stateBefore) == ["0"])
    #expect(records.values.map(\.stateAfter) == ["1"])
    #expect(records.values.map(\.changes) == [nil])
    #expect(records.values.map(\.details) == [["prev state: 0", "next state: 1"]])
  }

  @Test func coloredTextMarksTheTitleTheMetadataAndBothSidesOfAChange() {
    let lines = Recorder<String>()
    let store = shopStore(.logger(fixedTimeOptions(), sink: .text(colored: true) { lines.append($0) }))
    store.send(.increment, context: "Shop")
    let (bold, dim, red, green, cyan, reset) = (
      "\u{1B}[1m", "\u{1B}[2m", "\u{1B}[31m", "\u{1B}[32m", "\u{1B}[36m", "\u{1B}[0m"
    )
    #expect(
      lines.values == [
        "\(dim)#1 \(reset)\(bold)Shop.Action.increment\(reset)\(dim) @ 22:13:20.123\(reset)"
          + "\(dim) (in 12.5 µs)\(reset)\(cyan) [Shop]\(reset)\n  count: \(red)0\(reset) → \(green)1\(reset)"
      ])
  }

  @Test func failedThunksAreLoggedAsErrorsEvenWithEffectsOff() async {
    let records = Recorder<LogRecord>()
    let store = Store(
      initialState: Shop.State(), reducer: Shop.reducer,
      middleware: [
        .logger(fixedTimeOptions { $0.predicate = { _ in false } }, sink: .records { records.append($0) }),
        .thunks { action in
          action == .increment ? Thunk("save") { _, _, _ in throw TestError() } : nil
        },
      ])
    store.send(.increment)
    await store.waitUntilIdle()
    #expect(records.values.map(\.level) == [.error])
    #expect(records.values.map(\.message) == [#"thunk "save" failed: boom @ 22:13:20.123 ← #1"#])
    #expect(records.values.first?.effect?.phase == .failed("boom"))
  }

  @Test func effectsOptionLogsEveryChangeInTheLifeOfEffects() async {
    let lines = Recorder<String>()
    let options = fixedTimeOptions {
      $0.effects = true
      $0.timestamp = false
      $0.duration = false
    }
    let store = Store(
      initialState: Shop.State(), reducer: Shop.reducer,
      middleware: [
        .logger(options, sink: .text { lines.append($0) }),
        .thunks { action in
          action == .load ? Thunk("count") { send, _, _ in await send(.increment) } : nil
        },
      ])
    store.send(.load)
    await store.waitUntilIdle()
    #expect(
      lines.values == [
        #"thunk "count" started ← #1"#,
        "#1 Shop.Action.load",
        "#2 Shop.Action.increment by effect ← #1\n  count: 0 → 1",
        "#3 Shop.Action.increment by thunk \"count\" ← #1\n  count: 1 → 2",
        #"thunk "count" finished ← #1"#,
      ])
  }

  @Test func errorsOptionOffHidesFailures() async {
    let lines = Recorder<String>()
    let store = Store(
      initialState: Shop.State(), reducer: Shop.reducer,
      middleware: [
        .logger(fixedTimeOptions { $0.errors = false }, sink: .text { lines.append($0) }),
        .thunks { action in action == .increment ? Thunk("save") { _, _, _ in throw TestError() } : nil },
      ])
    store.send(.increment)
    await store.waitUntilIdle()
    #expect(lines.values == ["#1 Shop.Action.increment @ 22:13:20.123 (in 12.5 µs)\n  count: 0 → 1"])
  }

  @Test func flatFactoryTakesReduxLoggersOptions() {
    let lines = Recorder<String>()
    let store = shopStore(
      .logger(
        predicate: { $0 != .toggle(0) }, collapsed: true, duration: false, timestamp: false,
        sink: .text { lines.append($0) }))
    store.send(.add("Milk"))
    store.send(.toggle(0))
    store.send(.increment)
    #expect(
      lines.values == [
        #"#1 Shop.Action.add("Milk") — items[0]: added Shop.Item(name: "Milk", done: false)"#,
        "#3 Shop.Action.increment — count: 0 → 1",
      ])
  }

  @Test func durationsAreWrittenInTheUnitThatFits() {
    #expect(LogEntry.format(.nanoseconds(850)) == "850 ns")
    #expect(LogEntry.format(.nanoseconds(12_549)) == "12.5 µs")
    #expect(LogEntry.format(.nanoseconds(12_550)) == "12.6 µs")
    #expect(LogEntry.format(.microseconds(3250)) == "3.25 ms")
    #expect(LogEntry.format(.milliseconds(1500)) == "1.50 s")
    #expect(LogEntry.format(.zero) == "0 ns")
  }

  @Test func clockTimeIsExactAroundMidnightAndBeforeTheEpoch() {
    let utc = TimeZone(secondsFromGMT: 0)!
    #expect(LogEntry.clockTime(Date(timeIntervalSince1970: 86_399.999), in: utc) == "23:59:59.999")
    #expect(LogEntry.clockTime(Date(timeIntervalSince1970: 86_400), in: utc) == "00:00:00.000")
    #expect(LogEntry.clockTime(Date(timeIntervalSince1970: -0.5), in: utc) == "23:59:59.500")
  }
}
