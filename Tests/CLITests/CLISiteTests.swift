import Foundation
import Testing

/// `shopJournal` with call sites: the first entry sent from Shop/CartView.swift:12, the third
/// from Shop/Checkout.swift:40 by the thunk defined at Shop/Checkout.swift:31.
private func shopFileWithSites() throws -> String {
  let first = #""durations":{"chain":2500},"#
  let third = #""durations":{"chain":800},"#
  var text = shopJournal
  text = text.replacingOccurrences(
    of: first,
    with: first + #""site":{"fileID":"Shop/CartView.swift","line":12,"function":"body"},"#)
  text = text.replacingOccurrences(
    of: third,
    with: third
      + #""site":{"fileID":"Shop/Checkout.swift","line":40,"function":"pay"},"#
      + #""effectSite":{"fileID":"Shop/Checkout.swift","line":31,"function":"pay"},"#)
  let file = try CLIRunner.temporaryFolder().appendingPathComponent("shop-sites.json")
  try Data(text.utf8).write(to: file)
  return file.path
}

@Suite struct CLISiteTests {
  @Test func showNamesWhereTheActionWasSentAndWhereItsThunkWasCreated() throws {
    let output = try CLIRunner.chronicle("show", try shopFileWithSites(), "2").output
    #expect(output.contains("\nsent from: Shop/Checkout.swift:40 in pay\n"))
    #expect(output.contains("\neffect created at: Shop/Checkout.swift:31 in pay\n"))
  }

  @Test func filterBySiteKeepsTheEntriesSentFromThatFileOrLine() throws {
    let file = try shopFileWithSites()
    #expect(
      try CLIRunner.chronicle("filter", file, "--site", "CartView.swift:12").output == """
        0 #1 add [Cart] user (2.5 µs)
        1 of 3 entries

        """)
    #expect(
      try CLIRunner.chronicle("filter", file, "--site", "Shop/Checkout.swift").output.hasSuffix(
        "1 of 3 entries\n"))
    #expect(
      try CLIRunner.chronicle("filter", file, "--site", "Checkout.swift:31").output.hasSuffix(
        "1 of 3 entries\n"))
    #expect(
      try CLIRunner.chronicle("filter", file, "--site", "CartView.swift:13").output.hasSuffix(
        "0 of 3 entries\n"))
  }

  @Test func showJSONCarriesTheSites() throws {
    let output = try CLIRunner.chronicle("show", try shopFileWithSites(), "0", "--json").output
    #expect(output.contains(#""site":{"fileID":"Shop/CartView.swift","line":12,"function":"body"}"#))
  }
}
