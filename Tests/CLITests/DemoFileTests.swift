import Foundation
import Testing

/// Runs `chronicle-demo` into a new folder and returns the folder.
private func runDemo(environment: [String: String]? = nil) throws -> (URL, CLIResult) {
  let folder = try CLIRunner.temporaryFolder().appendingPathComponent("out")
  return (folder, try CLIRunner.run("chronicle-demo", [folder.path], environment: environment))
}

/// The files the demo says it writes.
private let demoFiles = [
  "journal.json", "journal.ndjson", "trace.json", "redux-devtools.json", "redux-devtools-custom.json",
  "viewer.html",
]

@Suite struct DemoFileTests {
  @Test func theDemoWritesEveryFileItLists() throws {
    let (folder, result) = try runDemo()
    #expect(result.status == 0)
    for name in demoFiles {
      #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name)")
      #expect(result.output.contains("  \(name) "))
    }
    #expect(result.output.contains("Wrote to \(folder.path):"))
    #expect(!result.output.contains("correct horse"))
  }

  // On Linux: macOS always has `open`.
  #if os(Linux)
    @Test func theClosingHintGivesTheViewersPathAndFileURLWithoutAnOpenCommandWhereThereIsNone() throws {
      let emptyPath = try CLIRunner.temporaryFolder()
      let (folder, result) = try runDemo(environment: ["PATH": emptyPath.path])
      let viewer = folder.appendingPathComponent("viewer.html").path
      #expect(result.status == 0)
      #expect(
        result.output.hasSuffix(
          """

          Open the viewer in a browser:  \(viewer)
                                         file://\(viewer)
          Summarise the journal:  swift run chronicle summary \(folder.appendingPathComponent("journal.json").path)

          """))
    }

    @Test func theClosingHintSaysToRunXdgOpenWhereItIsOnThePath() throws {
      let bin = try CLIRunner.temporaryFolder()
      let opener = bin.appendingPathComponent("xdg-open")
      try Data("#!/bin/sh\n".utf8).write(to: opener)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: opener.path)
      let (folder, result) = try runDemo(environment: ["PATH": bin.path])
      let viewer = folder.appendingPathComponent("viewer.html").path
      #expect(result.output.contains("\n  or run:  xdg-open \(viewer)\n"))
    }

  #endif

  @Test func theStreamAndTheDocumentSummariseAlike() throws {
    let (folder, _) = try runDemo()
    let json = try CLIRunner.chronicle("summary", folder.appendingPathComponent("journal.json").path)
    let stream = try CLIRunner.chronicle("summary", folder.appendingPathComponent("journal.ndjson").path)
    #expect(json.status == 0)
    #expect(json.output == stream.output)
    #expect(json.output.contains("\nstate: Demo.DemoApp.State\naction: Demo.DemoApp.Action\n"))
  }

  @Test func theLoginIsFilteredShownAndDiffedWithThePasswordRedacted() throws {
    let (folder, _) = try runDemo()
    let file = folder.appendingPathComponent("journal.json").path
    let filtered = try CLIRunner.chronicle("filter", file, "--context", "LoginForm")
    let rows = filtered.output.split(separator: "\n").dropLast()
    #expect(rows.map { $0.split(separator: " ")[2] } == ["user", "password", "submitLogin"])
    let first = String(rows.first!.split(separator: " ")[0])
    let last = String(rows.last!.split(separator: " ")[0])
    let password = String(rows[rows.index(after: rows.startIndex)].split(separator: " ")[0])
    let shown = try CLIRunner.chronicle("show", file, password)
    #expect(
      shown.output.contains(
        "action: {\n  \"password\": {\n    \"_0\": \"<redacted>\"\n  }\n}\nchanges:\n"
          + "  password: \"<redacted>\" → \"<redacted>\"\n"))
    #expect(
      try CLIRunner.chronicle("diff", file, first, last).output == """
        from before entry \(first) to after entry \(last):
          user: "" → "ada"
          isLoggedIn: false → true
          password: "<redacted>" → "<redacted>"

        """)
    for name in demoFiles {
      let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
      #expect(!text.contains("correct horse"), "\(name) holds the password")
    }
  }

  @Test func theDemosJournalConvertsToEveryFormat() throws {
    let (folder, _) = try runDemo()
    let stream = folder.appendingPathComponent("journal.ndjson").path
    for format in ["json", "ndjson", "chrome", "redux", "html"] {
      let output = folder.appendingPathComponent("converted.\(format)").path
      let result = try CLIRunner.chronicle("convert", stream, output, "--to", format)
      #expect(result.status == 0, "\(format): \(result.errors)")
      #expect(FileManager.default.fileExists(atPath: output))
    }
  }
}
