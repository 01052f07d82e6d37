import ChronicleStore
import ChronicleTesting
import ChronicleTimeTravel
import ChronicleTracer
import Foundation
import Testing

private struct Adder: Reducer {
  struct State: Equatable, Sendable, Codable { var total = 0 }
  enum Action: Equatable, Sendable, Codable { case add(Int) }
  var bonus = 0
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if case .add(let amount) = action { state.total += amount + (amount == 2 ? bonus : 0) }
    return .none
  }
}

private struct Named: Reducer {
  struct State: Equatable, Sendable, Codable { var name = "" }
  enum Action: Equatable, Sendable, Codable { case rename(String) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}

private func recorded() -> Journal<Adder.State, Adder.Action> {
  let journal = Journal(reducer: Adder(), configuration: .init(checkpointInterval: 1))
  let store = Store(initialState: Adder.State(), reducer: Adder(), middleware: [.tracer(journal)])
  for amount in 1...3 { store.send(.add(amount)) }
  return journal
}

@Suite struct AssertReplayTests {
  @Test func aFaithfulReplayPasses() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: url) }
    try recorded().snapshot().writeJournalJSON(to: url)
    let report = assertReplay(journal: url, reducer: Adder())
    #expect(report?.succeeded == true)
    #expect(assertReplay(journal: recorded(), reducer: Adder()).verifiedStates == 2)
  }

  @Test func aReplayThatComparesNoStateFailsSayingSo() {
    let journal = Journal(reducer: Adder())
    let store = Store(initialState: Adder.State(), reducer: Adder(), middleware: [.tracer(journal)])
    for amount in 1...3 { store.send(.add(amount)) }
    let line = #line + 2
    withKnownIssue {
      assertReplay(journal: journal, reducer: Adder())
    } matching: { issue in
      issue.sourceLocation?.line == line
        && "\(issue)".contains("Replay of the journal compared no state: 3 entries replayed")
    }
  }

  @Test func aShortRunPassesWhenItsFinalStateIsGiven() {
    let journal = Journal(reducer: Adder())
    let store = Store(initialState: Adder.State(), reducer: Adder(), middleware: [.tracer(journal)])
    for amount in 1...3 { store.send(.add(amount)) }
    let report = assertReplay(journal: journal, reducer: Adder(), finalState: store.state)
    #expect(report.outcome == .matched)
    #expect(report.verifiedStates == 1)
  }

  @Test func aFileThatHoldsNoStateToCompareFails() throws {
    let journal = Journal(reducer: Adder())
    let store = Store(initialState: Adder.State(), reducer: Adder(), middleware: [.tracer(journal)])
    store.send(.add(1))
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: url) }
    try journal.snapshot().writeJournalJSON(to: url)
    withKnownIssue {
      assertReplay(journal: url, reducer: Adder())
    } matching: { issue in
      "\(issue)".contains("Replay of \(url.lastPathComponent) compared no state: 1 entry replayed")
    }
  }

  @Test func aDivergenceFailsAtTheCallersLine() {
    let line = #line + 2
    withKnownIssue {
      assertReplay(journal: recorded(), reducer: Adder(bonus: 1))
    } matching: { issue in
      issue.sourceLocation?.line == line && issue.sourceLocation?.fileID == #fileID
        && "\(issue)".contains("entry 1 (#2) add(2), cause user")
        && "\(issue)".contains("total: 3 → 4")
    }
  }

  @Test func aDivergenceFoundWithTheFinalStateAloneNamesTheRangeOfSuspects() {
    let journal = Journal(reducer: Adder())
    let store = Store(initialState: Adder.State(), reducer: Adder(), middleware: [.tracer(journal)])
    for amount in 1...5 { store.send(.add(amount)) }
    let line = #line + 2
    withKnownIssue {
      assertReplay(journal: journal, reducer: Adder(bonus: 1), finalState: store.state)
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.map(\.rawValue) == [
          """
          Replay of the journal diverged at entry 4 (#5) add(5), cause user, sent from \
          AssertReplayTests.swift:\(line - 3) in aDivergenceFoundWithTheFinalStateAloneNamesTheRangeOfSuspects(): \
          the replayed state differs \
          from the recorded one (expected → actual); the difference arose in entries 0...4
            total: 15 → 16
          """
        ]
    }
  }

  @Test func aFileOfOtherTypesFailsWithTheImportError() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: url) }
    try recorded().snapshot().writeJournalJSON(to: url)
    let line = #line + 2
    withKnownIssue {
      assertReplay(journal: url, reducer: Named())
    } matching: { issue in
      issue.sourceLocation?.line == line && "\(issue)".contains("type differs")
    }
  }
}
