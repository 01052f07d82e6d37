import ChronicleInspection
import ChronicleLocks
import ChronicleStore
import Dispatch
import Synchronization

/// A store for testing a feature exhaustively: every state change and every action its effects
/// send must be asserted, and no effect may still run at the end — with a readable diff when one
/// is not. The Composable Architecture's `TestStore` is the model.
///
/// ```swift
/// let store = TestStore(initialState: Counter.State(), reducer: Counter())
/// await store.send(.increment) { $0.count = 1 }
/// await store.send(.load)
/// await store.receive(.increment) { $0.count = 2 }
/// await store.finish()
/// ```
///
/// Time comes from a `TestClock` the feature is given: `await clock.advance(by:)` delivers
/// timers deterministically, and `receive` waits only until the store's effects have settled.
/// An effect, thunk or timer that throws an error no `catch` handler takes fails the test, at the
/// next call that sees it (`send`, `receive`, `finish`) or where the store was made when none
/// does. A test that ends without `finish` is checked when the test store goes away, after the
/// effect work already under way has run to its next suspension (an effect that has just sent
/// the last action it was awaited for, and is returning, is not "still running"). Failures are
/// reported to Swift Testing or XCTest, at the line of the failing call. Their text never shows
/// a value marked as sensitive, nor one the store's `redaction` policy selects: an action or error
/// that holds one is written as its dump, with `<redacted>` in its place.
public final class TestStore<State: Equatable & Sendable, Action: Sendable>: Sendable {
  /// The store under test; its middlewares run as in the app.
  public let store: Store<State, Action>
  private let recorder: ActionRecorder<State, Action>
  private let settings: SanitizerVisibleMutex<(exhaustivity: Exhaustivity, expected: State)>
  private let created: CallSite
  /// How long `receive` and `finish` wait for effects before failing — and how long the end of
  /// a test without `finish` waits for effect work under way. A guard against a test that waits
  /// for something that never comes — never a way to synchronise.
  public let timeout: Duration
  /// Which values failure messages write as `<redacted>`, besides those marked as sensitive.
  public let redaction: Redaction
  /// Binds the test's task-local values around each action the test sends.
  private let withTaskLocals: @Sendable (_ operation: () -> Void) -> Void

