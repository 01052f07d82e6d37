import ChronicleFormats
import ChronicleStore
import ChronicleTimeTravel
import Foundation
import Testing

/// `Tally` with a regression: adding 3 adds 4.
struct BrokenTally: Reducer {
  func reduce(into state: inout Tally.State, action: Tally.Action) -> Effect<Tally.Action> {
    if case .add(3) = action {
      state.count += 4
      state.log.append(3)
      return .none
    }
    return Tally().reduce(into: &state, action: action)
  }
}

/// `Tally` with a regression: adding `amount` adds one more.
private struct WrongAt: Reducer {
  let amount: Int
  func reduce(into state: inout Tally.State, action: Tally.Action) -> Effect<Tally.Action> {
    _ = Tally().reduce(into: &state, action: action)
    if action == .add(amount) { state.count += 1 }
    return .none
  }
}

/// A store of another feature, whose journals replay must refuse.
struct Other: Reducer {
  struct State: Equatable, Sendable, Codable { var name = "" }
  enum Action: Equatable, Sendable, Codable { case rename(String) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if case .rename(let name) = action { state.name = name }
    return .none
  }
}

/// A journal of `.add(1)` … `.add(count)`, recorded by a live store.
func recordedJournal(count: Int = 6, interval: Int = 2, maxEntries: Int? = nil) -> TallyJournal {
  let journal = TallyJournal(
    reducer: Tally(), configuration: .init(checkpointInterval: interval, maxEntries: maxEntries))
  let store = TallyStore(initialState: Tally.State(), reducer: Tally(), middleware: [.tracer(journal)])
  for amount in 1...count { store.send(.add(amount), context: "Screen") }
  return journal
}

func temporaryURL(_ name: String) -> URL {
  FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)")
}

@Suite struct ReplayTests {
  @Test func aFaithfulReducerVerifiesEveryCheckpoint() {
    let report = Replay.verify(recordedJournal(count: 6, interval: 2), reducer: Tally())
    #expect(report.succeeded)
    #expect(report.replayedEntries == 6)
    #expect(report.verifiedStates == 2)
  }

  @Test func aRunShorterThanTheCheckpointIntervalComparesNothingAndDoesNotSucceed() {
    let report = Replay.verify(recordedJournal(count: 3, interval: 100), reducer: Tally())
    #expect(report.outcome == .nothingCompared)
    #expect(!report.succeeded)
    #expect(report.verifiedStates == 0)
    #expect(report.replayedEntries == 3)
    #expect(report.divergence == nil)
  }

  @Test func anEmptyJournalComparesNothing() {
    let journal = TallyJournal(reducer: Tally())
    #expect(Replay.verify(journal, reducer: Tally()).outcome == .nothingCompared)
  }

  @Test func theFinalStateGivenIsComparedWithTheStateAfterTheLastEntry() {
    let report = Replay.verify(
      recordedJournal(count: 3, interval: 100), reducer: Tally(), finalState: tally([1, 2, 3]))
    #expect(report.outcome == .matched)
    #expect(report.succeeded)
    #expect(report.verifiedStates == 1)
  }

  @Test func aFinalStateTheReplayDoesNotReachIsADivergenceAtTheLastEntry() throws {
    let report = Replay.verify(
      recordedJournal(count: 3, interval: 100), reducer: BrokenTally(), finalState: tally([1, 2, 3]))
    #expect(report.outcome == .diverged)
    let divergence = try #require(report.divergence)
    #expect(divergence.index == 2)
    #expect(divergence.firstSuspect == 0)
    #expect(divergence.diff == "count: 6 → 7")
  }

