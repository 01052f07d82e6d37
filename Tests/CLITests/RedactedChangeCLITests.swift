import Foundation
import Testing

/// Two entries that change a redacted password: the file's states hold the placeholder on both
/// sides, and `redactedChanges` says which one changed.
private let loginJournal = """
  {"format":"chronicle.journal","version":1,"meta":{"state":{"type":"Login.State","encodable":true},\
  "action":{"type":"Login.Action","encodable":true},"origin":{"wallTime":1795325325000000000,\
  "iso8601":"2026-11-22T05:28:45.000Z"},"checkpointInterval":100,"firstIndex":0,"entryCount":2,"effectCount":0},\
  "baseState":{"user":"","password":"<redacted>"},"entries":[\
  {"index":0,"seq":1,"time":1000,"wallTime":1795325325000001000,"cause":{"kind":"user"},\
  "type":"password","action":{"password":{"_0":"<redacted>"}},"replayable":true,"outcome":"reduced",\
  "durations":{"chain":2500},"redactedChanges":[["password"]],"state":{"user":"","password":"<redacted>"}},\
  {"index":1,"seq":2,"time":5000,"wallTime":1795325325000005000,"cause":{"kind":"user"},\
  "type":"user","action":{"user":{"_0":"ann"}},"replayable":true,"outcome":"reduced",\
  "durations":{"chain":1200},"state":{"user":"ann","password":"<redacted>"}}],"effects":[]}
  """

private func loginFile(_ journal: String = loginJournal) throws -> String {
  let file = try CLIRunner.temporaryFolder().appendingPathComponent("login.json")
  try Data(journal.utf8).write(to: file)
  return file.path
}

@Suite struct RedactedChangeCLITests {
  @Test func showSaysThatARedactedValueChangedWithoutTheValue() throws {
    let result = try CLIRunner.chronicle("show", try loginFile(), "0")
    #expect(result.status == 0)
    #expect(
      result.output.contains(
        """
        changes:
          password: "<redacted>" → "<redacted>"
        state after:
        """))
  }

  @Test func diffOverSeveralEntriesListsTheRedactedValuesThatChanged() throws {
    #expect(
      try CLIRunner.chronicle("diff", try loginFile(), "0", "1").output == """
        from before entry 0 to after entry 1:
          user: "" → "ann"
          password: "<redacted>" → "<redacted>"

        """)
  }

  @Test func compareSaysThatARedactedValueChangedInOnlyOneJournal() throws {
    let (changed, unchanged) = (
      try loginFile(),
      try loginFile(loginJournal.replacingOccurrences(of: #""redactedChanges":[["password"]],"#, with: ""))
    )
    let result = try CLIRunner.chronicle("compare", changed, unchanged)
    #expect(
      result.output == """
        \(changed) and \(unchanged) differ at entry 0:
          \(changed): 0 #1 password user (2.5 µs)
          \(unchanged): 0 #1 password user (2.5 µs)
          state after:
            password: "<redacted>" → "<redacted>"

        """)
    #expect(result.status == 1)
  }
}
