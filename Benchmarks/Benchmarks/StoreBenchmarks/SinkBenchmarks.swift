// The NDJSON sink's cost inside `send` (issue 12): the tracer with a sink writing each line before
// `send` returns, with one copying each line into a mapping of the file (issue 27), and with one
// writing in the background, against the tracer alone, in the same run. In the plain scenarios every action carries a new payload (`.add(n)`, n counting up), so no
// action's JSON is reused: the sink encodes every action (the worst case). The `-repeating` ones
// send `.add(n % 100)`, a hundred distinct actions as an app's buttons and rows make, whose JSON
// the sink keeps after it first encodes each (up to 1,024 values per action type); each has its
// own tracer reference with the same actions.
//
// `codable/discarding-encoder` is the floor under the sink's encoding of a new action: the same
// `.add(n)` encoded through its synthesized `encode(to:)` into an encoder whose containers write
// nothing (what `Codable` itself costs: a box per container, its type's metadata, the calls
// through existentials), timed as the harness times the store's scenarios.
//
// The `-steady` scenarios keep one store, journal and sink across a scenario's iterations (a session
// that has been recording for a while: the journal at its cap, the file long, its caches warm), the
// file replaced, outside the timing, every 100,000 lines; the others start each iteration with a
// new store and a new file (the first 1,000 actions of a session, the file created for them).
//
// Each iteration sends 1,000 actions without pause and ends when the sink has written them all,
// so its wall time is the rate the whole pipeline sustains. Each scenario also times, per
// iteration, the CPU time of the sending thread during the sends (what `send` costs the app's
// thread; a send held by a full queue waits off the CPU) and the process's CPU time until the
// lines are written (both threads: what a line costs in all), and prints them from its teardown
// for run.sh.

import Benchmark
import ChronicleFormats
import ChronicleStore
import ChronicleTracer
import Foundation

/// A running total: one action with a payload.
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

/// A reducer of `Tally`'s state whose action adds an amount.
protocol TallyReducer: Reducer where State == Tally.State {
  init()
  static func add(_ amount: Int) -> Action
}

extension Tally: TallyReducer {
  static func add(_ amount: Int) -> Action { .add(amount) }
}

/// `Tally` with an action that writes its own JSON (`JournalJSONWritable`): one line per case,
/// the same bytes as its `Codable` conformance (`JournalJSONWritableTests`).
struct SelfWritingTally: TallyReducer {
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

  static func add(_ amount: Int) -> Action { .add(amount) }

  func reduce(into state: inout Tally.State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let amount): state.total &+= amount
    case .reset: state.total = 0
    }
    return .none
  }
}

/// A store recording into a journal of at most 10,000 entries, with `sinks`.
private func tallyStore<R: TallyReducer>(
  _ reducer: R = Tally(), sinks: [any JournalSink<Tally.State, R.Action>]
) -> Store<Tally.State, R.Action> {
  let journal = Journal(reducer: reducer, configuration: .init(maxEntries: 10_000, sinks: sinks))
  return Store(initialState: Tally.State(), reducer: reducer, middleware: [.tracer(journal)])
}

/// The calling thread's CPU time so far, in nanoseconds.
private func threadCPUNanoseconds() -> Int64 {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}

/// Every iteration's CPU times of the sink scenarios (sending thread, whole process), by scenario.
nonisolated(unsafe) private var sinkSamples: [String: [(sender: Int64, process: Int64, sends: Int)]] = [:]

/// The actions a scenario sends: `.add(n)` with `n` counting up (each new), or cycling through
/// `cycle` values.
private struct Amounts {
  /// `nil` for amounts that never repeat.
  let cycle: Int?
  /// The scenario names' suffix.
  var suffix: String { cycle == nil ? "" : "-repeating" }

  static let patterns = [Amounts(cycle: nil), Amounts(cycle: 100)]
}

/// Sends `.add(n)` once per scaled iteration, `n` as `amounts` says, timing the CPU as the file's
/// comment says; `finish` (the sink's flush) is part of the process's time.
/// `first` is where the amounts start counting (a steady scenario's store has seen the ones before).
private func measureSends<R: TallyReducer>(
  _ benchmark: Benchmark, _ store: Store<Tally.State, R.Action>, _: R.Type = Tally.self, amounts: Amounts,
  first: Int = 0, finish: () -> Void = {}
) {
  let cycle = amounts.cycle ?? Int.max
  var amount = first % cycle
  benchmark.startMeasurement()
  let process = processCPUNanoseconds()
  let sender = threadCPUNanoseconds()
  for _ in benchmark.scaledIterations {
    amount = amount == cycle ? 1 : amount + 1
    store.send(R.add(amount))
  }
  let sent = threadCPUNanoseconds()
  // What is still pending is part of the cost: the next iteration must not inherit it.
  finish()
  let done = processCPUNanoseconds()
  benchmark.stopMeasurement()
  sinkSamples[benchmark.name, default: []].append(
    (sent - sender, done - process, benchmark.scaledIterations.count))
}

