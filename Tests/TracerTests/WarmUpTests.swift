import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing

@testable import ChronicleFormats
@testable import ChronicleTracer

/// Adds each action to the state, and notes the tracer clock's reading at each call.
private struct Stamping: Reducer {
  let calls: Recorder<Int64>

  func reduce(into state: inout Int, action: Int) -> Effect<Int> {
    calls.append(MonotonicClock.now())
    state += action
    return .none
  }
}

private struct Tally: Sendable {
  var count = 0
}

/// Adds each action to the count.
private struct Counting: Reducer {
  func reduce(into state: inout Tally, action: Int) -> Effect<Int> {
    state.count += action
    return .none
  }
}

/// Keeps the metadata handed with each entry and effect event, in order.
private struct MetadataSink: JournalSink {
  let metadata = Recorder<JournalMetadata>()

  func record(_ entry: JournalEntry<Int>, checkpoint: JournalCheckpoint<Tally>?, metadata: JournalMetadata) {
    self.metadata.append(metadata)
  }

  func record(_ event: JournalEffectEvent, metadata: JournalMetadata) {
    self.metadata.append(metadata)
  }
}

@Suite struct WarmUpTests {
  @Test func theTracerIsWarmedUpBeforeTheRestOfTheChainRuns() {
    let journal = Journal<Int, Int>(reducer: Stamping(calls: Recorder()))
    let warmedUp = Recorder<Bool>()
    let witness = AnyMiddleware<Int, Int> { action, _, next in
      warmedUp.append(journal.warmedUp.load(ordering: .relaxed))
      next(action)
    }
    let store = Store(
      initialState: 0, reducer: Stamping(calls: Recorder()),
      middleware: [.tracer(journal), witness, .tracerProbe(journal)])
    let warmedUpBefore = journal.warmedUp.load(ordering: .relaxed)
    store.send(1)
    #expect(!warmedUpBefore)
    #expect(warmedUp.values == [true])
  }

  // The journal and the store share the reducer's recorder, as an app's reducer shares what it
  // counts or logs: a call made by the tracer on either's behalf is seen.
  @Test func theFirstActionRunsTheReducerOnceInsideItsMeasuredSpan() {
    let calls = Recorder<Int64>()
    let journal = Journal<Int, Int>(reducer: Stamping(calls: calls))
    let store = Store(
      initialState: 0, reducer: Stamping(calls: calls), middleware: [.tracer(journal), .tracerProbe(journal)])
    store.send(1)
    let snapshot = journal.snapshot()
    let start = snapshot.content.originMonotonic + snapshot.content.entries[0].time
    #expect(calls.values.count == 1)
    #expect(calls.values.allSatisfy { $0 >= start })
    #expect(store.state == 1)
  }

  @Test func everyActionRunsTheReducerExactlyOnce() {
    let calls = Recorder<Int64>()
    let journal = Journal<Int, Int>(
      reducer: Stamping(calls: calls), configuration: .init(checkpointInterval: 1))
    let store = Store(initialState: 0, reducer: Stamping(calls: calls), middleware: [.tracer(journal)])
    for action in 1...5 { store.send(action) }
    #expect(calls.values.count == 5)
    #expect(store.state == 15)
  }

  @Test func theSinksMetadataIsFoundBeforeTheRestOfTheChainRuns() {
    let journal = Journal<Tally, Int>(reducer: Counting(), configuration: .init(sinks: [MetadataSink()]))
    let shapes = Recorder<String?>()
    let witness = AnyMiddleware<Tally, Int> { action, _, next in
      shapes.append(journal.storage.withLock { $0.sinkMetadata?.metadata.state.shape })
      next(action)
    }
    let store = Store(initialState: Tally(), reducer: Counting(), middleware: [.tracer(journal), witness])
    store.send(1)
    #expect(shapes.values == ["count: Int"])
  }

  @Test func anEffectStartedByTheFirstActionIsStreamedWithTheMetadataOfItsEntry() async {
    let sink = MetadataSink()
    let journal = Journal<Tally, Int>(reducer: Counting(), configuration: .init(sinks: [sink]))
    let starter = AnyMiddleware<Tally, Int> { action, context, next in
      next(action)
      context.run(.run { _ in })
    }
    let store = Store(initialState: Tally(), reducer: Counting(), middleware: [.tracer(journal), starter])
    store.send(1)
    await store.waitUntilIdle()
    let metadata = sink.metadata.values
    #expect(metadata.count == 3)
    #expect(metadata.map(\.state.shape) == Array(repeating: "count: Int", count: 3))
  }

  @Test func anNDJSONSinkWritesItsHeaderBeforeTheRestOfTheChainRuns() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "chronicle-warm-up-\(UUID()).ndjson")
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Tally, Int>(url: url)
    let journal = Journal<Tally, Int>(reducer: Counting(), configuration: .init(sinks: [sink]))
    let linesWritten = Recorder<Int>()
    let witness = AnyMiddleware<Tally, Int> { action, _, next in
      linesWritten.append(sink.linesWritten)
      next(action)
    }
    let store = Store(initialState: Tally(), reducer: Counting(), middleware: [.tracer(journal), witness])
    let linesBefore = sink.linesWritten
    store.send(1)
    sink.close()
    #expect(linesBefore == 0)
    #expect(linesWritten.values == [1])
    #expect(sink.linesWritten == 2)
    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(text.split(separator: "\n").count == 2)
  }
}
