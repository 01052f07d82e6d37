import ChronicleInspection

/// How ``ExplorationFailure/testSource(_:)`` writes its test: the Swift expressions that make the
/// feature in the test target, and the names it uses.
///
/// ```swift
/// let source = failure.testSource(
///   ExplorationTestOptions(reducer: "Search(clock: clock)", imports: ["Search"]))
/// ```
///
/// The test declares `let clock = TestClock()` when an expression mentions `clock` or a step
/// moves the clock, so `reducer` and `middleware` can use it.
public struct ExplorationTestOptions: Sendable {
  /// The expression that makes the reducer, e.g. `Todos()` or `Search(clock: clock)`.
  public var reducer: String
  /// The expression of the middlewares, e.g. `[.thunks()]`; `nil` for none.
  public var middleware: String?
  /// Modules to import besides `ChronicleClocks`, `ChronicleTesting`, `Foundation` and
  /// `Testing` (a name starting with `@` is written as it is: `@testable import App`).
  public var imports: [String]
  /// The test function's name.
  public var testName: String
  /// The state type as the test target names it; `nil`: its module-qualified name.
  public var stateType: String?
  /// Which values to write as `<redacted>`, besides those marked as sensitive.
  public var redaction: Redaction

  /// Creates options.
  ///
  /// - Parameters:
  ///   - reducer: The expression that makes the reducer.
  ///   - middleware: The expression of the middlewares; `nil` for none.
  ///   - imports: Modules to import, such as the feature's.
  ///   - testName: The test function's name.
  ///   - stateType: The state type as the test target names it.
  ///   - redaction: Which values to write as `<redacted>`.
  public init(
    reducer: String, middleware: String? = nil, imports: [String] = [], testName: String = "exploredFailure",
    stateType: String? = nil, redaction: Redaction = .default
  ) {
    self.reducer = reducer
    self.middleware = middleware
    self.imports = imports
    self.testName = testName
    self.stateType = stateType
    self.redaction = redaction
  }
}