/// Prints a scenario's samples for run.sh: `chronicle-sink: <name> sends <n> sender <ns>,…
/// process <ns>,…` (nanoseconds per iteration).
private func printSinkSamples(_ name: String) {
  let samples = sinkSamples[name] ?? []
  FileHandle.standardError.write(
    Data(
      ("chronicle-sink: \(name) sends \(samples.last?.sends ?? 0) "
        + "sender \(samples.map { String($0.sender) }.joined(separator: ",")) "
        + "process \(samples.map { String($0.process) }.joined(separator: ","))\n").utf8))
}

/// An `Encoder` whose keyed containers write nothing; the only kind of container `Tally.Action`
/// asks for.
private struct DiscardingEncoder: Encoder {
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(DiscardingKeyedContainer<Key>())
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    preconditionFailure("the benchmark's action asks for keyed containers only")
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    preconditionFailure("the benchmark's action asks for keyed containers only")
  }
}

private struct DiscardingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil(forKey key: Key) throws {}
  mutating func encode(_ value: Int, forKey key: Key) throws { blackHole(value) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try value.encode(to: DiscardingEncoder())
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>())
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    preconditionFailure("the benchmark's action asks for keyed containers only")
  }

  mutating func superEncoder() -> any Encoder { DiscardingEncoder() }
  mutating func superEncoder(forKey key: Key) -> any Encoder { DiscardingEncoder() }
}

/// The encoder as an existential the optimizer cannot see into, as a library's encoder reaches
/// an action's `encode(to:)`.
@inline(never)
private func opaqueDiscardingEncoder() -> any Encoder {
  DiscardingEncoder()
}

func registerSinkBenchmarks() {
  registerFirstSendBenchmarks()
  Benchmark("codable/discarding-encoder") { benchmark in
    let encoder = opaqueDiscardingEncoder()
    var amount = 0
    for _ in benchmark.scaledIterations {
      amount += 1
      do {
        try Tally.Action.add(amount).encode(to: encoder)
      } catch {
        fatalError("\(error)")
      }
    }
  }

  for amounts in Amounts.patterns {
    let reference = "tracer/record-tally" + amounts.suffix
    Benchmark(reference) { benchmark in
      measureSends(benchmark, tallyStore(sinks: []), amounts: amounts)
    } teardown: {
      printSinkSamples(reference)
    }

    let modes: [(String, NDJSONFileSink<Tally.State, Tally.Action>.Writing)] = [
      ("sink/ndjson-each-line", .eachLine), ("sink/ndjson-background", .inBackground()),
      ("sink/ndjson-mapped", .mapped()),
    ]
    for (scenario, writing) in modes {
      registerSinkBenchmark(scenario + amounts.suffix, Tally.self, writing: writing, amounts: amounts)
    }
    // The crash-safe modes with an action that writes its own JSON.
    registerSinkBenchmark(
      "sink/ndjson-each-line-self-writing" + amounts.suffix, SelfWritingTally.self, writing: .eachLine,
      amounts: amounts)
    registerSinkBenchmark(
      "sink/ndjson-mapped-self-writing" + amounts.suffix, SelfWritingTally.self, writing: .mapped(),
      amounts: amounts)
    // A session recording for a while, against the tracer alone recording as long.
    let steady = "-steady" + amounts.suffix
    registerSteadyBenchmark("tracer/record-tally" + steady, Tally.self, writing: nil, amounts: amounts)
    registerSteadyBenchmark(
      "sink/ndjson-each-line" + steady, Tally.self, writing: .eachLine, amounts: amounts)
    registerSteadyBenchmark("sink/ndjson-mapped" + steady, Tally.self, writing: .mapped(), amounts: amounts)
    registerSteadyBenchmark(
      "sink/ndjson-mapped-self-writing" + steady, SelfWritingTally.self, writing: .mapped(), amounts: amounts)
  }
}

/// A new sink's creation, and a new store's first `send` into it, one per iteration: the
/// header, and the first line with whatever the sink's creation left to it (before session 20, a
/// `.mapped` sink's first chunk, its mapping and its first pages). The tracer alone, and an
/// `.eachLine` sink, for scale.
private func registerFirstSendBenchmarks() {
  let configuration = Benchmark.Configuration(
    metrics: [.wallClock, .throughput], warmupIterations: 10, scalingFactor: .one, maxDuration: .seconds(5),
    maxIterations: 2_000)
  let modes: [(String, NDJSONFileSink<Tally.State, Tally.Action>.Writing?)] = [
    ("tracer/record-tally-first-send", nil), ("sink/ndjson-each-line-first-send", .eachLine),
    ("sink/ndjson-mapped-first-send", .mapped()),
  ]
  for (name, writing) in modes {
    Benchmark(name, configuration: configuration) { benchmark in
      let url = exportFile("\(name.replacingOccurrences(of: "/", with: "-")).ndjson")
      defer { try? FileManager.default.removeItem(at: url) }
      let sink: NDJSONFileSink<Tally.State, Tally.Action>?
      do {
        sink = try writing.map { try NDJSONFileSink(url: url, writing: $0) }
      } catch {
        fatalError("\(error)")
      }
      let store = tallyStore(sinks: sink.map { [$0] } ?? [])
      benchmark.startMeasurement()
      store.send(.add(1))
      benchmark.stopMeasurement()
      sink?.close()
      precondition(sink.map { $0.error == nil && $0.linesWritten == 2 } ?? true)
    }
  }
  Benchmark("sink/ndjson-mapped-create", configuration: configuration) { benchmark in
    let url = exportFile("sink-ndjson-mapped-create.ndjson")
    defer { try? FileManager.default.removeItem(at: url) }
    benchmark.startMeasurement()
    let sink: NDJSONFileSink<Tally.State, Tally.Action>
    do {
      sink = try NDJSONFileSink(url: url, writing: .mapped())
    } catch {
      fatalError("\(error)")
    }
    benchmark.stopMeasurement()
    sink.close()
  }
}