  @Test func aFinalStateAloneNamesTheFirstUnverifiedEntryAsSuspectAndTheRange() throws {
    let report = Replay.verify(
      recordedJournal(count: 5, interval: 100), reducer: WrongAt(amount: 2),
      finalState: tally([1, 2, 3, 4, 5]))
    let divergence = try #require(report.divergence)
    #expect(divergence.index == 4)
    #expect(divergence.firstSuspect == 0)
    #expect(report.verifiedStates == 0)
    #expect(
      divergence.description == """
        entry 4 (#5) add(5), cause user, context Screen, sent from ReplayTests.swift:44 in \
        recordedJournal(count:interval:maxEntries:): the replayed state differs from the recorded \
        one (expected → actual); the difference arose in entries 0...4
          count: 15 → 16
        """)
  }

  @Test func aFinalStateAfterAVerifiedCheckpointSuspectsOnlyTheEntriesAfterIt() throws {
    let report = Replay.verify(
      recordedJournal(count: 7, interval: 4), reducer: WrongAt(amount: 6),
      finalState: tally([1, 2, 3, 4, 5, 6, 7]))
    let divergence = try #require(report.divergence)
    #expect(divergence.index == 6)
    #expect(divergence.firstSuspect == 4)
    #expect(report.verifiedStates == 1)
  }

  @Test func aChangedReducerIsReportedAtTheCheckpointAfterTheChange() throws {
    let report = Replay.verify(recordedJournal(count: 6, interval: 2), reducer: BrokenTally())
    let divergence = try #require(report.divergence)
    #expect(divergence.index == 3)
    #expect(divergence.firstSuspect == 2)
    #expect(divergence.sequence == 4)
    #expect(divergence.action == .add(4))
    #expect(divergence.cause == .user)
    #expect(divergence.context == "Screen")
    #expect(divergence.expected == tally([1, 2, 3, 4]))
    #expect(divergence.diff == "count: 10 → 11")
    #expect(report.verifiedStates == 1)
    #expect(
      divergence.description == """
        entry 3 (#4) add(4), cause user, context Screen, sent from ReplayTests.swift:44 in \
        recordedJournal(count:interval:maxEntries:): the replayed state differs from the recorded \
        one (expected → actual); the difference arose in entries 2...3
          count: 10 → 11
        """)
  }

  @Test func everyEntryStatesInAJournalJSONFilePinTheEntry() throws {
    let url = temporaryURL("tally.json")
    defer { try? FileManager.default.removeItem(at: url) }
    try recordedJournal(count: 6, interval: 4).snapshot().writeJournalJSON(
      to: url, options: ExportOptions(states: .everyEntry))
    let good = try Replay.verify(journalJSON: url, reducer: Tally())
    #expect(good.succeeded)
    #expect(good.verifiedStates == 7)
    let report = try Replay.verify(journalJSON: url, reducer: BrokenTally())
    let divergence = try #require(report.divergence)
    #expect(divergence.index == 2)
    #expect(divergence.firstSuspect == 2)
    #expect(divergence.action == .add(3))
    #expect(divergence.diff == "count: 6 → 7")
    #expect(report.replayedEntries == 3)
  }

  @Test func anNDJSONStreamReplaysAgainstItsCheckpoints() throws {
    let url = temporaryURL("tally.ndjson")
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Tally.State, Tally.Action>(url: url)
    let journal = TallyJournal(reducer: Tally(), configuration: .init(checkpointInterval: 2, sinks: [sink]))
    let store = TallyStore(initialState: Tally.State(), reducer: Tally(), middleware: [.tracer(journal)])
    for amount in 1...6 { store.send(.add(amount)) }
    sink.close()
    #expect(try Replay.verify(ndjson: url, reducer: Tally()).succeeded)
    let divergence = try #require(try Replay.verify(ndjson: url, reducer: BrokenTally()).divergence)
    #expect(divergence.index == 3)
    #expect(divergence.diff == "count: 10 → 11")
  }

  @Test func aCommittedBeginningReplaysFromTheBaseState() throws {
    let journal = recordedJournal(count: 40, interval: 2, maxEntries: 16)
    #expect(journal.committedCount > 0)
    let report = Replay.verify(journal, reducer: Tally())
    #expect(report.succeeded)
    #expect(report.replayedEntries == journal.count)
    let data = journal.snapshot().journalJSON(options: ExportOptions(states: .everyEntry))
    #expect(try Replay.verify(journalJSON: data, reducer: Tally()).succeeded)
  }

  @Test func aJournalOfOtherTypesIsRefusedWithTheImportError() throws {
    let data = recordedJournal().snapshot().journalJSON()
    #expect {
      _ = try Replay.verify(journalJSON: data, reducer: Other())
    } throws: { error in
      guard case .typeMismatch(.state, _, _, _) = error as? JournalImportError else { return false }
      return true
    }
  }

  @Test func aMissingFileIsAnUnreadableFileError() {
    let url = temporaryURL("missing.json")
    #expect(throws: JournalImportError.unreadableFile(path: url.path, errno: 2)) {
      _ = try Replay.verify(journalJSON: url, reducer: Tally())
    }
  }

  @Test func givenStatesAreComparedBeforeTheCheckpointAtTheSamePosition() throws {
    let snapshot = recordedJournal(count: 6, interval: 2).snapshot()
    var states: [Int: Tally.State] = [:]
    for index in 0..<6 { states[index] = tally(Array(1...(index + 1))) }
    let good = Replay.verify(snapshot, reducer: Tally(), statesAfter: states)
    #expect(good.succeeded)
    // Six given states and the interval checkpoints at 2 and 4 (6 is not recorded yet).
    #expect(good.verifiedStates == 8)
    #expect(good.replayedEntries == 6)
    let report = Replay.verify(snapshot, reducer: BrokenTally(), statesAfter: states)
    let divergence = try #require(report.divergence)
    #expect(divergence.index == 2)
    #expect(divergence.firstSuspect == 2)
    #expect(divergence.sequence == 3)
    #expect(divergence.action == .add(3))
    #expect(divergence.context == "Screen")
    #expect(divergence.expected == tally([1, 2, 3]))
    #expect(divergence.actual == Tally.State(count: 7, log: [1, 2, 3]))
    #expect(divergence.diff == "count: 6 → 7")
    #expect(report.replayedEntries == 3)
    #expect(report.verifiedStates == 3)
  }

  @Test func givenStatesOutsideTheJournalAreIgnored() {
    let snapshot = recordedJournal(count: 6, interval: 2).snapshot()
    let report = Replay.verify(
      snapshot, reducer: Tally(), statesAfter: [-1: Tally.State(count: 99), 6: Tally.State(count: 99)])
    #expect(report.succeeded)
    #expect(report.verifiedStates == 2)
  }

  @Test func replayContinuesFromAResyncCheckpointAndSuspectsTheEntriesAfterIt() throws {
    let journal = TallyJournal(reducer: Tally(), configuration: .init(checkpointInterval: 4))
    let store = TallyStore(initialState: Tally.State(), reducer: Tally(), middleware: [.tracer(journal)])
    store.send(.add(1))
    store.send(.add(2))
    journal.pause()
    store.send(.add(100))
    journal.resume()
    for amount in 3...7 { store.send(.add(amount)) }
    let snapshot = journal.snapshot()
    #expect(snapshot.checkpoints.map(\.index) == [0, 2, 6])
    #expect(snapshot.checkpoints.map(\.kind) == [.resync, .resync, .interval])
    let good = Replay.verify(snapshot, reducer: Tally())
    #expect(good.succeeded)
    #expect(good.replayedEntries == 7)
    #expect(good.verifiedStates == 1)
    let report = Replay.verify(snapshot, reducer: BrokenTally())
    let divergence = try #require(report.divergence)
    #expect(divergence.index == 5)
    #expect(divergence.firstSuspect == 2)
    #expect(divergence.action == .add(6))
    #expect(divergence.expected == tally([1, 2, 100, 3, 4, 5, 6]))
    #expect(divergence.diff == "count: 121 → 122")
    #expect(report.replayedEntries == 6)
    #expect(report.verifiedStates == 0)
  }

  @Test func actionsAMiddlewareStoppedAreNotReplayed() {
    let stopResets = AnyMiddleware<Tally.State, Tally.Action>(name: "stopResets") { action, _, next in
      if action == .reset { return }
      next(action)
    }
    let journal = TallyJournal(reducer: Tally(), configuration: .init(checkpointInterval: 2))
    let store = TallyStore(
      initialState: Tally.State(), reducer: Tally(),
      middleware: [.tracer(journal), stopResets, .tracerProbe(journal)])
    for action: Tally.Action in [.add(1), .reset, .add(2), .reset, .add(3)] { store.send(action) }
    let snapshot = journal.snapshot()
    #expect(snapshot.entries.map(\.outcome) == [.reduced, .stopped, .reduced, .stopped, .reduced])
    let report = Replay.verify(snapshot, reducer: Tally())
    #expect(report.succeeded)
    #expect(report.replayedEntries == 5)
    #expect(report.verifiedStates == 2)
  }

  @Test func aJournalOfManyChunksReplaysEveryEntry() {
    let journal = TallyJournal(reducer: Tally(), configuration: .init(maxEntries: nil, maxBytes: nil))
    let store = TallyStore(initialState: Tally.State(), reducer: Tally(), middleware: [.tracer(journal)])
    for _ in 0..<3_000 { store.send(.add(1)) }
    let report = Replay.verify(journal, reducer: Tally())
    #expect(report.succeeded)
    #expect(report.replayedEntries == 3_000)
    // The interval checkpoints at 100, 200, … 2,900.
    #expect(report.verifiedStates == 29)
  }

  @Test func replayRunsNoEffect() {
    let runs = EffectRuns()
    let journal = TallyJournal(reducer: Tally(effectRuns: runs), configuration: .init(checkpointInterval: 1))
    let store = TallyStore(
      initialState: Tally.State(), reducer: Tally(effectRuns: EffectRuns()), middleware: [.tracer(journal)])
    store.send(.load)
    store.send(.add(1))
    #expect(Replay.verify(journal, reducer: Tally(effectRuns: runs)).succeeded)
    #expect(runs.value == 0)
  }
}
