import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A one-entry journal whose entry index is `index` (its `firstIndex` too).
private func journal(index: String) -> String {
  """
  {"format":"chronicle.journal","version":1,"meta":{"state":{"type":"S","encodable":true},\
  "action":{"type":"A","encodable":true},"origin":{"wallTime":0},"checkpointInterval":100,\
  "firstIndex":0,"entryCount":1,"effectCount":0},"baseState":{"n":0},"entries":[\
  {"index":\(index),"seq":1,"time":0,"wallTime":0,"cause":{"kind":"user"},"type":"a","action":{"a":{}},\
  "replayable":true,"outcome":"reduced","durations":{"chain":1},"state":{"n":1}}],"effects":[]}
  """
}

/// `chronicle` on files no journal should be: the error in words and exit status 1, never a
/// crash or a hang.
@Suite struct CLIHostileInputTests {
  @Test func aFIFOIsRefusedWithoutBlocking() throws {
    let fifo = try CLIRunner.temporaryFolder().appendingPathComponent("journal.fifo")
    try #require(mkfifo(fifo.path, 0o600) == 0)
    let result = try CLIRunner.chronicle("summary", fifo.path)
    #expect(result.status == 1)
    #expect(result.errors == "chronicle: cannot read \(fifo.path): not a regular file\n")
  }

  @Test func anIndexOutOfRangeIsAnErrorInWords() throws {
    let file = try CLIRunner.temporaryFolder().appendingPathComponent("journal.json")
    try Data(journal(index: "9223372036854775807").utf8).write(to: file)
    for command in [["summary", file.path], ["show", file.path, "0"], ["filter", file.path]] {
      let result = try CLIRunner.run("chronicle", command)
      #expect(result.status == 1)
      #expect(
        result.errors
          == "chronicle: \(file.path): entries[0].index: 9223372036854775807 (valid: 0…9007199254740991)"
          + " is out of range\n")
    }
  }

  @Test func convertReplacesASymbolicLinkAtTheOutput() throws {
    let folder = try CLIRunner.temporaryFolder()
    let input = folder.appendingPathComponent("journal.json")
    try Data(journal(index: "0").utf8).write(to: input)
    let victim = folder.appendingPathComponent("victim.txt")
    try Data("keep me".utf8).write(to: victim)
    let output = folder.appendingPathComponent("out.json")
    try FileManager.default.createSymbolicLink(at: output, withDestinationURL: victim)
    let result = try CLIRunner.chronicle("convert", input.path, output.path, "--to", "chrome")
    #expect(result.status == 0)
    #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me")
    #expect(
      try FileManager.default.attributesOfItem(atPath: output.path)[.type] as? FileAttributeType
        == .typeRegular)
  }
}
