import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing
import TracerFixtures

@testable import ChronicleFormats
@testable import ChronicleTracer

@Suite struct ReduxDevToolsTests {
  @Test func theCustomFormHoldsTheActionsAndTheBaseStateAsJSONStrings() async throws {
    let (journal, _) = await recordedRun()
    let snapshot = journal.snapshot()
    let root = try jsonObject(snapshot.reduxDevTools(.custom))
    #expect(Set(root.keys) == ["payload", "preloadedState"])
    let payload = try #require(root["payload"] as? String)
    let preloaded = try #require(root["preloadedState"] as? String)
    let actions = try #require(JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [[String: Any]])
    #expect(actions.count == snapshot.count)
    #expect(actions.map { $0["type"] as? String } == snapshot.entries.map { ActionName.of($0.action) })
    for (action, entry) in zip(actions, snapshot.entries) {
      #expect(Set(action.keys) == ["type", "payload", "meta"])
      let meta = try #require(action["meta"] as? [String: Any])
      #expect(meta["seq"] as? Int == Int(entry.sequence))
      #expect(meta["replayable"] as? Bool == true)
      #expect(meta["outcome"] as? String == entry.outcome.rawValue)
    }
    let state = try #require(JSONSerialization.jsonObject(with: Data(preloaded.utf8)) as? [String: Any])
    #expect(state["count"] as? Int == 0)
  }

  @Test func theLiftedFormHasEveryComputedState() async throws {
    let (journal, _) = await recordedRun()
    let snapshot = journal.snapshot()
    let root = try jsonObject(snapshot.reduxDevTools(.liftedState))
    #expect(
      Set(root.keys) == [
        "actionsById", "computedStates", "stagedActionIds", "skippedActionIds", "committedState",
        "currentStateIndex", "nextActionId", "isLocked", "isPaused",
      ])
    let count = snapshot.count
    let actionsById = try #require(root["actionsById"] as? [String: [String: Any]])
    #expect(Set(actionsById.keys) == Set((0...count).map(String.init)))
    #expect(
      actionsById.values.allSatisfy { $0["type"] as? String == "PERFORM_ACTION" && $0["timestamp"] is Int })
    #expect((actionsById["0"]?["action"] as? [String: Any])?["type"] as? String == "@@INIT")
    for (offset, entry) in snapshot.entries.enumerated() {
      let action = try #require(actionsById[String(offset + 1)]?["action"] as? [String: Any])
      #expect(action["type"] as? String == ActionName.of(entry.action))
    }
    let computed = try #require(root["computedStates"] as? [[String: Any]])
    #expect(computed.count == count + 1)
    #expect(
      computed.map { ($0["state"] as? [String: Any])?["count"] as? Int }
        == [0] + snapshot.indices.map { snapshot.state(after: $0)?.count })
    #expect(root["stagedActionIds"] as? [Int] == Array(0...count))
    #expect(root["skippedActionIds"] as? [Int] == [])
    #expect((root["committedState"] as? [String: Any])?["count"] as? Int == 0)
    #expect(root["currentStateIndex"] as? Int == count)
    #expect(root["nextActionId"] as? Int == count + 1)
    #expect(root["isLocked"] as? Bool == false)
    #expect(root["isPaused"] as? Bool == false)
  }

  @Test(arguments: [ReduxDevToolsForm.custom, .liftedState])
  func bothFormsRoundTrip(form: ReduxDevToolsForm) async throws {
    let (journal, _) = await recordedRun(checkpointInterval: 2)
    let snapshot = journal.snapshot()
    let imported = try CounterJournal(
      reduxDevTools: snapshot.reduxDevTools(form), reducer: Counter(),
      configuration: .init(checkpointInterval: 2))
    let copy = imported.snapshot()
    #expect(copy.count == snapshot.count)
    for (a, b) in zip(copy.entries, snapshot.entries) {
      #expect(a.action == b.action && a.sequence == b.sequence && a.cause == b.cause)
      #expect(a.context == b.context && a.outcome == b.outcome)
    }
    for (a, b) in zip(copy.indices, snapshot.indices) {
      #expect(copy.state(after: a) == snapshot.state(after: b))
    }
    if form == .liftedState {
      #expect(copy.checkpoints.map(\.index) == [0, 2, 4, 6, 8])
    }
  }

  /// A journal with nothing recorded holds no base state: its lifted export has `null` for it
  /// (`committedState` and the first computed state) and imports back as a journal without one.
  @Test func theLiftedFormOfAJournalWithoutABaseStateImportsBack() throws {
    let journal = CounterJournal(reducer: Counter())
    #expect(journal.baseState == nil)
    let data = journal.snapshot().reduxDevTools(.liftedState)
    let root = try jsonObject(data)
    #expect(root["committedState"] is NSNull)
    let imported = try CounterJournal(reduxDevTools: data, reducer: Counter())
    #expect(imported.count == 0)
    #expect(imported.baseState == nil)
    #expect(try JournalFile(data: data).count == 0)
  }

  /// A lifted file with actions but a `null` base state imports with the state after the first
  /// action as its first checkpoint: the states after every action are the file's.
  @Test func aLiftedFileWithANullBaseStateStartsFromTheFirstComputedState() throws {
    let (store, journal) = makeTracedStore()
    for step in 1...3 { store.send(.add(step)) }
    var root = try jsonObject(journal.snapshot().reduxDevTools(.liftedState))
    root["committedState"] = NSNull()
    var computed = try #require(root["computedStates"] as? [[String: Any]])
    computed[0]["state"] = NSNull()
    root["computedStates"] = computed
    let imported = try CounterJournal(
      reduxDevTools: JSONSerialization.data(withJSONObject: root), reducer: Counter())
    #expect(imported.baseState == nil)
    #expect(imported.count == 3)
    #expect(imported.snapshot().checkpoints.map(\.index) == [1])
    #expect((1..<3).map { imported.state(after: $0)?.count } == [3, 6])
  }

  @Test func skippedActionsImportAsStopped() throws {
    let (store, journal) = makeTracedStore()
    for step in 1...3 { store.send(.add(step)) }
    var root = try jsonObject(journal.snapshot().reduxDevTools(.liftedState))
    root["skippedActionIds"] = [2]
    let data = try JSONSerialization.data(withJSONObject: root)
    let imported = try CounterJournal(reduxDevTools: data, reducer: Counter())
    #expect(imported.snapshot().entries.map(\.outcome) == [.reduced, .stopped, .reduced])
    #expect(imported.state(after: 2) == Counter.State(count: 4))
  }
}
