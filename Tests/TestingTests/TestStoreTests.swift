import ChronicleClocks
import ChronicleInspection
import ChronicleMiddleware
import ChronicleStore
import ChronicleTesting
import Testing

/// A feature with an effect, a timer on an injected clock, and a cancellation.
struct Stopwatch: Reducer {
  struct State: Equatable, Sendable {
    var seconds = 0
    var isRunning = false
    var loaded: String?
  }

  enum Action: Equatable, Sendable {
    case start, stop, tick, load, loaded(String)
  }

  let clock: any Clock<Duration>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      state.isRunning = true
      return .run { [clock] send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: "timer", cancelInFlight: true)
    case .stop:
      state.isRunning = false
      return .cancel(id: "timer")
    case .tick:
      state.seconds += 1
      return .none
    case .load:
      return .run { send in await send(.loaded("done")) }
    case .loaded(let value):
      state.loaded = value
      return .none
    }
  }
}

/// A feature whose effects throw.
private struct Uploader: Reducer {
  struct State: Equatable, Sendable {}
  enum Action: Equatable, Sendable { case upload, sign(token: String) }
  struct UploadError: Error { var code: Int }
  struct SigningError: Error { var token: String }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .upload: .run { _ in throw UploadError(code: 507) }
    case .sign(let token): .run { _ in throw SigningError(token: token) }
    }
  }
}

/// A feature whose effect, after sending its one action, waits for the test to let it go on —
/// and then returns or throws.
private struct Courier: Reducer {
  struct State: Equatable, Sendable { var delivered = false }
  enum Action: Equatable, Sendable { case deliver, delivered }
  struct LateError: Error {}

  /// What the effect awaits after it sent `delivered`.
  let goOn: AsyncStream<Void>
  let throwsAfterwards: Bool

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .deliver:
      return .run { [goOn, throwsAfterwards] send in
        await send(.delivered)
        for await _ in goOn { break }
        if throwsAfterwards { throw LateError() }
      }
    case .delivered:
      state.delivered = true
      return .none
    }
  }
}

func comment(_ issue: Issue) -> String {
  issue.comments.map(\.rawValue).joined(separator: "\n")
}

@Suite("TestStore")
struct TestStoreTests {
  @Test func exhaustiveTestOfSendsReceivesAndATimerPasses() async {
    let clock = TestClock()
    let store = TestStore(initialState: Stopwatch.State(), reducer: Stopwatch(clock: clock))
    await store.send(.start) { $0.isRunning = true }
    await clock.advance(by: .seconds(2))
    await store.receive(.tick) { $0.seconds = 1 }
    await store.receive(.tick) { $0.seconds = 2 }
    await store.send(.stop) { $0.isRunning = false }
    await store.send(.load)
    await store.receive(.loaded("done")) { $0.loaded = "done" }
    await store.finish()
  }

