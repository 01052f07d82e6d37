// Imports (issue 12): a 1,000,000-entry journal read back from Journal JSON and from an NDJSON
// stream, against Python's `json` module reading the same file in the same run: the counter's
// (one action, repeated) and the tally's (`.add(n)`, no action repeated).
//
// One iteration per scenario holds every sample (the harness drops iterations longer than two
// seconds from its JMH export): five imports, each timed in this process's CPU time, then five
// runs of `python3` reading the file, each timing its own CPU time with `resource.getrusage`
// (the interpreter's start-up is not counted). The scenario's teardown prints both lists on
// stderr for run.sh, which reports the ratio of the medians; the target is at most 0.5.

import Benchmark
import ChronicleFormats
import ChronicleStore
import ChronicleTracer
import Foundation

/// The samples per side.
private let importSamples = 5

/// What Python does with each file: the whole document at once, or one line at a time.
private let pythonReaders = [
  "journal-json": "json.load(open(path))",
  "ndjson": "[json.loads(line) for line in open(path)]",
]

/// The CPU seconds `python3` takes to read `url` with `reader`, measured by the interpreter.
private func pythonCPUNanoseconds(reading url: URL, with reader: String) -> Int64 {
  let script = """
    import json, resource, sys
    path = sys.argv[1]
    def cpu():
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime
    start = cpu()
    document = \(reader)
    print(int((cpu() - start) * 1e9))
    """
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["python3", "-c", script, url.path]
  let output = Pipe()
  process.standardOutput = output
  do {
    try process.run()
  } catch {
    fatalError("python3: \(error)")
  }
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus == 0,
    let nanoseconds = Int64(
      String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  else { fatalError("python3 failed on \(url.path)") }
  return nanoseconds
}

/// The files both sides read: `reducer`'s history of `actions` as Journal JSON, and the same
/// actions recorded through an NDJSON sink.
private func importFiles<R: Reducer>(
  _ reducer: R, initialState: R.State, actions: (Int) -> R.Action, recorded: Journal<R.State, R.Action>? = nil
) throws -> (json: URL, ndjson: URL) where R.State: Codable, R.Action: Codable {
  let json = exportFile("import.json")
  let journal = recorded ?? Journal(reducer: reducer, configuration: .init(maxEntries: nil, maxBytes: nil))
  if recorded == nil {
    let store = Store(initialState: initialState, reducer: reducer, middleware: [.tracer(journal)])
    for step in 0..<journalLength {
      store.send(actions(step))
    }
  }
  try journal.snapshot().writeJournalJSON(to: json)
  let ndjson = exportFile("import.ndjson")
  let sink = try NDJSONFileSink<R.State, R.Action>(url: ndjson)
  let streamed = Journal(reducer: reducer, configuration: .init(maxEntries: 10_000, sinks: [sink]))
  let store = Store(initialState: initialState, reducer: reducer, middleware: [.tracer(streamed)])
  for step in 0..<journalLength {
    store.send(actions(step))
  }
  sink.close()
  return (json, ndjson)
}

/// Imports `url` in `format` `importSamples` times, noting each import's CPU time; returns the
/// entries of the last.
private func timedImports<R: Reducer>(
  _ format: String, _ url: URL, reducer: R, samples: inout [Int64]
) throws -> Int where R.State: Codable, R.Action: Codable {
  var entries = 0
  for _ in 0..<importSamples {
    let cpu = processCPUNanoseconds()
    if format == "ndjson" {
      entries = try Journal<R.State, R.Action>.loadNDJSON(contentsOf: url, reducer: reducer).journal.count
    } else {
      entries = try Journal(contentsOfJournalJSON: url, reducer: reducer).count
    }
    samples.append(processCPUNanoseconds() - cpu)
  }
  return entries
}

func registerImportBenchmarks() {
  let configuration = Benchmark.Configuration(
    metrics: [.wallClock, .throughput], warmupIterations: 0, scalingFactor: .one, maxIterations: 1)

  // The counter's `.increment` over and over (actions repeat: the best case), and the tally's
  // `.add(n)` with n counting up (no action's text repeats: each is decoded anew).
  for format in ["journal-json", "ndjson"] {
    for newActions in [false, true] {
      let name = "import/\(format)-1M" + (newActions ? "-new-actions" : "")
      Benchmark(name, configuration: configuration) { benchmark in
        let url: URL
        var swiftSamples: [Int64] = []
        var entries = 0
        do {
          if newActions {
            let files = try importFiles(Tally(), initialState: Tally.State()) { .add($0) }
            url = format == "ndjson" ? files.ndjson : files.json
            benchmark.startMeasurement()
            entries = try timedImports(format, url, reducer: Tally(), samples: &swiftSamples)
          } else {
            let files = try importFiles(
              Counter(), initialState: Counter.State(), actions: { _ in .increment },
              recorded: counterHistory.journal)
            url = format == "ndjson" ? files.ndjson : files.json
            benchmark.startMeasurement()
            entries = try timedImports(format, url, reducer: Counter(), samples: &swiftSamples)
          }
        } catch {
          fatalError("\(error)")
        }
        benchmark.stopMeasurement()
        precondition(entries == journalLength, "\(entries) entries")
        let pythonSamples = (0..<importSamples).map { _ in
          pythonCPUNanoseconds(reading: url, with: pythonReaders[format] ?? "")
        }
        let line =
          "chronicle-import: \(benchmark.name) entries \(entries) bytes \(fileSize(url)) "
          + "cpu \(swiftSamples.map(String.init).joined(separator: ",")) "
          + "python \(pythonSamples.map(String.init).joined(separator: ","))"
        // The harness silences output while a benchmark runs: the teardown prints it.
        holdings.withLock { $0 = line }
        try? FileManager.default.removeItem(at: exportFile("import.json"))
        try? FileManager.default.removeItem(at: exportFile("import.ndjson"))
      } teardown: {
        printHoldings()
      }
    }
  }
}
