import Foundation

/// Explores a feature and records a test failure with the report when a property breaks: the
/// Swift Testing entry point (XCTest works too).
///
/// ```swift
/// @Test func todosKeepTheirSelection() async {
///   await assertExploration(
///     Explorer(
///       initialState: Todos.State(), reducer: { _ in Todos() }, actions: Todos.randomAction,
///       invariants: [Todos.selectionExists]),
///     test: ExplorationTestOptions(reducer: "Todos()"))
/// }
/// ```
///
/// The issue's comment is the failure's report — the seed, the shrunk steps, the state change —
/// followed by the generated test when `test` is given, and the paths of the journal and viewer
/// page when `artifacts` is.
///
/// - Parameters:
///   - explorer: The feature, its invariants and the budget.
///   - test: How to write the generated test; `nil` to leave it out of the report.
///   - artifacts: A directory to write the failing run to, as `exploration.journal.json` and
///     `exploration.html` (created if needed); `nil` to write nothing.
///   - fileID: The file of the call: where a failure is reported.
///   - filePath: That file's full path.
///   - line: The line of the call.
///   - column: The column of the call.
/// - Returns: The report, to look at further.
@discardableResult
public func assertExploration<State, Action>(
  _ explorer: Explorer<State, Action>, test: ExplorationTestOptions? = nil, artifacts: URL? = nil,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async -> ExplorationReport<State, Action> {
  let report = await explorer.explore()
  guard let failure = report.failure else { return report }
  var message = failure.description
  if let test {
    message += "\n\nA test that fails the same way:\n\n" + failure.testSource(test)
  }
  if let artifacts {
    let journal = artifacts.appendingPathComponent("exploration.journal.json")
    let viewer = artifacts.appendingPathComponent("exploration.html")
    do {
      try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
      try failure.journalJSON.write(to: journal, options: .atomic)
      try Data(failure.viewerHTML().utf8).write(to: viewer, options: .atomic)
      message += "\n\nJournal: \(journal.path)\nViewer: \(viewer.path)"
    } catch {
      message += "\n\nThe journal could not be written to \(artifacts.path): \(error)"
    }
  }
  IssueReporter.fail(message, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  return report
}
