// Sends N actions through one scenario and exits: `HotPath SCENARIO N`. Run under callgrind by
// `Benchmarks/callgrind.sh`, twice per scenario (N and 2N actions), so that everything but the N
// extra actions (start-up, set-up, warm-up) cancels in the difference.
//
// The scenarios are those of the benchmark package (StoreBenchmarks), on the same Counter, declared
// here so that the store is specialized for it in this client module as in an application. The
// journals of the tracer and time-travel scenarios use the default configuration and are filled past
// their 100,000-entry cap before the measured actions, so the measured actions include the commits
// of a long session (one every 6,250 actions), as `tracer/record-growing` does.

import ChronicleFormats
import ChronicleStore
import ChronicleTimeTravel
import ChronicleTracer
import Foundation

struct Counter: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
  }

  enum Action: Equatable, Sendable {
    case increment
    case decrement
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += 1
    case .decrement: state.count -= 1
    }
    return .none
  }
}

/// A reducer whose `tap` returns an effect sending `increment`: each action sent is two processed.
struct Relay: Reducer {
  typealias State = Counter.State

  enum Action: Equatable, Sendable {
    case tap
    case increment
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tap: return .send(.increment)
    case .increment: state.count += 1
    }
    return .none
  }
}

/// The counter again, `Codable`, for the formats' scenarios (the store's scenarios keep theirs as
/// an application without a journal file would).
struct Ledger: Reducer {
  struct State: Equatable, Sendable, Codable {
    var count = 0
  }

  enum Action: Equatable, Sendable, Codable {
    case increment
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

/// A running total whose action carries a payload: what the sink benchmarks send
/// (SinkBenchmarks.swift), for the sink scenario whose actions are each new.
struct Tally: Reducer {
  struct State: Equatable, Sendable, Codable {
    var total = 0
  }

  enum Action: Equatable, Sendable, Codable {
    case add(Int)
    case reset
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let amount): state.total &+= amount
    case .reset: state.total = 0
    }
    return .none
  }
}

/// `Tally` with an action that writes its own JSON (`JournalJSONWritable`), one line per case: the
/// same bytes as its `Codable` conformance.
struct SelfWritingTally: Reducer {
  typealias State = Tally.State

  enum Action: Equatable, Sendable, Codable, JournalJSONWritable {
    case add(Int)
    case reset

    func writeJournalJSON(to json: inout JournalJSONWriter) {
      switch self {
      case .add(let amount): json.enumCase("add") { $0.member("_0", amount) }
      case .reset: json.enumCase("reset")
      }
    }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let amount): state.total &+= amount
    case .reset: state.total = 0
    }
    return .none
  }
}

/// The entries of the formats' scenarios: each export or import handles this many, and N / this
/// many of them run, so that the set-up (recording them once) cancels in the difference.
let formatEntries = 10_000

/// A journal of `formatEntries` increments, recorded as an application records them.
func ledgerJournal(
  sinks: [any JournalSink<Ledger.State, Ledger.Action>] = []
) -> Journal<Ledger.State, Ledger.Action> {
  let journal = Journal(reducer: Ledger(), configuration: .init(maxEntries: nil, maxBytes: nil, sinks: sinks))
  let store = Store(initialState: Ledger.State(), reducer: Ledger(), middleware: [.tracer(journal)])
  for _ in 0..<formatEntries { store.send(.increment) }
  precondition(journal.count == formatEntries)
  return journal
}

/// The floor: the reducer called through a function the optimizer may not inline into the loop.
@inline(never)
func reduceDirectly(
  _ reducer: Counter, _ state: inout Counter.State, _ action: Counter.Action
) -> Effect<Counter.Action> {
  reducer.reduce(into: &state, action: action)
}

func passThrough() -> AnyMiddleware<Counter.State, Counter.Action> {
  AnyMiddleware { action, context, next in next(action) }
}

/// More than the default journal's 100,000-entry cap: the journal commits from then on.
let warmUp = 120_000

func sendAll(_ store: Store<Counter.State, Counter.Action>, _ count: Int) {
  for _ in 0..<count { store.send(.increment) }
}

/// The process's resident memory, in kilobytes (Linux: /proc/self/status), or nil elsewhere.
func residentKilobytes() -> Int? {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
  for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
    return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
  }
  return nil
}

func check(_ store: Store<Counter.State, Counter.Action>, _ expected: Int) {
  let count = store.state.count
  precondition(count == expected, "expected \(expected) actions to be reduced, got \(count)")
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]), count > 0 else {
  print("usage: HotPath SCENARIO N")
  exit(2)
}

switch arguments[1] {
case "floor":
  let reducer = Counter()
  var state = Counter.State()
  for _ in 0..<count {
    let effect = reduceDirectly(reducer, &state, .increment)
    if !effect.isNone { fatalError("the counter returns no effect") }
  }
  precondition(state.count == count)
case "send/no-middleware":
  let store = Store(initialState: Counter.State(), reducer: Counter())
  sendAll(store, count)
  check(store, count)
case "send/effect-send":
  let store = Store(initialState: Relay.State(), reducer: Relay())
  for _ in 0..<count { store.send(.tap) }
  precondition(store.state.count == count)
case "send/3-middlewares":
  let store = Store(
    initialState: Counter.State(), reducer: Counter(),
    middleware: [passThrough(), passThrough(), passThrough()])
  sendAll(store, count)
  check(store, count)
case "send/1-observer":
  let store = Store(initialState: Counter.State(), reducer: Counter())
  let subscription = store.observe(\.count) { _ in }
  withExtendedLifetime(subscription) { sendAll(store, count) }
  check(store, count)
case "tracer/record-growing":
  let journal = Journal(reducer: Counter())
  let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [.tracer(journal)])
  sendAll(store, warmUp + count)
  check(store, warmUp + count)
