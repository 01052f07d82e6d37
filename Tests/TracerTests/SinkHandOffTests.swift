import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing

@testable import ChronicleTracer

/// Adds each action to the state.
private struct Adding: Reducer {
  func reduce(into state: inout Int, action: Int) -> Effect<Int> {
    state += action
    return .none
  }
}

/// Keeps every entry and checkpoint handed to it, in order.
private struct CollectingSink: JournalSink {
  let entries = Recorder<JournalEntry<Int>>()
  let checkpoints = Recorder<JournalCheckpoint<Int>?>()

  func record(_ entry: JournalEntry<Int>, checkpoint: JournalCheckpoint<Int>?, metadata: JournalMetadata) {
    entries.append(entry)
    checkpoints.append(checkpoint)
  }

  func record(_ event: JournalEffectEvent, metadata: JournalMetadata) {}
}

/// The entry's fields, as one comparable value.
private func fields(_ entry: JournalEntry<Int>) -> [String] {
  [
    "\(entry.index)", "\(entry.sequence)", "\(entry.wallTime.timeIntervalSince1970)", "\(entry.time)",
    "\(entry.context ?? "nil")", "\(entry.cause)", "\(entry.cause.parent ?? 0)", "\(entry.cause.effect ?? 0)",
    "\(entry.action)", "\(entry.outcome)", "\(entry.chainDuration)",
    "\(String(describing: entry.reducerDuration))",
    "\(String(describing: entry.reducerOffset))",
  ]
}

@Suite struct SinkHandOffTests {
  @Test func aSinkGetsTheEntriesTheJournalHolds() throws {
    let sink = CollectingSink()
    let journal = Journal<Int, Int>(
      initialState: 0, reducer: Adding(), configuration: .init(checkpointInterval: 2, sinks: [sink]))
    // Stops the action 0, so that one entry is `.stopped` and has no reducer timings.
    let stopper = AnyMiddleware<Int, Int> { action, _, next in
      if action != 0 { next(action) }
    }
    let store = Store(
      initialState: 0, reducer: Adding(), middleware: [.tracer(journal), stopper, .tracerProbe(journal)])
    store.send(1)
    store.send(2, context: "settings")
    store.send(0, context: "settings")
    store.send(3, cause: Cause(kind: .effect, parent: 2, effect: 7, label: "refresh"))
    store.send(4, context: "list", cause: Cause(kind: Cause.Kind("push"), label: "notification"))
    let snapshot = journal.snapshot()
    #expect(sink.entries.values.count == 5)
    #expect(sink.entries.values.map(fields) == snapshot.entries.map(fields))
    #expect(sink.entries.values.map(\.outcome) == [.reduced, .reduced, .stopped, .reduced, .reduced])
    #expect(sink.entries.values.map(\.cause.label) == [nil, nil, nil, "refresh", "notification"])
  }

  @Test func aSinkGetsTheCheckpointKeptBeforeAnEntry() {
    let sink = CollectingSink()
    let journal = Journal<Int, Int>(
      initialState: 0, reducer: Adding(), configuration: .init(checkpointInterval: 2, sinks: [sink]))
    let store = Store(initialState: 0, reducer: Adding(), middleware: [.tracer(journal)])
    for action in 1...5 { store.send(action) }
    let handed = sink.checkpoints.values.map { $0.map { [$0.index, $0.state] } }
    #expect(handed == [[0, 0], nil, [2, 3], nil, [4, 10]])
    #expect(journal.snapshot().checkpoints.map { [$0.index, $0.state] } == [[0, 0], [2, 3], [4, 10]])
  }
}
