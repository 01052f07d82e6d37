// The journal's byte cap with large actions and with a state past the cap (issue 24, items 4 and
// 5), one scenario per process so that its peak resident memory is its own. Run by byte-cap.sh,
// which builds this in release mode against the library in this checkout:
//
//   byte-cap payloads-traced      2,000 actions of 200 KB each, journal capped at 8 MiB
//   byte-cap payloads-untraced    the same actions, no tracer
//   byte-cap growing-traced       20,000 actions each adding 1 KB to the state, capped at 8 MiB
//   byte-cap growing-untraced     the same actions, no tracer
//   byte-cap flat-traced          20,000 actions each adding 1 KB to one flat array, capped at 8 MiB
//   byte-cap flat-untraced        the same actions, no tracer
import ChronicleStore
import ChronicleTracer
import Foundation

/// Actions that carry 200 KB each; the state keeps a count.
struct Payloads: Reducer {
  enum Action: Sendable { case payload([UInt8]) }

  func reduce(into state: inout Int, action: Action) -> Effect<Action> {
    state += 1
    return .none
  }
}

/// A state that grows by a 1 KB record per action.
struct Growing: Reducer {
  struct State: Sendable { var records: [[UInt8]] = [] }
  enum Action: Sendable { case add(UInt8) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if case .add(let byte) = action { state.records.append([UInt8](repeating: byte, count: 1_024)) }
    return .none
  }
}

/// A state that is one array growing by 1 KB per action.
struct Flat: Reducer {
  enum Action: Sendable { case add(UInt8) }

  func reduce(into state: inout [UInt8], action: Action) -> Effect<Action> {
    if case .add(let byte) = action { state.append(contentsOf: repeatElement(byte, count: 1_024)) }
    return .none
  }
}

/// The resident memory of this process at its peak (`VmHWM`), in bytes; 0 where there is no
/// /proc.
func peakResidentBytes() -> Int {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
  for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
    let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return kilobytes * 1_024
  }
  return 0
}

/// The CPU time of this process so far, in seconds.
func cpuSeconds() -> Double {
  var usage = rusage()
  #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &usage)
  #else
    getrusage(RUSAGE_SELF, &usage)
  #endif
  return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
    + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

let cap = 8 << 20
let scenario = CommandLine.arguments.dropFirst().first ?? ""
let start = ContinuousClock.now
let cpuStart = cpuSeconds()
var held = ""

switch scenario {
case "payloads-traced", "payloads-untraced":
  let journal = Journal<Int, Payloads.Action>(
    reducer: Payloads(), configuration: .init(maxEntries: nil, maxBytes: cap))
  let middleware: [AnyMiddleware<Int, Payloads.Action>] =
    scenario == "payloads-traced" ? [.tracer(journal)] : []
  let store = Store(initialState: 0, reducer: Payloads(), middleware: middleware)
  for step in 0..<2_000 {
    store.send(.payload([UInt8](repeating: UInt8(truncatingIfNeeded: step), count: 200_000)))
  }
  held =
    "entries \(journal.count) committed \(journal.committedCount) approximateBytes \(journal.approximateBytes)"
case "growing-traced", "growing-untraced":
  let journal = Journal<Growing.State, Growing.Action>(
    reducer: Growing(), configuration: .init(maxEntries: nil, maxBytes: cap))
  let middleware: [AnyMiddleware<Growing.State, Growing.Action>] =
    scenario == "growing-traced" ? [.tracer(journal)] : []
  let store = Store(initialState: Growing.State(), reducer: Growing(), middleware: middleware)
  for step in 0..<20_000 { store.send(.add(UInt8(truncatingIfNeeded: step))) }
  let overrun = journal.byteCapOverrun.map { "index \($0.index) stateBytes \($0.stateBytes)" } ?? "none"
  held =
    "entries \(journal.count) committed \(journal.committedCount) approximateBytes \(journal.approximateBytes)"
    + " overrun \(overrun) records \(store.state.records.count)"
case "flat-traced", "flat-untraced":
  let journal = Journal<[UInt8], Flat.Action>(
    reducer: Flat(), configuration: .init(maxEntries: nil, maxBytes: cap))
  let middleware: [AnyMiddleware<[UInt8], Flat.Action>] = scenario == "flat-traced" ? [.tracer(journal)] : []
  let store = Store(initialState: [UInt8](), reducer: Flat(), middleware: middleware)
  for step in 0..<20_000 { store.send(.add(UInt8(truncatingIfNeeded: step))) }
  held =
    "entries \(journal.count) committed \(journal.committedCount) approximateBytes \(journal.approximateBytes)"
    + " bytes \(store.state.count)"
default:
  FileHandle.standardError.write(Data("unknown scenario \(scenario)\n".utf8))
  exit(2)
}

let elapsed = ContinuousClock.now - start
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print(
  "byte-cap: \(scenario) seconds \(String(format: "%.3f", seconds))"
    + " cpu \(String(format: "%.3f", cpuSeconds() - cpuStart)) peakRSS \(peakResidentBytes()) \(held)")
