import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing
import TracerFixtures

@testable import ChronicleFormats
@testable import ChronicleTracer

/// `NDJSONFileSink(writing: .inBackground(…))`: lines formatted and written by the sink's thread.
@Suite struct BackgroundSinkTests {
  private func temporaryFile() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("chronicle-\(UUID()).ndjson")
  }

  private typealias Sink = NDJSONFileSink<Counter.State, Counter.Action>

  /// The sequence numbers of the file's entry lines, in file order.
  private func entrySequences(_ url: URL) throws -> [UInt64] {
    let result = try CounterJournal.loadNDJSON(contentsOf: url, reducer: Counter())
    #expect(result.tornLine == nil)
    return result.journal.snapshot().entries.map(\.sequence)
  }

  @Test func flushWaitsUntilEveryRecordedLineIsWrittenInOrder() throws {
    let url = temporaryFile()
    defer { try? FileManager.default.removeItem(at: url) }
    // A queue of 16 lines makes senders wait for the thread over and over.
    let sink = try Sink(url: url, writing: .inBackground(maxPendingLines: 16))
    let (store, _) = makeTracedStore(.init(maxEntries: 100, sinks: [sink]), probe: false)
    for step in 1...5_000 { store.send(step.isMultiple(of: 2) ? .increment : .add(step)) }
    sink.flush()
    #expect(sink.linesWritten == 5_001)
    #expect(try entrySequences(url) == Array(1...5_000))
    #expect(sink.error == nil)
  }

  @Test func aFlushWakesTheThreadFromItsNapBetweenBatches() throws {
    let url = temporaryFile()
    defer { try? FileManager.default.removeItem(at: url) }
    // The thread naps for an hour after each batch: a flush that waited for the nap to end
    // would not return.
    let sink = try Sink(
      url: url, options: ExportOptions(), writing: .inBackground(), followingSymbolicLinks: false,
      napInterval: 3_600, handOff: .specialized, format: .specialized)
    let (store, _) = makeTracedStore(.init(sinks: [sink]), probe: false)
    store.send(.increment)
    sink.flush()
    #expect(sink.linesWritten == 2)
    store.send(.add(2))
    sink.flush()
    #expect(sink.linesWritten == 3)
    #expect(try entrySequences(url) == [1, 2])
  }

  @Test func theFileMatchesWhatTheEachLineSinkWrites() throws {
    let (eachURL, backgroundURL) = (temporaryFile(), temporaryFile())
    defer {
      try? FileManager.default.removeItem(at: eachURL)
      try? FileManager.default.removeItem(at: backgroundURL)
    }
    let each = try Sink(url: eachURL)
    let background = try Sink(url: backgroundURL, writing: .inBackground())
    let (eachStore, _) = makeTracedStore(.init(checkpointInterval: 4, sinks: [each]), probe: false)
    let (backgroundStore, _) = makeTracedStore(
      .init(checkpointInterval: 4, sinks: [background]), probe: false)
    for store in [eachStore, backgroundStore] {
      for action: Counter.Action in [.increment, .note("a\nb"), .add(-3), .decrement, .note("é")] {
        store.send(action)
      }
    }
    background.flush()
    // Times differ from one store to the other; everything else is the same, line by line.
    func withoutTimes(_ url: URL) throws -> [String] {
      try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map {
        String($0).replacing(/"(time|wallTime|chain|reducer|reducerOffset|iso8601)":("[^"]*"|\d+)/, with: "")
      }
    }
    #expect(try withoutTimes(backgroundURL) == withoutTimes(eachURL))
    #expect(try withoutTimes(backgroundURL).count == 6)
  }

  @Test func closeWritesThePendingLinesAndIgnoresLaterOnes() throws {
    let url = temporaryFile()
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try Sink(url: url, writing: .inBackground())
    let (store, _) = makeTracedStore(.init(sinks: [sink]), probe: false)
    for _ in 0..<300 { store.send(.increment) }
    sink.close()
    store.send(.decrement)
    #expect(sink.linesWritten == 301)
    #expect(try entrySequences(url) == Array(1...300))
  }

  @Test func releasingTheSinkWritesThePendingLines() throws {
    let url = temporaryFile()
    defer { try? FileManager.default.removeItem(at: url) }
    weak var released: Sink?
    do {
      let sink = try Sink(url: url, writing: .inBackground())
      released = sink
      let (store, _) = makeTracedStore(.init(sinks: [sink]), probe: false)
      for _ in 0..<300 { store.send(.increment) }
    }
    #expect(released == nil)
    #expect(try entrySequences(url) == Array(1...300))
  }

  @Test func aWriteErrorStopsTheSinkAndIsReported() throws {
    guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
    let sink = try Sink(url: URL(fileURLWithPath: "/dev/full"), writing: .inBackground())
    let (store, _) = makeTracedStore(.init(sinks: [sink]), probe: false)
    store.send(.increment)
    sink.flush()
    #expect(sink.error == .writeFailed(path: "/dev/full", errno: ENOSPC))
    #expect(sink.linesWritten == 0)
    store.send(.increment)
    sink.flush()
    #expect(sink.linesWritten == 0)
  }

  @Test func sendersOnManyThreadsWithFlushesBetweenLoseNothing() async throws {
    let url = temporaryFile()
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try Sink(url: url, writing: .inBackground(maxPendingLines: 64))
    let (store, _) = makeTracedStore(.init(maxEntries: 100, sinks: [sink]), probe: false)
    await withTaskGroup(of: Void.self) { group in
      for thread in 0..<8 {
        group.addTask {
          for step in 0..<1_000 {
            store.send(.add(thread))
            if step.isMultiple(of: 250) { sink.flush() }
          }
        }
      }
    }
    sink.flush()
    #expect(sink.linesWritten == 8_001)
    #expect(try entrySequences(url) == Array(1...8_000))
  }
}