  /// Creates a test store.
  ///
  /// - Parameters:
  ///   - initialState: The state before the test.
  ///   - reducer: The feature.
  ///   - middleware: Middlewares to run, as in the app.
  ///   - exhaustivity: `.on` (default) or `.off` for integration tests.
  ///   - timeout: How long `receive` and `finish` wait for effects before failing.
  ///   - redaction: Which values failure messages write as `<redacted>`, besides those marked
  ///     as sensitive: pass the policy the app's logger uses.
  ///   - propagating: Task-locals the store carries to actions it processes later and to their
  ///     effects, as the app's store does (see `PropagatedTaskLocal`).
  ///   - withTaskLocals: Binds the values the test overrides — a dependency's test double —
  ///     around every action the test sends, and so around the effects, thunks and timers that
  ///     action starts and the actions they send back. Call `operation` exactly once:
  ///
  ///     ```swift
  ///     let store = TestStore(
  ///       initialState: Feature.State(), reducer: Feature(),
  ///       withTaskLocals: { API.$baseURL.withValue("http://127.0.0.1", operation: $0) })
  ///     ```
  ///   - fileID: The file of the call: where a failure is reported.
  ///   - filePath: That file's full path.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public init<R: Reducer>(
    initialState: State,
    reducer: R,
    middleware: [AnyMiddleware<State, Action>] = [],
    exhaustivity: Exhaustivity = .on,
    timeout: Duration = .seconds(5),
    redaction: Redaction = .default,
    propagating: [PropagatedTaskLocal] = [],
    withTaskLocals: @escaping @Sendable (_ operation: () -> Void) -> Void = { $0() },
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) where R.State == State, R.Action == Action {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let recorder = ActionRecorder<State, Action>()
    self.recorder = recorder
    self.store = Store(
      initialState: initialState, reducer: reducer, middleware: middleware + [recorder.middleware],
      propagating: propagating)
    self.settings = SanitizerVisibleMutex((exhaustivity, initialState))
    self.created = site
    self.timeout = timeout
    self.redaction = redaction
    self.withTaskLocals = withTaskLocals
  }

  deinit {
    // Effect work already under way (an effect returning after its last `send`, one about to
    // throw) runs to its next suspension first, so what is checked does not depend on timing.
    // Its jobs run on the store's queue, never on this thread.
    _ = store.activity.blockUntilQuiescent(deadline: .now() + Self.dispatchInterval(timeout))
    reportFailedEffects(at: created)
    guard settings.withLock({ $0.exhaustivity }) == .on else { return }
    let unreceived = recorder.pendingReceived()
    if !unreceived.isEmpty {
      IssueReporter.fail(unreceivedMessage(unreceived), at: created)
    }
    let pending = store.pendingEffectCount
    if pending > 0 {
      IssueReporter.fail(Self.pendingMessage(pending), at: created)
    }
  }

  /// Whether checks are exhaustive; can be changed during a test.
  public var exhaustivity: Exhaustivity {
    get { settings.withLock { $0.exhaustivity } }
    set { settings.withLock { $0.exhaustivity = newValue } }
  }

  /// The state the test has asserted so far (equal to the store's after each passing step).
  public var state: State { settings.withLock { $0.expected } }

  /// Sends an action and asserts how it changes the state.
  ///
  /// - Parameters:
  ///   - action: The action, as the app would send it.
  ///   - update: Mutates the state before the action into the state you expect after it. Omit
  ///     it when the action must not change the state (checked when exhaustive).
  ///   - fileID: The file of the call: where a failure is reported, and the action's call site
  ///     (``/ChronicleStore/ActionMetadata/site``).
  ///   - filePath: That file's full path.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  ///   - function: The function of the call, for the action's call site.
  public func send(
    _ action: Action,
    assert update: (@Sendable (inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    function: StaticString = #function
  ) async {
    let site = CallSite(fileID: "\(fileID)", filePath: filePath, line: line, column: column)
    reportFailedEffects(at: site)
    if exhaustivity == .on {
      let unreceived = recorder.pendingReceived()
      if !unreceived.isEmpty {
        IssueReporter.fail(
          "Must handle \(unreceived.count) received action(s) before sending \(actionText(action)):\n"
            + unreceived.map { "  \(actionText($0.action))" }.joined(separator: "\n"), at: site)
      }
    }
    recorder.beginSend()
    withTaskLocals { store.send(action, fileID: fileID, line: line, function: function) }
    guard let step = recorder.endSend() else {
      IssueReporter.fail(
        "\(actionText(action)) did not reach the reducer: a middleware stopped it.", at: site)
      return
    }
    check(step.state, update: update, what: "sending \(actionText(step.action))", site: site)
  }

  /// Waits for the next action sent by an effect, thunk or timer and asserts it and its change.
  ///
  /// When exhaustive, the next received action must equal `expected`; otherwise actions before
  /// the first that equals it are skipped.
  public func receive(
    _ expected: Action,
    assert update: (@Sendable (inout State) throws -> Void)? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async where Action: Equatable {
    await receive(
      where: { $0 == expected }, describing: actionText(expected), assert: update,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Waits for the next received action that `matches` accepts, as ``receive(_:assert:fileID:filePath:line:column:)``.
  public func receive(
    where matches: @escaping @Sendable (Action) -> Bool,
    describing description: String = "a matching action",
    assert update: (@Sendable (inout State) throws -> Void)? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let exhaustive = exhaustivity == .on
    while true {
      let step = await nextReceived()
      reportFailedEffects(at: site)
      guard let step else {
        let pending = store.pendingEffectCount
        IssueReporter.fail(
          "Expected to receive \(description), but no action was received"
            + (pending > 0 ? " (\(pending) effect(s) still running: advance the test clock?)" : "."),
          at: site)
        return
      }
      if matches(step.action) {
        check(step.state, update: update, what: "receiving \(actionText(step.action))", site: site)
        return
      }
      if exhaustive {
        IssueReporter.fail(
          "Received unexpected action:\n  − \(description)\n  + \(actionText(step.action))"
            + Self.origin(of: step), at: site)
        settings.withLock { $0.expected = step.state }
        return
      }
      settings.withLock { $0.expected = step.state }
    }
  }

  /// Waits until the store's effects have settled, then, when exhaustive, fails for actions
  /// that were received but not asserted and for effects still running.
  public func finish(
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    await settle()
    reportFailedEffects(at: site)
    guard exhaustivity == .on else { return }
    let unreceived = recorder.pendingReceived()
    if !unreceived.isEmpty {
      IssueReporter.fail(unreceivedMessage(unreceived), at: site)
      recorder.dropPendingReceived()
      if let last = unreceived.last { settings.withLock { $0.expected = last.state } }
    }
    let pending = store.pendingEffectCount
    if pending > 0 { IssueReporter.fail(Self.pendingMessage(pending), at: site) }
  }

  /// Accepts the received actions not yet asserted, moving the expected state past them.
  public func skipReceivedActions() {
    let skipped = recorder.pendingReceived()
    recorder.dropPendingReceived()
    if let last = skipped.last { settings.withLock { $0.expected = last.state } }
  }

  /// Compares the state after a step with the test's expectation and moves the expectation on.
  private func check(
    _ actual: State, update: (@Sendable (inout State) throws -> Void)?, what: String, site: CallSite
  ) {
    let (exhaustive, before) = settings.withLock { ($0.exhaustivity == .on, $0.expected) }
    var expected = before
    do {
      try update?(&expected)
    } catch {
      IssueReporter.fail("The assertion for \(what) threw: \(text(error))", at: site)
      return
    }
    defer { settings.withLock { $0.expected = actual } }
    if expected == actual { return }
    if !exhaustive && update == nil { return }
    if !exhaustive, let update {
      // Only what the assertion touched is checked: apply it to the actual state.
      var partial = actual
      try? update(&partial)
      if partial == actual { return }
    }
    let header =
      update == nil
      ? "State changed after \(what), but no change was asserted:"
      : "State after \(what) does not match the expectation:"
    IssueReporter.fail(
      header + "\n" + Self.diff(expected: expected, actual: actual, redaction: redaction), at: site)
  }

  static func diff(expected: State, actual: State, redaction: Redaction = .default) -> String {
    StateDiff.changes(from: expected, to: actual, redaction: redaction).map { change in
      "  \(change.path): expected \(change.old ?? "nothing"), actual \(change.new ?? "nothing")"
    }.joined(separator: "\n")
  }

  private func unreceivedMessage(_ steps: [ActionRecorder<State, Action>.Step]) -> String {
    "\(steps.count) received action(s) were not asserted:\n"
      + steps.map { "  \(actionText($0.action))" + Self.origin(of: $0) }.joined(separator: "\n")
  }

  /// Where a received action came from, for a failure message: the line of the effect that sent
  /// it (its `.run`, thunk or timer) and of the `send`; empty when the store captured none.
  static func origin(of step: ActionRecorder<State, Action>.Step) -> String {
    var parts: [String] = []
    if let effect = step.effectSite { parts.append("by the effect created at \(effect)") }
    if let site = step.site { parts.append("sent from \(site)") }
    return parts.isEmpty ? "" : "\n    (" + parts.joined(separator: ", ") + ")"
  }

  /// How a failure message writes an action: as it prints (`add(5)`), unless it holds a value to
  /// hide (`login(<redacted>)`).
  private func actionText(_ action: Action) -> String {
    SafeDescription.member(action, redaction: redaction)
  }

  /// How a failure message writes an error: as it prints, unless it holds a value to hide.
  private func text(_ error: any Error) -> String {
    SafeDescription.of(error, redaction: redaction)
  }

  /// Fails the test once for each effect, thunk or timer that threw an error no `catch` handler
  /// took since the last call, whatever the exhaustivity: the app would have lost that error.
  private func reportFailedEffects(at site: CallSite) {
    for failure in recorder.takeFailures() {
      IssueReporter.fail(failedEffectMessage(failure), at: site)
    }
  }

  /// `The effect started by sending load threw an error no catch handler took: Offline()`, its
  /// error written under the store's policy.
  private func failedEffectMessage(_ failure: ActionRecorder<State, Action>.Failure) -> String {
    let cause = failure.event.cause
    var subject = cause.kind.rawValue
    if let label = cause.label { subject += " \"\(label)\"" }
    if let origin = failure.origin {
      subject += " started by \(origin.isUser ? "sending" : "receiving") \(actionText(origin.action))"
    }
    let error = failure.event.failureDescription(redaction: redaction) ?? ""
    return "The \(subject) threw an error no catch handler took: \(error)"
  }

  private static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
    let (seconds, attoseconds) = duration.components
    let limit = Int64(Int32.max)
    return .nanoseconds(Int(min(max(seconds, 0), limit) * 1_000_000_000 + attoseconds / 1_000_000_000))
  }

  private static func pendingMessage(_ count: Int) -> String {
    "\(count) effect(s) are still running at the end of the test: cancel them, let them finish, "
      + "or set exhaustivity to .off."
  }

  /// The next received step, waiting for effects to send one; `nil` when they settle (finish or
  /// park on a test clock) without sending, or the timeout passes.
  private func nextReceived() async -> ActionRecorder<State, Action>.Step? {
    if let step = recorder.popReceived() { return step }
    await withTaskGroup(of: Void.self) { group in
      group.addTask { await self.recorder.waitForReceived() }
      group.addTask { await self.store.activity.waitUntilQuiescent() }
      group.addTask { [timeout] in try? await Task.sleep(for: timeout) }
      await group.next()
      group.cancelAll()
    }
    return recorder.popReceived()
  }

  private func settle() async {
    await withTaskGroup(of: Void.self) { group in
      group.addTask { await self.store.activity.waitUntilQuiescent() }
      group.addTask { [timeout] in try? await Task.sleep(for: timeout) }
      await group.next()
      group.cancelAll()
    }
  }
}
