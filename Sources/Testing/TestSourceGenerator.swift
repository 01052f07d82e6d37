import ChronicleFormats
import ChronicleInspection
import ChronicleMiddleware
import ChronicleStore
import ChronicleTimeTravel
import ChronicleTracer
import Foundation

/// Writes a Swift Testing test from a range of a recorded journal: the run as a ``TestStore``
/// test that a user pastes into a test target, where it passes.
///
/// ```swift
/// let source = try TestSourceGenerator.source(
///   from: journal.snapshot(), range: 10..<25, reducer: "Checkout()", imports: ["Checkout"])
/// try source.write(to: url, atomically: true, encoding: .utf8)
/// ```
///
/// The test starts from the recorded state before the range, then for each entry:
/// - a user action becomes `await store.send(.action) { … }` and an action sent by an effect,
///   thunk or timer `await store.receive(.action) { … }`;
/// - the change it made becomes assignments such as `$0.todos[2].done = true` when every changed
///   part is a number, a Boolean or a plain string at a property or array path, and otherwise
///   `$0 = try decode(#"…"#)`: the whole state from its JSON;
/// - with `clock`, the monotonic time between one entry and the next becomes
///   `await clock.advance(by: .nanoseconds(…))` before an action a timer sent.
///
/// Actions are written as `.` followed by their description (`.add(5)`,
/// `.rename("Ann")`), which is Swift for enums whose payloads are literals. Entries that a
/// middleware stopped are left out, with a comment.
///
/// The source never holds a secret: values marked as sensitive (a ``/ChronicleInspection/SensitiveValue``,
/// a ``/ChronicleInspection/Redacted`` property) and values the `redaction` policy selects are written
/// `<redacted>` in actions and `"<redacted>"` in states, as every export writes them, and a
/// comment at the top of the test asks for test values in their place.
public enum TestSourceGenerator {
  /// Why a test could not be generated.
  public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The range holds no entry of the journal.
    case emptyRange
    /// The state before the range is not known (the journal never recorded a state).
    case noState
    /// A state could not be encoded as JSON: the message says why.
    case unencodableState(String)

