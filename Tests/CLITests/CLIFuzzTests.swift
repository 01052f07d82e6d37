import ChronicleFormats
import ChronicleStore
import ChronicleTracer
import Foundation
import Testing

@testable import ChronicleCLI

/// A counter to record the journals the command-line tool reads.
private struct Tally: Reducer {
  struct State: Equatable, Sendable, Codable { var count = 0 }
  enum Action: Equatable, Sendable, Codable { case add(Int) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard case .add(let amount) = action else { return .none }
    state.count &+= amount
    return .none
  }
}

/// Every command of `chronicle`, run in this process on files whose numbers sit at the edges of
/// their fields: each prints its report or the typed error in words, never traps.
@Suite struct CLIFuzzTests {
  private static let boundaries = [
    "0", "-1", "1", "9007199254740991", "9007199254740992", "4611686018427387904", "-4611686018427387904",
    "9223372036854775807", "-9223372036854775808", "18446744073709551615", "1e400",
  ]

  /// A Journal JSON file with every state, and the NDJSON stream of the same run.
  private func corpus() throws -> [(name: String, text: String)] {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "chronicle-cli-fuzz-\(UUID()).ndjson")
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Tally.State, Tally.Action>(url: url)
    let journal = Journal<Tally.State, Tally.Action>(reducer: Tally(), configuration: .init(sinks: [sink]))
    let store = Store(initialState: Tally.State(), reducer: Tally(), middleware: [.tracer(journal)])
    store.send(.add(1), context: "A")
    store.send(.add(2))
    sink.close()
    let json = journal.snapshot().journalJSON(options: ExportOptions(states: .everyEntry))
    return [
      ("journal.json", String(decoding: json, as: UTF8.self)),
      ("journal.ndjson", try String(contentsOf: url, encoding: .utf8)),
    ]
  }

  private func run(_ arguments: String...) -> Result<String, CLIError> {
    do throws(CLIError) {
      return .success(try CLICommand(parsing: arguments).run().output)
    } catch {
      return .failure(error)
    }
  }

  @Test func everyCommandOnBoundaryNumbersPrintsAReportOrAnError() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chronicle-cli-fuzz-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var reports = 0
    var errors = 0
    for (name, text) in try corpus() {
      let numbers = try NSRegularExpression(pattern: #"(?<=[:,\[])-?\d+"#).matches(
        in: text, range: NSRange(text.startIndex..., in: text))
      for match in numbers {
        for boundary in Self.boundaries {
          let mutated = (text as NSString).replacingCharacters(in: match.range, with: boundary)
          let file = folder.appendingPathComponent(name).path
          try Data(mutated.utf8).write(to: URL(fileURLWithPath: file))
          let out = folder.appendingPathComponent("out").path
          let results = [
            run("summary", file), run("show", file, "0"), run("show", file, "1"), run("diff", file, "0", "1"),
            run("filter", file, "--text", "add"), run("convert", file, out, "--to", "json"),
            run("convert", file, out, "--to", "ndjson"), run("convert", file, out, "--to", "chrome"),
            run("convert", file, out, "--to", "redux"), run("convert", file, out, "--to", "html"),
          ]
          for result in results {
            switch result {
            case .success(let report):
              reports += 1
              #expect(!report.isEmpty)
            case .failure(let error):
              errors += 1
              #expect(error.exitCode == 1)
              #expect(!error.description.isEmpty)
            }
          }
        }
      }
    }
    #expect(reports > 0 && errors > 0)
  }
}
