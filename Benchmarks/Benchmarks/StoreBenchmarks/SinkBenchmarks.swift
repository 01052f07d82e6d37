// The NDJSON sink's cost inside `send` (issue 12): the tracer with a sink writing each line before
// `send` returns, and with one writing in the background, against the tracer alone, in the same
// run. Every action carries a new payload (`.add(n)`, n counting up), so no action's JSON is
// reused: the sink formats every line (the worst case; repeated small actions cost less).

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

/// A store recording into a journal of at most 10,000 entries, with `sinks`.
private func tallyStore(sinks: [any JournalSink<Tally.State, Tally.Action>]) -> Store<Tally.State, Tally.Action> {
  let journal = Journal(reducer: Tally(), configuration: .init(maxEntries: 10_000, sinks: sinks))
  return Store(initialState: Tally.State(), reducer: Tally(), middleware: [.tracer(journal)])
}

func registerSinkBenchmarks() {
  Benchmark("tracer/record-tally") { benchmark in
    let store = tallyStore(sinks: [])
    var amount = 0
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      amount += 1
      store.send(.add(amount))
    }
    benchmark.stopMeasurement()
  }

  for writing in [NDJSONFileSink<Tally.State, Tally.Action>.Writing.eachLine, .inBackground()] {
    let name = writing == .eachLine ? "sink/ndjson-each-line" : "sink/ndjson-background"
    Benchmark(name) { benchmark in
      let url = exportFile("\(name.replacingOccurrences(of: "/", with: "-")).ndjson")
      defer { try? FileManager.default.removeItem(at: url) }
      let sink: NDJSONFileSink<Tally.State, Tally.Action>
      do {
        sink = try NDJSONFileSink(url: url, writing: writing)
      } catch {
        fatalError("\(error)")
      }
      let store = tallyStore(sinks: [sink])
      var amount = 0
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        amount += 1
        store.send(.add(amount))
      }
      // What is still pending is part of the cost: the next iteration must not inherit it.
      sink.flush()
      benchmark.stopMeasurement()
      precondition(sink.error == nil && sink.linesWritten == benchmark.scaledIterations.count + 1)
    }
  }
}