    /// The failure in words.
    public var description: String {
      switch self {
      case .emptyRange: "the range holds no entry of the journal"
      case .noState: "the journal has no state before the range"
      case .unencodableState(let message): "a state cannot be encoded: \(message)"
      }
    }
  }

  /// The source of a test file replaying `range` of `snapshot`.
  ///
  /// - Parameters:
  ///   - snapshot: The recorded run.
  ///   - range: The entries to turn into steps; `nil` for all of them.
  ///   - reducer: The Swift expression that creates the reducer, e.g. `Counter()`.
  ///   - imports: Modules to import besides `ChronicleTesting`, `Foundation` and `Testing`,
  ///     e.g. the app's module (`@testable import App` is written for names starting with `@`).
  ///   - testName: The test function's name.
  ///   - clock: The name of a `TestClock` the reducer expression uses, to advance before timer
  ///     actions; `nil` to write no clock advances.
  ///   - stateType: The state type as the test target names it; defaults to
  ///     `String(reflecting: State.self)`, the module-qualified name.
  ///   - redaction: Which values to write as `<redacted>`, besides those marked as sensitive.
  /// - Returns: The file's text.
  public static func source<State: Codable & Sendable, Action: Sendable>(
    from snapshot: JournalSnapshot<State, Action>, range: Range<Int>? = nil, reducer: String,
    imports: [String] = [], testName: String = "recordedRun", clock: String? = nil,
    stateType: String? = nil, redaction: Redaction = .default
  ) throws(Failure) -> String {
    let range = (range ?? snapshot.indices).clamped(to: snapshot.indices)
    guard !range.isEmpty else { throw .emptyRange }
    guard var state = snapshot.state(before: range.lowerBound) else { throw .noState }
    let stateType = stateType ?? String(reflecting: State.self)
    var lines = ["import ChronicleTesting", "import Foundation", "import Testing"]
    for module in imports {
      lines.append(module.hasPrefix("@") ? module : "import \(module)")
    }
    lines += [
      "",
      "@Test func \(testName)() async throws {",
    ]
    if let clock { lines.append("  // Assumes `\(clock)` is the TestClock that `\(reducer)` uses.") }
    let redactedNote = lines.count
    let initial = try literal(state, redaction: redaction)
    var redacted = initial.redacted
    lines += [
      "  let store = TestStore(",
      "    initialState: try decode(\(initial.text)),",
      "    reducer: \(reducer))",
    ]
    var previousTime: Duration?
    for index in range {
      let entry = snapshot.entries[index]
      let action = SafeDescription.member(entry.action, redaction: redaction)
      redacted = redacted || action.contains(Redaction.placeholder)
      guard entry.outcome == .reduced else {
        lines.append("  // Entry \(index) (.\(action)) was stopped by a middleware.")
        continue
      }
      // A journal with a state before the range has one after each of its entries.
      guard let after = snapshot.state(after: index) else { throw .noState }
      if let clock, entry.cause.kind == .timer, let previousTime, entry.time > previousTime {
        let nanoseconds = (entry.time - previousTime).components
        let total = nanoseconds.seconds * 1_000_000_000 + nanoseconds.attoseconds / 1_000_000_000
        lines.append("  await \(clock).advance(by: .nanoseconds(\(total)))")
      }
      previousTime = entry.time
      let verb = entry.cause.kind == .user ? "send" : "receive"
      let body = try changes(from: state, to: after, redaction: redaction)
      redacted = redacted || body.redacted
      if body.lines.isEmpty {
        lines.append("  await store.\(verb)(.\(action))")
      } else {
        lines.append("  await store.\(verb)(.\(action)) {")
        lines += body.lines.map { "    " + $0 }
        lines.append("  }")
      }
      state = after
    }
    if redacted {
      lines.insert(
        "  // <redacted> marks a secret the recording hid: put a test value in its place.", at: redactedNote)
    }
    lines += TestSourceGenerator.closing(stateType: stateType)
    return lines.joined(separator: "\n")
  }

  /// The end of a generated test: the closing brace of its function, and the helper that decodes
  /// the recorded states it compares with.
  static func closing(stateType: String) -> [String] {
    [
      "}",
      "",
      "/// Decodes a recorded state from its JSON.",
      "private func decode(_ json: String) throws -> \(stateType) {",
      "  try JSONDecoder().decode(\(stateType).self, from: Data(json.utf8))",
      "}",
      "",
    ]
  }

  /// The statements that turn `old` into `new` inside a `send` or `receive` closure, and
  /// whether they write a value as `<redacted>`.
  static func changes<State: Encodable>(
    from old: State, to new: State, redaction: Redaction = .default
  ) throws(Failure) -> (lines: [String], redacted: Bool) {
    let changes = StateDiff.changes(from: old, to: new, redaction: redaction)
    var assignments: [String] = []
    for change in changes {
      guard change.kind == .changed, let value = change.new, isLiteral(value),
        let path = assignablePath(change.path)
      else {
        let state = try literal(new, redaction: redaction)
        return (["$0 = try decode(\(state.text))"], state.redacted)
      }
      assignments.append("$0\(path) = \(value)")
    }
    return (assignments, false)
  }

  /// The path as Swift member and subscript accesses, when it has only properties and indices.
  static func assignablePath(_ path: ValuePath) -> String? {
    guard !path.components.isEmpty else { return nil }
    var text = ""
    for component in path.components {
      switch component {
      case .property(let name):
        guard let first = name.first, first.isLetter || first == "_",
          name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else { return nil }
        text += "." + name
      case .index(let index): text += "[\(index)]"
      case .key, .case: return nil
      }
    }
    return text
  }

  /// Whether `value` as rendered is a Swift literal of the part's type: an integer, a
  /// floating-point number, a Boolean, or a string without escapes.
  static func isLiteral(_ value: String) -> Bool {
    if value == "true" || value == "false" { return true }
    if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
      let inner = value.dropFirst().dropLast()
      return !inner.contains("\\") && !inner.contains("\"")
    }
    let digits = value.hasPrefix("-") ? value.dropFirst() : Substring(value)
    let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
    return !digits.isEmpty && parts.count <= 2
      && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
  }

  /// `state` as JSON in a raw string literal, keys sorted and secrets written `"<redacted>"`,
  /// and whether it holds one.
  static func literal<State: Encodable>(
    _ state: State, redaction: Redaction = .default
  ) throws(Failure) -> (text: String, redacted: Bool) {
    let json: (text: String, redacted: Bool)
    do {
      json = try RedactedJSON.text(of: state, redaction: redaction)
    } catch {
      throw .unencodableState(SafeDescription.of(error, redaction: redaction))
    }
    var hashes = "#"
    while json.text.contains("\"" + hashes) { hashes += "#" }
    return (hashes + "\"" + json.text + "\"" + hashes, json.redacted)
  }
}
