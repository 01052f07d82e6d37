import ChronicleFormats
import ChronicleInspection
import Foundation

/// A property an ``Explorer`` found broken, shrunk: the minimal steps, the state change that
/// broke it, the run as a Journal JSON document and a viewer page, and a generated test.
///
/// Its `description` is the report a failed test prints:
///
/// ```text
/// Exploration broke "the selection is a todo" (seed 7, run 12: ExplorationConfiguration(seed: 7) ...).
/// Shrunk from 31 steps to 5, in 160 runs:
///   1. send .add("a")
///   ...
/// ```
public struct ExplorationFailure<State: Equatable & Codable & Sendable, Action: Equatable & Sendable>:
  Sendable,
  CustomStringConvertible
{
  /// What broke.
  public typealias Kind = ExplorationFailureKind

  /// What broke.
  public let kind: Kind
  /// The seed of the failing run: an ``ExplorationConfiguration`` with this seed runs it first.
  /// `nil` for steps given to ``Explorer/shrink(_:)``.
  public let seed: UInt64?
  /// The failing run's index among the runs of the exploration, when it came from one.
  public let run: Int?
  /// The steps of the failing run, up to the one during which it failed.
  public let originalSteps: [ExplorationStep<Action>]
  /// The shrunk steps: the last one is where the property breaks.
  public let steps: [ExplorationStep<Action>]
  /// The action that broke the invariant; `nil` for a failed effect and for an initial state
  /// that breaks an invariant.
  public let action: Action?
  /// The state before that action.
  public let stateBefore: State
  /// The state after it.
  public let stateAfter: State
  /// The changes from ``stateBefore`` to ``stateAfter`` (ChronicleInspection's diff; secrets
  /// redacted).
  public let changes: [StateDiff.Change]
  /// How many candidate runs shrinking took.
  public let shrinkRuns: Int
  /// The shrunk run as a Journal JSON document, its times the run's test clock's: the same seed
  /// gives the same bytes.
  public let journalJSON: Data
  /// The failing run before shrinking, as Journal JSON, when the configuration
  /// ``ExplorationConfiguration/recordsJournal``.
  public let originalJournalJSON: Data?
  /// Every action the shrunk run processed, for the generated test.
  let records: [ProcessedAction<State, Action>]
  /// The broken invariant, when it was one.
  let invariant: Invariant<State, Action>?
  /// The sequence number of the action that broke it, in the shrunk run.
  let violatingSequence: UInt64?
  /// The state every run starts from.
  let initialState: State

  init(
    explorer: Explorer<State, Action>, seed: UInt64?, run: Int?, originalSteps: [ExplorationStep<Action>],
    fallback: Violation<State, Action>, recorded: Explorer<State, Action>.Outcome, originalJournalJSON: Data?,
    shrinkRuns: Int
  ) {
    let violation = recorded.violation ?? fallback
    self.kind = violation.kind
    self.seed = seed
    self.run = run
    self.originalSteps = originalSteps
    self.steps = recorded.steps
    self.action = violation.action
    self.stateBefore = violation.before
    self.stateAfter = violation.after
    self.changes = StateDiff.changes(from: violation.before, to: violation.after)
    self.shrinkRuns = shrinkRuns
    self.records = recorded.records
    self.violatingSequence = violation.sequence
    self.initialState = explorer.initialState
    if case .invariant(let name) = violation.kind {
      self.invariant = explorer.invariants.first { $0.name == name }
    } else {
      self.invariant = nil
    }
    self.journalJSON =
      recorded.journal.map { ExplorationJournal.json($0, times: recorded.times) } ?? Data()
    self.originalJournalJSON = originalJournalJSON
  }

  /// The shrunk run as a self-contained HTML viewer page (ChronicleFormats' `JournalViewer`).
  ///
  /// - Parameter title: The page's title.
  public func viewerHTML(title: String = "Chronicle exploration") -> String {
    guard let document = try? JournalFile(data: journalJSON) else { return "" }
    return JournalViewer.html(for: document, title: title)
  }

  /// The source of a Swift Testing test that runs the shrunk steps on a ``TestStore``: see
  /// ``ExplorationTestOptions``.
  public func testSource(_ options: ExplorationTestOptions) -> String {
    ExplorationTestSource.source(for: self, options: options)
  }

  /// The report: what broke, the seed, the shrunk steps and the state change.
  public var description: String {
    var lines: [String] = []
    var origin = "Exploration \(kind)"
    if let seed, let run {
      origin += " (seed \(seed), run \(run): ExplorationConfiguration(seed: \(seed)) runs it first)."
    } else {
      origin += "."
    }
    lines.append(origin)
    lines.append(
      "Shrunk from \(originalSteps.count) step\(originalSteps.count == 1 ? "" : "s") to \(steps.count), in "
        + "\(shrinkRuns) run\(shrinkRuns == 1 ? "" : "s"):")
    for (index, step) in steps.enumerated() {
      lines.append("  \(index + 1). \(step)")
    }
    if steps.isEmpty { lines.append("  (the initial state)") }
    let after = action.map { " after .\(SafeDescription.member($0))" } ?? ""
    lines.append(changes.isEmpty ? "The state did not change\(after)." : "The state changed\(after):")
    lines += changes.map { "  \($0)" }
    return lines.joined(separator: "\n")
  }
}

/// What an ``Explorer`` found broken.
public enum ExplorationFailureKind: Sendable, Hashable, CustomStringConvertible {
  /// The invariant with this name returned `false`.
  case invariant(String)
  /// An effect threw an error that nothing caught; the payload describes it, with secrets
  /// redacted.
  case effectFailed(String)

  /// What broke, in words.
  public var description: String {
    switch self {
    case .invariant(let name): "broke \"\(name)\""
    case .effectFailed(let message): "an effect failed: \(message)"
    }
  }
}
