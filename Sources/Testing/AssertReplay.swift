import ChronicleFormats
import ChronicleInspection
import ChronicleStore
import ChronicleTimeTravel
import ChronicleTracer
import Foundation

/// Replays a journal file recorded by an app into `reducer`, and fails the test — at the line
/// of the call — if a recorded state differs from the replayed one, with the entry, its action
/// and cause, and the diff; if the file holds no recorded state to compare (a run shorter than
/// its checkpoint interval, exported without `ExportOptions(states: .everyEntry)`); or if the
/// file cannot be imported (another format, other types).
///
/// Record a bug, export the journal, add the file to the test target's resources, and:
///
/// ```swift
/// @Test func checkoutRegression() {
///   assertReplay(journal: Bundle.module.url(forResource: "checkout", withExtension: "json")!,
///                reducer: Checkout())
/// }
/// ```
///
/// Files ending in `.ndjson` are read as NDJSON streams (``/ChronicleFormats/NDJSONFileSink``),
/// others as Journal JSON. Replay runs reducers only (see ``/ChronicleTimeTravel/Replay``).
///
/// The failure message never shows a value marked as sensitive, nor one that `redaction`
/// selects: pass the policy of the app's logger and exports.
///
/// - Parameters:
///   - url: The journal file: Journal JSON, or NDJSON when its name ends in `.ndjson`.
///   - reducer: The reducer under test.
///   - redaction: Which values the failure message writes as `<redacted>`, besides those marked
///     as sensitive.
///   - fileID: The file of the call: where a failure is reported.
///   - filePath: That file's full path.
///   - line: The line of the call.
///   - column: The column of the call.
/// - Returns: The report, or `nil` when the file could not be imported.
@discardableResult
public func assertReplay<R: Reducer>(
  journal url: URL, reducer: R, redaction: Redaction = .default,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> ReplayReport<R.State, R.Action>? where R.State: Equatable & Decodable, R.Action: Decodable {
  let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
  let report: ReplayReport<R.State, R.Action>
  do throws(JournalImportError) {
    report =
      url.pathExtension == "ndjson"
      ? try Replay.verify(ndjson: url, reducer: reducer)
      : try Replay.verify(journalJSON: url, reducer: reducer)
  } catch {
    IssueReporter.fail("Cannot replay \(url.lastPathComponent): \(error)", at: site)
    return nil
  }
  ReplayAssertion.check(report, source: url.lastPathComponent, redaction: redaction, at: site)
  return report
}

/// Replays `journal` into `reducer`, and fails the test at the line of the call if a recorded
/// state differs from the replayed one, or if no state could be compared (see
/// ``assertReplay(journal:reducer:redaction:fileID:filePath:line:column:)``).
///
/// - Parameters:
///   - journal: The journal the store's tracer recorded.
///   - reducer: The reducer under test.
///   - finalState: The state the store reached, `store.state`, compared with the replayed state
///     after the last entry: a run shorter than the checkpoint interval has no other state to
///     compare.
///   - redaction: Which values the failure message writes as `<redacted>`, besides those marked
///     as sensitive.
///   - fileID: The file of the call: where a failure is reported.
///   - filePath: That file's full path.
///   - line: The line of the call.
///   - column: The column of the call.
@discardableResult
public func assertReplay<R: Reducer>(
  journal: Journal<R.State, R.Action>, reducer: R, finalState: R.State? = nil,
  redaction: Redaction = .default,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> ReplayReport<R.State, R.Action> where R.State: Equatable {
  let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
  let report = Replay.verify(journal, reducer: reducer, finalState: finalState)
  ReplayAssertion.check(report, source: "the journal", redaction: redaction, at: site)
  return report
}

/// The failure message of a replay that diverged.
enum ReplayAssertion {
  static func check<State, Action>(
    _ report: ReplayReport<State, Action>, source: String, redaction: Redaction, at site: CallSite
  ) {
    switch report.outcome {
    case .matched: return
    case .diverged:
      guard let divergence = report.divergence else { return }
      IssueReporter.fail(
        "Replay of \(source) diverged at \(divergence.description(redaction: redaction))", at: site)
    case .nothingCompared:
      IssueReporter.fail(
        """
        Replay of \(source) compared no state: \(report.replayedEntries) \
        \(report.replayedEntries == 1 ? "entry" : "entries") replayed, but no state \
        was recorded after the base state (a run shorter than the checkpoint interval). Pass the \
        store's state as finalState, lower the checkpoint interval, or export with \
        ExportOptions(states: .everyEntry).
        """, at: site)
    }
  }
}
