import Foundation
import Testing

/// `output` parsed with Foundation's parser, as a script would read it.
private func parsed(_ output: String) throws -> [String: Any] {
  try #require(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
}

@Suite struct JSONOutputCLITests {
  @Test func summaryAsJSON() throws {
    let output = try CLIRunner.chronicle("summary", try shopFile(), "--json").output
    #expect(
      output == #"{"entries":3,"effectEvents":0,"stateType":"Shop.State","actionType":"Shop.Action","#
        + #""origin":"2026-11-22T05:28:45.000Z","firstIndex":0,"lastIndex":2,"firstSeq":1,"lastSeq":4,"#
        + #""spanNanoseconds":2004000,"contexts":[{"name":"Cart","count":2},{"name":null,"count":1}],"#
        + #""causes":[{"name":"user","count":2},{"name":"thunk","count":1}],"#
        + #""actions":[{"name":"add","count":1},{"name":"checkout","count":1},{"name":"paid","count":1}],"#
        + #""slowest":[{"index":1,"seq":2,"type":"checkout","context":"Cart","#
        + #""cause":{"kind":"user","label":null,"parent":null},"durationNanoseconds":1200000,"outcome":"reduced"},"#
        + #"{"index":0,"seq":1,"type":"add","context":"Cart","cause":{"kind":"user","label":null,"parent":null},"#
        + #""durationNanoseconds":2500,"outcome":"reduced"},"#
        + #"{"index":2,"seq":4,"type":"paid","context":null,"cause":{"kind":"thunk","label":"pay","parent":2},"#
        + #""durationNanoseconds":800,"outcome":"reduced"}]}"# + "\n")
    let summary = try parsed(output)
    #expect(summary["entries"] as? Int == 3)
    #expect(summary["spanNanoseconds"] as? Int == 2_004_000)
    let contexts = try #require(summary["contexts"] as? [[String: Any]])
    #expect(contexts.map { $0["name"] as? String } == ["Cart", nil])
    #expect(contexts.map { $0["count"] as? Int } == [2, 1])
    let slowest = try #require(summary["slowest"] as? [[String: Any]])
    #expect(slowest.map { $0["index"] as? Int } == [1, 0, 2])
    #expect((slowest[2]["cause"] as? [String: Any])?["label"] as? String == "pay")
  }

  @Test func showAsJSONEmbedsTheActionAndTheStateAsJSON() throws {
    let output = try CLIRunner.chronicle("show", try shopFile(), "2", "--json").output
    #expect(
      output == #"{"entry":{"index":2,"seq":4,"type":"paid","context":null,"#
        + #""cause":{"kind":"thunk","label":"pay","parent":2},"durationNanoseconds":800,"outcome":"reduced"},"#
        + #""action":{"paid":{"_0":42}},"changes":["count: 1 → 0","items[0]: \"apple\" → (none)"],"#
        + #""stateAfter":{"count":0,"items":[]}}"# + "\n")
    let shown = try parsed(output)
    #expect(((shown["action"] as? [String: Any])?["paid"] as? [String: Any])?["_0"] as? Int == 42)
    #expect(shown["changes"] as? [String] == ["count: 1 → 0", #"items[0]: "apple" → (none)"#])
    #expect((shown["stateAfter"] as? [String: Any])?["count"] as? Int == 0)
  }

  @Test func showAsJSONHasNullsForWhatTheFileDoesNotHold() throws {
    let json = try shopFile()
    let stripped = URL(fileURLWithPath: json).deletingLastPathComponent().appendingPathComponent(
      "custom.json")
    try Data(
      #"{"payload":"[{\"type\":\"checkout\",\"payload\":{\"checkout\":{}}}]","preloadedState":"{}"}"#.utf8
    ).write(to: stripped)
    let shown = try parsed(try CLIRunner.chronicle("show", stripped.path, "0", "--json").output)
    #expect(shown["changes"] is NSNull)
    #expect(shown["stateAfter"] is NSNull)
  }

  @Test func filterAsJSONListsTheMatchesAndTheCounts() throws {
    let output = try CLIRunner.chronicle("filter", try shopFile(), "--text", "paid", "--json").output
    #expect(
      output == #"{"entries":[{"index":2,"seq":4,"type":"paid","context":null,"#
        + #""cause":{"kind":"thunk","label":"pay","parent":2},"durationNanoseconds":800,"outcome":"reduced"}],"#
        + #""matched":1,"total":3}"# + "\n")
    let filtered = try parsed(output)
    #expect((filtered["entries"] as? [[String: Any]])?.map { $0["seq"] as? Int } == [4])
    #expect(filtered["matched"] as? Int == 1)
    #expect(filtered["total"] as? Int == 3)
  }

  @Test func jsonStringsEscapeQuotesBackslashesAndControlCharacters() throws {
    let file = try CLIRunner.temporaryFolder().appendingPathComponent("odd.json")
    try Data(
      shopJournal.replacingOccurrences(of: #""context":"Cart""#, with: #""context":"a\"b\\c\n\u0001""#).utf8
    )
    .write(to: file)
    let summary = try parsed(try CLIRunner.chronicle("summary", file.path, "--json").output)
    #expect((summary["contexts"] as? [[String: Any]])?.first?["name"] as? String == "a\"b\\c\n\u{1}")
  }
}