/// A store recording `R`'s actions, with a sink writing as `writing` (none when `nil`), kept across a
/// steady scenario's iterations.
private final class SteadySession<R: TallyReducer> {
  static var linesPerFile: Int { 100_000 }

  let name: String
  let writing: NDJSONFileSink<Tally.State, R.Action>.Writing?
  /// The sink's file.
  let url: URL
  private(set) var store: Store<Tally.State, R.Action>
  private(set) var sink: NDJSONFileSink<Tally.State, R.Action>?
  /// The actions sent so far: where the next iteration's amounts start.
  var sent = 0
  private var sentToFile = 0

  init(name: String, writing: NDJSONFileSink<Tally.State, R.Action>.Writing?) {
    self.name = name
    self.writing = writing
    url = exportFile("\(name.replacingOccurrences(of: "/", with: "-")).ndjson")
    (store, sink) = Self.make(url: url, writing: writing)
  }

  /// The file holds `linesPerFile` lines: a new store and file (outside the timing).
  func replaceIfFull() {
    guard sentToFile >= Self.linesPerFile else { return }
    close()
    (store, sink) = Self.make(url: url, writing: writing)
    sentToFile = 0
  }

  func noteSent(_ count: Int) {
    sent += count
    sentToFile += count
  }

  func close() {
    guard let sink else { return }
    sink.close()
    precondition(sink.error == nil && sink.linesWritten == sentToFile + 1)
    try? FileManager.default.removeItem(at: url)
  }

  private static func make(
    url: URL, writing: NDJSONFileSink<Tally.State, R.Action>.Writing?
  ) -> (Store<Tally.State, R.Action>, NDJSONFileSink<Tally.State, R.Action>?) {
    guard let writing else { return (tallyStore(R(), sinks: []), nil) }
    do {
      let sink = try NDJSONFileSink<Tally.State, R.Action>(url: url, writing: writing)
      return (tallyStore(R(), sinks: [sink]), sink)
    } catch {
      fatalError("\(error)")
    }
  }
}

/// Each steady scenario's session, by name (the harness runs one scenario at a time).
nonisolated(unsafe) private var steadySessions: [String: AnyObject] = [:]

/// A steady scenario: `R`'s actions sent through a tracer (into a sink writing as `writing`, if
/// any) that has been recording since the scenario's first iteration.
private func registerSteadyBenchmark<R: TallyReducer>(
  _ name: String, _ reducer: R.Type, writing: NDJSONFileSink<Tally.State, R.Action>.Writing?, amounts: Amounts
) {
  Benchmark(name) { benchmark in
    let session =
      steadySessions[name] as? SteadySession<R> ?? SteadySession<R>(name: name, writing: writing)
    steadySessions[name] = session
    session.replaceIfFull()
    let sink = session.sink
    measureSends(
      benchmark, session.store, R.self, amounts: amounts, first: session.sent, finish: { sink?.flush() })
    session.noteSent(benchmark.scaledIterations.count)
  } teardown: {
    (steadySessions.removeValue(forKey: name) as? SteadySession<R>)?.close()
    printSinkSamples(name)
  }
}

/// A sink scenario: `R`'s actions sent through a tracer into a sink writing as `writing`.
private func registerSinkBenchmark<R: TallyReducer>(
  _ name: String, _ reducer: R.Type, writing: NDJSONFileSink<Tally.State, R.Action>.Writing, amounts: Amounts
) {
  Benchmark(name) { benchmark in
    let url = exportFile("\(name.replacingOccurrences(of: "/", with: "-")).ndjson")
    defer { try? FileManager.default.removeItem(at: url) }
    let sink: NDJSONFileSink<Tally.State, R.Action>
    do {
      sink = try NDJSONFileSink(url: url, writing: writing)
    } catch {
      fatalError("\(error)")
    }
    measureSends(benchmark, tallyStore(R(), sinks: [sink]), R.self, amounts: amounts, finish: sink.flush)
    precondition(sink.error == nil && sink.linesWritten == benchmark.scaledIterations.count + 1)
  } teardown: {
    printSinkSamples(name)
  }
}