  @Test func anEffectThatThrowsFailsTheTestAtFinish() async {
    let store = TestStore(initialState: Uploader.State(), reducer: Uploader())
    await store.send(.upload)
    let line = #line + 2
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      comment(issue)
        == #"The effect started by sending upload threw an error no catch handler took: UploadError(code: 507)"#
        && issue.sourceLocation?.line == line
    }
  }

  @Test func anEffectFailureNoCallSawFailsWhereTheStoreWasMade() async {
    let line = #line + 3
    await withKnownIssue {
      do {
        let store = TestStore(initialState: Uploader.State(), reducer: Uploader())
        await store.send(.upload)
        await store.store.waitUntilIdle()
      }
    } matching: { issue in
      comment(issue)
        == #"The effect started by sending upload threw an error no catch handler took: UploadError(code: 507)"#
        && issue.sourceLocation?.line == line
    }
  }

  /// The end of a test without `finish` checks after the effect work under way has run: the
  /// effect woken just before the end returns (no "still running" failure), however the threads
  /// are scheduled. Repeated, since without that wait the outcome is a race.
  @Test func aTestThatEndsWhileItsEffectIsReturningPasses() async {
    for _ in 0..<50 {
      let (goOn, letGo) = AsyncStream<Void>.makeStream()
      let store = TestStore(
        initialState: Courier.State(), reducer: Courier(goOn: goOn, throwsAfterwards: false))
      await store.send(.deliver)
      await store.receive(.delivered) { $0.delivered = true }
      #expect(store.store.pendingEffectCount == 1)
      letGo.yield()
    }
  }

  /// An effect woken just before the end of a test without `finish`, which then throws, fails
  /// the test where the store was made — every time, not only when its thread wins the race.
  @Test func anEffectThatThrowsAsTheTestEndsFailsWhereTheStoreWasMade() async {
    for _ in 0..<20 {
      let (goOn, letGo) = AsyncStream<Void>.makeStream()
      let line = #line + 3
      await withKnownIssue {
        do {
          let store = TestStore(
            initialState: Courier.State(), reducer: Courier(goOn: goOn, throwsAfterwards: true))
          await store.send(.deliver)
          await store.receive(.delivered) { $0.delivered = true }
          letGo.yield()
        }
      } matching: { issue in
        comment(issue)
          == "The effect started by sending deliver threw an error no catch handler took: LateError()"
          && issue.sourceLocation?.line == line
      }
    }
  }

  @Test func anEffectThatThrowsFailsTheTestEvenWhenNotExhaustive() async {
    let store = TestStore(initialState: Uploader.State(), reducer: Uploader(), exhaustivity: .off)
    await store.send(.upload)
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      comment(issue)
        == #"The effect started by sending upload threw an error no catch handler took: UploadError(code: 507)"#
    }
  }

  @Test func anEffectThatThrowsIsReportedWithTheStoresRedaction() async {
    let store = TestStore(
      initialState: Uploader.State(), reducer: Uploader(), redaction: Redaction(keys: ["token"]))
    await store.send(.sign(token: "tk-s3cr3t"))
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      comment(issue)
        == "The effect started by sending sign(token: <redacted>) threw an error no catch handler took: "
        + "Uploader.SigningError(token: <redacted>)"
    }
  }

  @Test func wrongExpectationIsReportedWithADiffAtTheCallersLine() async {
    let store = TestStore(initialState: Stopwatch.State(), reducer: Stopwatch(clock: TestClock()))
    let sendLine = #line + 2
    await withKnownIssue {
      await store.send(.tick) { $0.seconds = 2 }
    } matching: { issue in
      comment(issue)
        == "State after sending tick does not match the expectation:\n  seconds: expected 2, actual 1"
        && issue.sourceLocation?.line == sendLine
    }
    #expect(store.state.seconds == 1)
  }

  @Test func unassertedStateChangeFails() async {
    let store = TestStore(initialState: Stopwatch.State(), reducer: Stopwatch(clock: TestClock()))
    await withKnownIssue {
      await store.send(.tick)
    } matching: { issue in
      comment(issue)
        == "State changed after sending tick, but no change was asserted:\n  seconds: expected 0, actual 1"
    }
  }

  @Test func receivedActionNotAssertedFailsAtFinish() async {
    let store = TestStore(initialState: Stopwatch.State(), reducer: Stopwatch(clock: TestClock()))
    await store.send(.load)
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      comment(issue).hasPrefix(
        "1 received action(s) were not asserted:\n  loaded(\"done\")\n    (by the effect created at ")
    }
  }

  @Test func effectStillRunningFailsAtFinish() async {
    let clock = TestClock()
    let store = TestStore(initialState: Stopwatch.State(), reducer: Stopwatch(clock: clock))
    await store.send(.start) { $0.isRunning = true }
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      comment(issue).hasPrefix("1 effect(s) are still running at the end of the test")
    }
    await store.send(.stop) { $0.isRunning = false }
  }

  @Test func receivingAnotherActionFails() async {
    let clock = TestClock()
    let store = TestStore(initialState: Stopwatch.State(), reducer: Stopwatch(clock: clock))
    await store.send(.load)
    await withKnownIssue {
      await store.receive(.tick)
    } matching: { issue in
      comment(issue).hasPrefix(
        "Received unexpected action:\n  − tick\n  + loaded(\"done\")\n    (by the effect created at ")
    }
  }

  @Test func receiveFailsPromptlyWhenEffectsSettleWithoutSending() async {
    let clock = TestClock()
    let store = TestStore(initialState: Stopwatch.State(), reducer: Stopwatch(clock: clock))
    await store.send(.start) { $0.isRunning = true }
    await withKnownIssue {
      await store.receive(.tick)
    } matching: { issue in
      comment(issue)
        == "Expected to receive tick, but no action was received (1 effect(s) still running: advance the test clock?)"
    }
    await store.send(.stop) { $0.isRunning = false }
  }

  @Test func nonExhaustiveStoreChecksOnlyWhatIsAsserted() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: Stopwatch.State(), reducer: Stopwatch(clock: clock), exhaustivity: .off)
    await store.send(.start)
    await clock.advance(by: .seconds(3))
    await store.receive(.tick) { $0.seconds = 1 }
    store.skipReceivedActions()
    #expect(store.state.seconds == 3)
    await store.send(.stop)
    await store.finish()
    #expect(store.state == Stopwatch.State(seconds: 3, isRunning: false))
  }
}

/// A dependency as apps declare one: a plain task-local.
enum Backend {
  @TaskLocal static var url = "https://example.com"
}

/// A feature whose effect reports the `Backend` it talked to.
struct Fetcher: Reducer {
  struct State: Equatable, Sendable { var fetchedFrom: [String] = [] }
  enum Action: Equatable, Sendable { case fetch, fetched(String) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .fetch:
      return .run { send in await send(.fetched(Backend.url)) }
    case .fetched(let url):
      state.fetchedFrom.append(url)
      return .none
    }
  }
}

@Suite("TestStore with task-locals")
struct TestStoreTaskLocalTests {
  @Test func overriddenValuesReachTheEffectsOfEverySentAction() async {
    let store = TestStore(
      initialState: Fetcher.State(), reducer: Fetcher(),
      withTaskLocals: { Backend.$url.withValue("http://127.0.0.1:8080", operation: $0) })
    await store.send(.fetch)
    await store.receive(.fetched("http://127.0.0.1:8080")) { $0.fetchedFrom = ["http://127.0.0.1:8080"] }
    await store.send(.fetch)
    await store.receive(.fetched("http://127.0.0.1:8080")) {
      $0.fetchedFrom = ["http://127.0.0.1:8080", "http://127.0.0.1:8080"]
    }
    await store.finish()
  }

  @Test func withoutAnOverrideEffectsSeeTheDefault() async {
    let store = TestStore(initialState: Fetcher.State(), reducer: Fetcher())
    await store.send(.fetch)
    await store.receive(.fetched("https://example.com")) { $0.fetchedFrom = ["https://example.com"] }
    await store.finish()
  }
}