case "timetravel/send-recommended":
  // The README's setup, with the same journal configuration as the scenario above.
  let journal = Journal(reducer: Counter())
  let travel = TimeTravel(journal: journal, policy: .locked)
  let store = Store(
    initialState: Counter.State(), reducer: Counter(), middleware: [.timeTravel(travel), .tracer(journal)])
  travel.attach(store)
  sendAll(store, warmUp + count)
  check(store, warmUp + count)
case "sink/ndjson-each-line", "sink/ndjson-background", "sink/ndjson-mapped", "sink/ndjson-each-line-4-sites":
  // The tracer-recorded scenario above with an NDJSON sink on the journal: every entry formatted
  // as a line and written (callgrind counts the process's instructions, not the kernel's).
  let writing: NDJSONFileSink<Ledger.State, Ledger.Action>.Writing =
    switch arguments[1] {
    case "sink/ndjson-each-line", "sink/ndjson-each-line-4-sites": .eachLine
    case "sink/ndjson-background": .inBackground()
    default: .mapped()
    }
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("hotpath-sink-\(getpid()).ndjson")
  defer { try? FileManager.default.removeItem(at: url) }
  let sink = try NDJSONFileSink<Ledger.State, Ledger.Action>(url: url, writing: writing)
  let journal = Journal(reducer: Ledger(), configuration: .init(sinks: [sink]))
  let store = Store(initialState: Ledger.State(), reducer: Ledger(), middleware: [.tracer(journal)])
  if arguments[1].hasSuffix("-4-sites") {
    // Sent from four lines in turn, as an app's screen sends from a few places.
    for index in 0..<(warmUp + count) {
      switch index % 4 {
      case 0: store.send(.increment)
      case 1: store.send(.increment)
      case 2: store.send(.increment)
      default: store.send(.increment)
      }
    }
  } else {
    for _ in 0..<(warmUp + count) { store.send(.increment) }
  }
  sink.close()
  precondition(sink.error == nil && sink.linesWritten == warmUp + count + 1)
case "sink/ndjson-each-line-new":
  // The sink with actions that never repeat (`.add(n)`, n counting up): each action's JSON is
  // encoded through its `Codable` conformance, none reused.
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("hotpath-sink-\(getpid()).ndjson")
  defer { try? FileManager.default.removeItem(at: url) }
  let sink = try NDJSONFileSink<Tally.State, Tally.Action>(url: url, writing: .eachLine)
  let journal = Journal(reducer: Tally(), configuration: .init(sinks: [sink]))
  let store = Store(initialState: Tally.State(), reducer: Tally(), middleware: [.tracer(journal)])
  for amount in 0..<(warmUp + count) { store.send(.add(amount)) }
  sink.close()
  precondition(sink.error == nil && sink.linesWritten == warmUp + count + 1)
case "sink/ndjson-each-line-new-self-writing":
  // `sink/ndjson-each-line-new` with an action that writes its own JSON.
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("hotpath-sink-\(getpid()).ndjson")
  defer { try? FileManager.default.removeItem(at: url) }
  let sink = try NDJSONFileSink<Tally.State, SelfWritingTally.Action>(url: url, writing: .eachLine)
  let journal = Journal(reducer: SelfWritingTally(), configuration: .init(sinks: [sink]))
  let store = Store(initialState: Tally.State(), reducer: SelfWritingTally(), middleware: [.tracer(journal)])
  for amount in 0..<(warmUp + count) { store.send(.add(amount)) }
  sink.close()
  precondition(sink.error == nil && sink.linesWritten == warmUp + count + 1)
case "journal/memory":
  // Journal memory per entry with repeated call sites: an uncapped journal records N actions sent
  // from two lines; the resident memory it grew by, per entry, is printed (not run by callgrind.sh:
  // `Benchmarks/journal-memory.sh`).
  let journal = Journal(
    reducer: Counter(), configuration: .init(checkpointInterval: 100, maxEntries: nil, maxBytes: nil))
  let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [.tracer(journal)])
  let before = residentKilobytes() ?? 0
  for index in 0..<count {
    if index.isMultiple(of: 2) { store.send(.increment) } else { store.send(.decrement) }
  }
  let grown = (residentKilobytes() ?? 0) - before
  precondition(journal.count == count && store.state.count == count % 2)
  print("entries \(count) resident growth \(grown) KB, \(Double(grown) * 1024 / Double(count)) B per entry")
case "export/journal-json":
  // Per entry: N / formatEntries exports of the same snapshot.
  let snapshot = ledgerJournal().snapshot()
  var bytes = 0
  for _ in 0..<(count / formatEntries) { bytes += snapshot.journalJSON().count }
  precondition(bytes > 0)
case "import/journal-json":
  let data = ledgerJournal().snapshot().journalJSON()
  for _ in 0..<(count / formatEntries) {
    let journal = try Journal(journalJSON: data, reducer: Ledger())
    precondition(journal.count == formatEntries)
  }
case "import/ndjson":
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("hotpath-\(getpid()).ndjson")
  defer { try? FileManager.default.removeItem(at: url) }
  let sink = try NDJSONFileSink<Ledger.State, Ledger.Action>(url: url)
  _ = ledgerJournal(sinks: [sink])
  sink.close()
  let data = try Data(contentsOf: url)
  for _ in 0..<(count / formatEntries) {
    let loaded = try Journal<Ledger.State, Ledger.Action>.loadNDJSON(data, reducer: Ledger())
    precondition(loaded.journal.count == formatEntries)
  }
default:
  print("unknown scenario \(arguments[1])")
  exit(2)
}
