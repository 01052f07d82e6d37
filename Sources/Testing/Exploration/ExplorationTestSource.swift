import ChronicleInspection

/// Writes a failure's shrunk steps as a Swift Testing test on an exhaustive ``TestStore``.
///
/// Every step before the violation asserts what the run recorded — each state change and each
/// action an effect sent — as ``TestSourceGenerator`` writes them. At the action that broke the
/// invariant the test stops asserting the recorded state (that state is the bug), turns
/// exhaustivity off, takes that action, and checks the invariant through its
/// ``Invariant/expression``: the test fails while the bug is there and passes once it is fixed.
enum ExplorationTestSource {
  static func source<State, Action>(
    for failure: ExplorationFailure<State, Action>, options: ExplorationTestOptions
  ) -> String {
    let redaction = options.redaction
    let stateType = options.stateType ?? String(reflecting: State.self)
    let movesClock = failure.steps.contains { $0.action == nil }
    let usesClock =
      movesClock || options.reducer.contains("clock") || (options.middleware?.contains("clock") ?? false)
    var lines = ["import ChronicleClocks", "import ChronicleTesting", "import Foundation", "import Testing"]
    for module in options.imports {
      lines.append(module.hasPrefix("@") ? module : "import \(module)")
    }
    let origin =
      failure.seed.map { "seed \($0)" + (failure.run.map { ", run \($0)" } ?? "") } ?? "given steps"
    lines += [
      "",
      "/// Found by exploration (\(origin)): \(failure.kind).",
      "/// Shrunk to \(failure.steps.count) step(s).",
      "@Test func \(options.testName)() async throws {",
    ]
    if usesClock { lines.append("  let clock = TestClock()") }
    let initial =
      (try? TestSourceGenerator.literal(failure.initialState, redaction: redaction))?.text ?? "\"{}\""
    lines += [
      "  let store = TestStore(",
      "    initialState: try decode(\(initial)),",
      "    reducer: \(options.reducer)" + (options.middleware.map { ",\n    middleware: \($0))" } ?? ")"),
    ]
    var state = failure.initialState
    var checked = false
    steps: for (index, step) in failure.steps.enumerated() {
      switch step {
      case .send: break
      case .advance(let duration): lines.append("  await clock.advance(by: \(DurationText.swift(duration)))")
      case .wakeNext: lines.append("  await clock.run(maxSteps: 1)")
      }
      var sentAction = false
      for record in failure.records where record.step == index {
        let verb = record.isUser ? "send" : "receive"
        let action = "." + SafeDescription.member(record.action, redaction: redaction)
        sentAction = sentAction || record.isUser
        if let sequence = failure.violatingSequence, record.sequence == sequence {
          lines += check(failure, verb: verb, action: action, step: index + 1)
          checked = true
          break steps
        }
        let body = (try? TestSourceGenerator.changes(from: state, to: record.after, redaction: redaction))?
          .lines
        if let body, !body.isEmpty {
          lines.append("  await store.\(verb)(\(action)) {")
          lines += body.map { "    " + $0 }
          lines.append("  }")
        } else {
          lines.append("  await store.\(verb)(\(action))")
        }
        state = record.after
      }
      if case .send(let action) = step, !sentAction {
        lines.append(
          "  // Step \(index + 1) (.\(SafeDescription.member(action, redaction: redaction))) was stopped by a "
            + "middleware.")
      }
    }
    if !checked {
      if failure.steps.isEmpty, let invariant = failure.invariant, let expression = invariant.expression {
        lines.append("  // The initial state breaks \"\(invariant.name)\".")
        lines.append("  #expect(\(expression)(store.state))")
      } else {
        lines.append("  // The run ends where \(failure.kind): check it here.")
      }
    }
    lines += TestSourceGenerator.closing(stateType: stateType)
    return lines.joined(separator: "\n")
  }

  /// The lines that take the violating action and check the invariant instead of the state.
  ///
  /// A sent action is sent. An action an effect sent may not come at all once the bug is fixed
  /// (a cancelled search), so the test does not wait for it: it moves past the actions received
  /// so far and checks the invariant on that transition, or that nothing came.
  private static func check<State, Action>(
    _ failure: ExplorationFailure<State, Action>, verb: String, action: String, step: Int
  ) -> [String] {
    guard let invariant = failure.invariant else { return [] }
    let received = verb == "receive"
    var lines = [
      "  // Step \(step) breaks \"\(invariant.name)\""
        + (received ? " when an effect sends \(action)." : "."),
      "  // From here the test checks that invariant, not the state the run recorded.",
      "  store.exhaustivity = .off",
    ]
    let take = received ? "  store.skipReceivedActions()" : "  await store.send(\(action))"
    guard let expression = invariant.expression else {
      return lines + [
        take,
        "  // Give the invariant an expression (Invariant(_:expression:holds:)) to check it here.",
      ]
    }
    if invariant.isTransition {
      lines += ["  let before = store.state", take]
      lines.append(
        received
          ? "  #expect(store.state == before || \(expression)(before, \(action), store.state))"
          : "  #expect(\(expression)(before, \(action), store.state))")
    } else {
      lines += [take, "  #expect(\(expression)(store.state))"]
    }
    return lines
  }
}
