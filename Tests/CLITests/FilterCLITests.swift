import Foundation
import Testing

@Suite struct FilterCLITests {
  @Test func textDoesNotMatchTheCause() throws {
    #expect(try CLIRunner.chronicle("filter", try shopFile(), "--text", "user").output == "0 of 3 entries\n")
  }

  @Test func textMatchesTheStateAfterTheEntry() throws {
    // `checkout`'s action says nothing of apples; the state after it still holds one.
    #expect(
      try CLIRunner.chronicle("filter", try shopFile(), "--text", "APPLE").output == """
        0 #1 add [Cart] user (2.5 µs)
        1 #2 checkout [Cart] user (1.2 ms)
        2 of 3 entries

        """)
  }

  @Test func textMatchesTheAction() throws {
    #expect(
      try CLIRunner.chronicle("filter", try shopFile(), "--text", #""_0":42"#).output == """
        2 #4 paid thunk "pay" ← #2 (800 ns)
        1 of 3 entries

        """)
  }

  @Test func anUnknownContextExitsWithOneListingTheJournalsContexts() throws {
    let file = try shopFile()
    let result = try CLIRunner.chronicle("filter", file, "--context", "Checkout")
    #expect(result.status == 1)
    #expect(result.output == "")
    #expect(result.errors == "chronicle: \(file) has no context \"Checkout\" (contexts: \"Cart\")\n")
  }

  @Test func anUnknownContextInAJournalWithoutContextsSaysSo() throws {
    let file = try CLIRunner.temporaryFolder().appendingPathComponent("plain.json")
    try Data(shopJournal.replacingOccurrences(of: #""context":"Cart","#, with: "").utf8).write(to: file)
    #expect(
      try CLIRunner.chronicle("filter", file.path, "--context", "Cart").errors
        == "chronicle: \(file.path) has no context \"Cart\" (its entries have none)\n")
  }
}
