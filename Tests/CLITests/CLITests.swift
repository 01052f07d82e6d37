import Foundation
import Testing

/// A three-entry journal with every state, written by hand so that every output is known exactly.
let shopJournal = """
  {"format":"chronicle.journal","version":1,"meta":{"state":{"type":"Shop.State","encodable":true},\
  "action":{"type":"Shop.Action","encodable":true},"origin":{"wallTime":1795325325000000000,\
  "iso8601":"2026-11-22T05:28:45.000Z"},"checkpointInterval":100,"firstIndex":0,"entryCount":3,"effectCount":0},\
  "baseState":{"count":0,"items":[]},"entries":[\
  {"index":0,"seq":1,"time":1000,"wallTime":1795325325000001000,"context":"Cart","cause":{"kind":"user"},\
  "type":"add","action":{"add":{"_0":"apple"}},"replayable":true,"outcome":"reduced","durations":{"chain":2500},\
  "state":{"count":1,"items":["apple"]}},\
  {"index":1,"seq":2,"time":5000,"wallTime":1795325325000005000,"context":"Cart","cause":{"kind":"user"},\
  "type":"checkout","action":{"checkout":{}},"replayable":true,"outcome":"reduced","durations":{"chain":1200000},\
  "state":{"count":1,"items":["apple"]}},\
  {"index":2,"seq":4,"time":2005000,"wallTime":1795325325002005000,\
  "cause":{"kind":"thunk","parent":2,"effect":1,"label":"pay"},"type":"paid","action":{"paid":{"_0":42}},\
  "replayable":true,"outcome":"reduced","durations":{"chain":800},"state":{"count":0,"items":[]}}],"effects":[]}
  """

/// Writes the hand-written journal into a new folder and returns its path.
func shopFile() throws -> String {
  let file = try CLIRunner.temporaryFolder().appendingPathComponent("shop.json")
  try Data(shopJournal.utf8).write(to: file)
  return file.path
}

