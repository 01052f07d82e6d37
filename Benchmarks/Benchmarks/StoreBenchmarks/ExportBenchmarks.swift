// Exports (issue 4): a 1,000,000-entry counter journal written as Journal JSON (its actions all
// `.increment`, whose JSON the writer keeps after the first), the same with the tally's `.add(n)`,
// n counting up (every action encoded anew: the worst case), and 100,000 and 1,000,000 actions
// streamed to an NDJSON file as they are recorded. One export per iteration,
// one iteration per scenario (the harness runs each scenario in a process of its own).
//
// Each scenario times itself and prints what it wrote, how long it took, and the process's
// resident memory before and its peak after (Linux `VmHWM`), on stderr for run.sh: the harness
// drops an iteration longer than two seconds from its JMH export (its throughput, a whole number
// of iterations per second, rounds to 0), and a Journal JSON export of 1,000,000 entries takes
// about four.

import Benchmark
import ChronicleFormats
import ChronicleStore
import ChronicleTracer
import Foundation

/// A file in a fresh temporary folder of this process.
func exportFile(_ name: String) -> URL {
  exportFolder.appendingPathComponent(name)
}

/// This process's temporary folder, made at its first use and removed, with what is left in it,
/// when the process exits.
private let exportFolder: URL = {
  let folder = exportFolderPath()
  try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  atexit { try? FileManager.default.removeItem(at: exportFolderPath()) }
  return folder
}()

private func exportFolderPath() -> URL {
  FileManager.default.temporaryDirectory.appendingPathComponent(
    "chronicle-benchmarks-\(ProcessInfo.processInfo.processIdentifier)")
}

/// The resident memory of this process, now (`VmRSS`) or at its peak (`VmHWM`), in bytes (Linux;
/// 0 elsewhere).
func residentBytes(peak: Bool = false) -> Int {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
  let key = peak ? "VmHWM:" : "VmRSS:"
  guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key) }) else { return 0 }
  let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
  return kilobytes * 1024
}

/// Runs `body` once, timed.
func timed(_ body: () throws -> Void) rethrows -> Duration {
  let start = ContinuousClock.now
  try body()
  return start.duration(to: .now)
}

/// The size of the file at `url`.
func fileSize(_ url: URL) -> Int {
  ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
}

/// Records what an export wrote, for the teardown to print.
func noteExport(_ name: String, bytes: Int, entries: Int, elapsed: Duration, residentBefore: Int) {
  let nanoseconds =
    elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
  holdings.withLock {
    $0 =
      "chronicle-export: \(name) wrote \(bytes) bytes, \(entries) entries in \(nanoseconds) ns, "
      + "resident before \(residentBefore), peak \(residentBytes(peak: true))"
  }
}

/// Every sample of the export scenarios (CPU and wall nanoseconds, bytes written), by scenario.
nonisolated(unsafe) var exportSamples: [String: [(cpu: Int64, wall: Int64, bytes: Int, entries: Int)]] = [:]

/// Runs `body` once, noting its CPU time (this process's), wall time and what it wrote.
func sampleExport(_ name: String, url: URL, entries: Int, _ body: () throws -> Void) rethrows -> Duration {
  let cpu = processCPUNanoseconds()
  let elapsed = try timed(body)
  let nanoseconds =
    elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
  exportSamples[name, default: []].append(
    (processCPUNanoseconds() - cpu, nanoseconds, fileSize(url), entries))
  return elapsed
}

/// Prints a scenario's samples for run.sh: `chronicle-export-samples: <name> entries <n> bytes <b>
/// cpu <ns>,… wall <ns>,…`.
func printExportSamples(_ name: String) {
  let samples = exportSamples[name] ?? []
  FileHandle.standardError.write(
    Data(
      ("chronicle-export-samples: \(name) entries \(samples.last?.entries ?? 0) bytes \(samples.last?.bytes ?? 0) "
        + "cpu \(samples.map { String($0.cpu) }.joined(separator: ",")) "
        + "wall \(samples.map { String($0.wall) }.joined(separator: ","))\n").utf8))
}

/// Writes `snapshot` as Journal JSON, timed as the file's comment says.
private func timedJournalJSONExport<State: Sendable, Action: Sendable>(
  _ benchmark: Benchmark, _ snapshot: JournalSnapshot<State, Action>
) {
  let url = exportFile("journal.json")
  let before = residentBytes()
  benchmark.startMeasurement()
  let elapsed = sampleExport(benchmark.name, url: url, entries: snapshot.count) {
    do {
      try snapshot.writeJournalJSON(to: url)
    } catch {
      fatalError("\(error)")
    }
  }
  benchmark.stopMeasurement()
  noteExport(
    benchmark.name, bytes: fileSize(url), entries: snapshot.count, elapsed: elapsed, residentBefore: before)
  try? FileManager.default.removeItem(at: url)
}

func registerExportBenchmarks() {
  // Five samples each: one export (or one recording) per iteration, timed by the scenario itself.
  let configuration = Benchmark.Configuration(
    metrics: [.wallClock, .throughput], warmupIterations: 0, scalingFactor: .one,
    maxDuration: .seconds(120), maxIterations: 5)

  // The whole 1,000,000-entry journal (recorded once, before measuring) to a file per iteration.
  for newActions in [false, true] {
    let name = "export/journal-json" + (newActions ? "-new-actions" : "")
    Benchmark(name, configuration: configuration) { benchmark in
      if newActions {
        let journal = Journal(reducer: Tally(), configuration: .init(maxEntries: nil, maxBytes: nil))
        let store = Store(initialState: Tally.State(), reducer: Tally(), middleware: [.tracer(journal)])
        for step in 0..<journalLength {
          store.send(.add(step))
        }
        timedJournalJSONExport(benchmark, journal.snapshot())
      } else {
        timedJournalJSONExport(benchmark, counterHistory.journal.snapshot())
      }
    } teardown: {
      printHoldings()
      printExportSamples(name)
    }
  }

  // Recording with an NDJSON sink: one line per action, appended as it happens. The journal keeps
  // at most 10,000 entries, so what grows with the run's length would be the sink's.
  for actions in [100_000, 1_000_000] {
    Benchmark("export/ndjson-stream-\(actions / 1_000)k", configuration: configuration) { benchmark in
      let url = exportFile("journal-\(actions).ndjson")
      let before = residentBytes()
      let sink: NDJSONFileSink<Counter.State, Counter.Action>
      do {
        sink = try NDJSONFileSink(url: url)
      } catch {
        fatalError("\(error)")
      }
      benchmark.startMeasurement()
      let elapsed = sampleExport(benchmark.name, url: url, entries: actions) {
        let journal = Journal(
          reducer: Counter(), configuration: .init(maxEntries: 10_000, sinks: [sink]))
        let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [.tracer(journal)])
        for _ in 0..<actions {
          store.send(.increment)
        }
        sink.close()
      }
      benchmark.stopMeasurement()
      precondition(sink.error == nil && sink.linesWritten >= actions, "\(sink.linesWritten) lines")
      noteExport(
        benchmark.name, bytes: fileSize(url), entries: actions, elapsed: elapsed, residentBefore: before)
      try? FileManager.default.removeItem(at: url)
    } teardown: {
      printHoldings()
      printExportSamples("export/ndjson-stream-\(actions / 1_000)k")
    }
  }
}
