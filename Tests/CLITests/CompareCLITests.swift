import Foundation
import Testing

/// The shop journal with `change` applied, in a new file.
private func shopFile(changing original: String, to replacement: String) throws -> String {
  #expect(shopJournal.contains(original))
  let file = try CLIRunner.temporaryFolder().appendingPathComponent("other.json")
  try Data(shopJournal.replacingOccurrences(of: original, with: replacement).utf8).write(to: file)
  return file.path
}

@Suite struct CompareCLITests {
  @Test func aJournalAndItsNDJSONStreamAreTheSame() throws {
    let file = try shopFile()
    let stream = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent("shop.ndjson")
      .path
    #expect(try CLIRunner.chronicle("convert", file, stream, "--to", "ndjson").status == 0)
    let result = try CLIRunner.chronicle("compare", file, stream)
    #expect(result.output == "\(file) and \(stream) are the same: 3 entries, the same actions and states\n")
    #expect(result.status == 0)
  }

  @Test func aDifferentActionIsShownWithItsDiffAndExitsWithOne() throws {
    let (file, other) = (try shopFile(), try shopFile(changing: #""_0":42"#, to: #""_0":43"#))
    let result = try CLIRunner.chronicle("compare", file, other)
    #expect(
      result.output == """
        \(file) and \(other) differ at entry 2:
          \(file): 2 #4 paid thunk "pay" ← #2 (800 ns)
          \(other): 2 #4 paid thunk "pay" ← #2 (800 ns)
          action:
            paid._0: 42 → 43

        """)
    #expect(result.status == 1)
  }

  @Test func aDifferentStateAfterTheSameActionIsShownWithItsDiff() throws {
    let (file, other) = (
      try shopFile(),
      try shopFile(
        changing: #"{"chain":1200000},"state":{"count":1"#, to: #"{"chain":1200000},"state":{"count":2"#)
    )
    let result = try CLIRunner.chronicle("compare", file, other)
    #expect(
      result.output == """
        \(file) and \(other) differ at entry 1:
          \(file): 1 #2 checkout [Cart] user (1.2 ms)
          \(other): 1 #2 checkout [Cart] user (1.2 ms)
          state after:
            count: 1 → 2

        """)
    #expect(result.status == 1)
  }

  @Test func aDifferentBaseStateDiffersBeforeTheFirstEntry() throws {
    let (file, other) = (
      try shopFile(), try shopFile(changing: #""baseState":{"count":0"#, to: #""baseState":{"count":5"#)
    )
    let result = try CLIRunner.chronicle("compare", file, other)
    #expect(
      result.output == """
        \(file) and \(other) differ before their first entry:
          state before:
            count: 0 → 5

        """)
    #expect(result.status == 1)
  }

  @Test func aJournalThatStopsEarlierDiffersAtTheFirstEntryItLacks() throws {
    let file = try shopFile()
    let stream = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent("shop.ndjson")
    #expect(try CLIRunner.chronicle("convert", file, stream.path, "--to", "ndjson").status == 0)
    let lines = try String(contentsOf: stream, encoding: .utf8).split(separator: "\n")
    try Data(lines.dropLast().map { $0 + "\n" }.joined().utf8).write(to: stream)
    let result = try CLIRunner.chronicle("compare", file, stream.path)
    #expect(
      result.output == """
        \(file) and \(stream.path) differ at entry 2: only \(file) has it (3 and 2 entries)
          \(file): 2 #4 paid thunk "pay" ← #2 (800 ns)

        """)
    #expect(result.status == 1)
  }

  @Test func aFileThatCannotBeReadExitsWithTwoAsCmpDoes() throws {
    let absent = try CLIRunner.temporaryFolder().appendingPathComponent("absent.json").path
    let result = try CLIRunner.chronicle("compare", try shopFile(), absent)
    #expect(result.status == 2)
    #expect(result.errors == "chronicle: cannot read \(absent): No such file or directory\n")
  }
}

@Suite struct UsageCLITests {
  @Test func theUsageListsCompareFollowAndJSONWithCompareExitStatus() throws {
    let help = try CLIRunner.chronicle("help").output
    #expect(help.contains("\n  compare A B  "))
    #expect(help.contains("\n  follow FILE [--for N]  "))
    #expect(help.contains("\n  summary FILE [--json]  "))
    #expect(help.contains("compare, as cmp and diff: 0 the same, 1 different, 2 trouble.\n"))
  }
}
