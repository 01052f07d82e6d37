import Foundation
import Testing

/// The custom form, written by hand: two actions (the second without `meta`) and the base state.
private let customForm = #"""
  {"payload":"[{\"type\":\"add\",\"payload\":{\"add\":{\"_0\":\"apple\"}},\"meta\":{\"seq\":1,\"index\":0,\"context\":\"Cart\",\"cause\":{\"kind\":\"user\"},\"replayable\":true,\"outcome\":\"reduced\"}},{\"type\":\"checkout\",\"payload\":{\"checkout\":{}}}]","preloadedState":"{\"count\":0,\"items\":[]}"}
  """#

private func write(_ text: String, as name: String) throws -> String {
  let file = try CLIRunner.temporaryFolder().appendingPathComponent(name)
  try Data(text.utf8).write(to: file)
  return file.path
}

/// The shop journal converted to the lifted-state form (it holds every state).
private func liftedShopFile() throws -> String {
  let json = try shopFile()
  let lifted = URL(fileURLWithPath: json).deletingLastPathComponent().appendingPathComponent("shop.redux")
    .path
  #expect(try CLIRunner.chronicle("convert", json, lifted, "--to", "redux").status == 0)
  return lifted
}

@Suite struct ReduxDevToolsCLITests {
  @Test func summaryReadsTheCustomForm() throws {
    let result = try CLIRunner.chronicle("summary", try write(customForm, as: "custom.json"))
    #expect(result.status == 0)
    #expect(
      result.output == """
        2 entries, 0 effect events
        state: ?
        action: ?
        entries 0…1, seq #1…#2, over 0 ns
        contexts: (none) 1, Cart 1
        causes: user 2
        actions: add 1, checkout 1
        slowest:
          0 #1 add [Cart] user (0 ns)
          1 #2 checkout user (0 ns)

        """)
  }

  @Test func showOfTheCustomFormHasTheActionButNoStateAfter() throws {
    #expect(
      try CLIRunner.chronicle("show", try write(customForm, as: "custom.json"), "1").output == """
        entry 1 (#2) checkout
        context: (none)
        cause: user
        duration: 0 ns
        outcome: reduced
        action: {
          "checkout": {}
        }
        state after: (not in this file)

        """)
  }

  @Test func showOfTheLiftedFormHasTheStateAfterAndTheChanges() throws {
    #expect(
      try CLIRunner.chronicle("show", try liftedShopFile(), "2").output == """
        entry 2 (#4) paid
        context: (none)
        cause: thunk "pay" ← #2
        duration: 0 ns
        outcome: reduced
        action: {
          "paid": {
            "_0": 42
          }
        }
        changes:
          count: 1 → 0
          items[0]: "apple" → (none)
        state after: {
          "count": 0,
          "items": []
        }

        """)
  }

  @Test func theLiftedFormHoldsTheSameActionsAndStatesAsTheJournalItCameFrom() throws {
    let lifted = try liftedShopFile()
    let json = URL(fileURLWithPath: lifted).deletingLastPathComponent().appendingPathComponent("shop.json")
      .path
    let result = try CLIRunner.chronicle("compare", json, lifted)
    #expect(result.output == "\(json) and \(lifted) are the same: 3 entries, the same actions and states\n")
    #expect(result.status == 0)
  }

  @Test func aBadCustomFormExitsWithOneNamingTheField() throws {
    let file = try write(#"{"payload":"[{\"payload\":1}]","preloadedState":"{}"}"#, as: "bad.json")
    let result = try CLIRunner.chronicle("summary", file)
    #expect(result.status == 1)
    #expect(result.errors == "chronicle: \(file): payload[0].type is missing\n")
  }

  @Test func aLiftedFormWithAnUnknownActionIDExitsWithOneNamingIt() throws {
    let file = try write(
      #"{"actionsById":{"0":{"type":"PERFORM_ACTION","action":{"type":"@@INIT"}}},"stagedActionIds":[0,1],"#
        + #""computedStates":[{"state":{}}]}"#, as: "bad.json")
    let result = try CLIRunner.chronicle("filter", file)
    #expect(result.status == 1)
    #expect(result.errors == "chronicle: \(file): actionsById.1 is missing\n")
  }

  @Test func theDemosReduxDevToolsFilesHoldTheActionsOfItsJournal() throws {
    let folder = try CLIRunner.temporaryFolder().appendingPathComponent("out")
    #expect(try CLIRunner.run("chronicle-demo", [folder.path]).status == 0)
    let json = folder.appendingPathComponent("journal.json").path
    let lifted = folder.appendingPathComponent("redux-devtools.json").path
    let custom = folder.appendingPathComponent("redux-devtools-custom.json").path
    #expect(
      try CLIRunner.chronicle("compare", json, lifted).output
        == "\(json) and \(lifted) are the same: 18 entries, the same actions and states\n")
    #expect(
      try CLIRunner.chronicle("compare", json, custom).output
        == "\(json) and \(custom) are the same: 18 entries, the same actions (not every state is in both files)\n"
    )
  }
}