@Suite struct CLITests {
  @Test func summaryCountsContextsCausesAndTheSlowestActions() throws {
    let result = try CLIRunner.chronicle("summary", try shopFile())
    #expect(result.status == 0)
    #expect(
      result.output == """
        3 entries, 0 effect events
        state: Shop.State
        action: Shop.Action
        origin: 2026-11-22T05:28:45.000Z
        entries 0…2, seq #1…#4, over 2.0 ms
        contexts: Cart 2, (none) 1
        causes: user 2, thunk 1
        actions: add 1, checkout 1, paid 1
        slowest:
          1 #2 checkout [Cart] user (1.2 ms)
          0 #1 add [Cart] user (2.5 µs)
          2 #4 paid thunk "pay" ← #2 (800 ns)

        """)
  }

  @Test func showPrintsTheEntryItsChangesAndTheStateAfter() throws {
    let result = try CLIRunner.chronicle("show", try shopFile(), "2")
    #expect(result.status == 0)
    #expect(
      result.output == """
        entry 2 (#4) paid
        context: (none)
        cause: thunk "pay" ← #2
        duration: 800 ns
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

  @Test func diffComparesTheStateBeforeTheFirstEntryWithTheStateAfterTheSecond() throws {
    let file = try shopFile()
    #expect(
      try CLIRunner.chronicle("diff", file, "0", "1").output == """
        from before entry 0 to after entry 1:
          count: 0 → 1
          items[0]: (none) → "apple"

        """)
    #expect(
      try CLIRunner.chronicle("diff", file, "0", "2").output
        == "from before entry 0 to after entry 2:\n  no change\n")
  }

  @Test func filterKeepsTheEntriesOfAContextThatContainTheText() throws {
    let file = try shopFile()
    #expect(
      try CLIRunner.chronicle("filter", file, "--context", "Cart", "--text", "ADD").output == """
        0 #1 add [Cart] user (2.5 µs)
        1 of 3 entries

        """)
    #expect(try CLIRunner.chronicle("filter", file, "--text", "paid").output.hasSuffix("1 of 3 entries\n"))
  }

  @Test func convertingToNDJSONAndBackKeepsEveryEntryAndState() throws {
    let file = try shopFile()
    let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
    let stream = folder.appendingPathComponent("shop.ndjson").path
    let back = folder.appendingPathComponent("back.json").path
    #expect(
      try CLIRunner.chronicle("convert", file, stream, "--to", "ndjson").output
        == "wrote \(stream) (ndjson, 3 entries)\n")
    #expect(try CLIRunner.chronicle("convert", stream, back, "--to", "json").status == 0)
    let lines = try String(contentsOfFile: stream, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 4)
    #expect(lines[0].hasPrefix(#"{"format":"chronicle.journal.ndjson","version":1,"meta":"#))
    #expect(try CLIRunner.chronicle("summary", back).output == CLIRunner.chronicle("summary", file).output)
    #expect(
      try CLIRunner.chronicle("show", back, "2").output == CLIRunner.chronicle("show", file, "2").output)
  }

  @Test func convertWritesChromeTraceReduxDevToolsAndTheViewer() throws {
    let file = try shopFile()
    let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
    for format in ["chrome", "redux", "html"] {
      let output = folder.appendingPathComponent("shop.\(format)").path
      #expect(try CLIRunner.chronicle("convert", file, output, "--to", format).status == 0)
    }
    let trace = try JSONSerialization.jsonObject(
      with: Data(contentsOf: folder.appendingPathComponent("shop.chrome")))
    let events = (trace as? [String: Any])?["traceEvents"] as? [[String: Any]] ?? []
    #expect(
      events.filter { $0["ph"] as? String == "X" }.map { $0["name"] as? String } == [
        "add", "checkout", "paid",
      ])
    #expect(events.filter { $0["ph"] as? String == "s" || $0["ph"] as? String == "f" }.count == 2)
    let redux = try JSONSerialization.jsonObject(
      with: Data(contentsOf: folder.appendingPathComponent("shop.redux")))
    #expect((redux as? [String: Any])?["computedStates"].map { ($0 as? [Any])?.count } == 4)
    let html = try String(contentsOf: folder.appendingPathComponent("shop.html"), encoding: .utf8)
    #expect(html.contains("<title>shop.json</title>"))
  }

  @Test func aWrongCommandLineExitsWithTwoAndTheUsage() throws {
    let unknown = try CLIRunner.chronicle("frobnicate")
    #expect(unknown.status == 2)
    #expect(
      unknown.errors.hasPrefix("chronicle: unknown command \"frobnicate\"\n\nusage: chronicle <command>"))
    let missing = try CLIRunner.chronicle("convert", "a.json", "b.json")
    #expect(missing.status == 2)
    #expect(missing.errors.hasPrefix("chronicle: convert needs --to FORMAT\n"))
    let format = try CLIRunner.chronicle("convert", "a.json", "b.json", "--to", "xml")
    #expect(
      format.errors.hasPrefix(#"chronicle: unknown format "xml" (known: json, ndjson, chrome, redux, html)"#))
    let help = try CLIRunner.chronicle("--help")
    #expect(help.status == 0)
    #expect(help.output.hasPrefix("usage: chronicle <command> [arguments]\n"))
  }

  @Test func aBadFileExitsWithOneAndTheTracersErrorInWords() throws {
    let folder = try CLIRunner.temporaryFolder()
    let bad = folder.appendingPathComponent("bad.json")
    try Data(#"{"format":"chronicle.journal","version":1,"meta":{},"entries":[{"index":0}]}"#.utf8).write(
      to: bad)
    let missing = try CLIRunner.chronicle("summary", bad.path)
    #expect(missing.status == 1)
    #expect(missing.errors == "chronicle: \(bad.path): meta.origin is missing\n")
    try Data(#"{"format":"other"}"#.utf8).write(to: bad)
    #expect(
      try CLIRunner.chronicle("summary", bad.path).errors
        == "chronicle: \(bad.path): not a chronicle.journal file (format: \"other\")\n")
    let absent = folder.appendingPathComponent("absent.json").path
    #expect(
      try CLIRunner.chronicle("summary", absent).errors
        == "chronicle: cannot read \(absent): No such file or directory\n")
    let outOfRange = try CLIRunner.chronicle("show", try shopFile(), "7")
    #expect(outOfRange.status == 1)
    #expect(outOfRange.errors.hasSuffix("has no entry 7 (entries 0…2)\n"))
  }
}
