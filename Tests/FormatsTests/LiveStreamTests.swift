import ChronicleInspection
import ChronicleStore
import ChronicleTestSupport
import Foundation
import Synchronization
import Testing
import TracerFixtures

@testable import ChronicleFormats
@testable import ChronicleTracer

private typealias Stream = JournalLiveStream<Counter.State, Counter.Action>

/// A stream without its thread: the test reads with `catchUp()`.
private func manualStream(
  _ journal: CounterJournal, limits: Stream.Limits = .init(), options: ExportOptions = ExportOptions()
) -> Stream {
  Stream(journal: journal, options: options, limits: limits, format: .specialized, startsThread: false)
}

private func texts(_ lines: [LiveLine]) -> [String] { lines.map(\.text) }

private func kinds(_ lines: [LiveLine]) -> [LiveLine.Kind] { lines.map(\.kind) }

/// `JournalLiveStream`: the journal's records as the numbered lines of a live link.
@Suite struct LiveStreamTests {
  @Test func eachEntryMakesItsNDJSONLineThenTheStateAfterIt() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("chronicle-\(UUID()).ndjson")
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Counter.State, Counter.Action>(url: url)
    let (store, journal) = makeTracedStore(.init(sinks: [sink]), probe: false)
    let stream = manualStream(journal)
    store.send(.increment)
    store.send(.add(2))
    stream.catchUp()
    let lines = stream.lines(after: 0)
    #expect(lines.map(\.number) == [1, 2, 3, 4])
    #expect(kinds(lines) == [.entry, .state, .entry, .state])
    // The entry lines are the NDJSON sink's, byte for byte (its first line is the header).
    let file = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect([lines[0].text, lines[2].text] == Array(file.dropFirst()))
    #expect(lines[1].text == #"{"state":{"index":0,"full":{"count":1,"log":[]}}}"#)
    #expect(lines[3].text == #"{"state":{"index":1,"patch":[[["count"],3]]}}"#)
  }

  @Test func aStreamStartsWithWhatIsRecordedAfterItIsCreated() {
    let (store, journal) = makeTracedStore(probe: false)
    store.send(.increment)
    let stream = manualStream(journal)
    store.send(.add(5))
    stream.catchUp()
    let lines = stream.lines(after: 0)
    #expect(lines.count == 2)
    // Its first entry carries the state before it, so the lines replay on their own.
    #expect(lines[0].text.contains(#""index":1,"#))
    #expect(lines[0].text.contains(#""checkpoint":{"kind":"resync","state":{"count":1,"log":[]}}"#))
    #expect(lines[1].text == #"{"state":{"index":1,"full":{"count":6,"log":[]}}}"#)
  }

  @Test func aWholeStateComesEveryFullStateInterval() {
    let (store, journal) = makeTracedStore(probe: false)
    let stream = manualStream(journal, limits: .init(fullStateInterval: 3))
    for _ in 0..<7 { store.send(.increment) }
    stream.catchUp()
    let states = stream.lines(after: 0).filter { $0.kind == .state }.map { $0.text.contains(#""full""#) }
    #expect(states == [true, false, false, true, false, false, true])
  }

  @Test func effectEventsComeInTheOrderTheJournalRecordedThem() async throws {
    let (store, journal) = makeTracedStore(probe: false)
    let stream = manualStream(journal)
    store.send(.load)
    let deadline = ContinuousClock.now + .seconds(10)
    while store.state.count != 42 || journal.snapshot().effectEvents.count < 2 {
      #expect(ContinuousClock.now < deadline)
      if ContinuousClock.now >= deadline { return }
      await Task.yield()
    }
    stream.catchUp()
    let lines = stream.lines(after: 0)
    #expect(kinds(lines) == [.effect, .entry, .state, .entry, .state, .effect])
    #expect(lines[0].text.hasPrefix(#"{"effect":{"effect":"#))
    #expect(lines[0].text.contains(#""phase":"started""#))
    #expect(lines[5].text.contains(#""phase":"finished""#))
  }

  @Test func acknowledgedLinesAreFreedAndLinesAfterANumberAreTheRest() {
    let (store, journal) = makeTracedStore(probe: false)
    let stream = manualStream(journal)
    for _ in 0..<3 { store.send(.increment) }
    stream.catchUp()
    #expect(stream.lines(after: 4).map(\.number) == [5, 6])
    stream.acknowledge(upTo: 4)
    let statistics = stream.statistics
    #expect(statistics.heldLines == 2)
    #expect(statistics.heldEntries == 1)
    #expect(statistics.acknowledged == 4)
    #expect(stream.lines(after: 0).map(\.number) == [5, 6])
  }

  @Test func linesAreCutAtTheByteLimitButNeverToNone() {
    let (store, journal) = makeTracedStore(probe: false)
    let stream = manualStream(journal)
    for _ in 0..<3 { store.send(.increment) }
    stream.catchUp()
    #expect(stream.lines(after: 0, maxBytes: 1).count == 1)
    #expect(stream.lines(after: 0, maxLines: 3).map(\.number) == [1, 2, 3])
  }

  @Test func aFullStreamStopsReadingAndThenMarksTheExactGap() {
    // The journal keeps 40 entries; the stream 10 until they are acknowledged.
    let (store, journal) = makeTracedStore(.init(maxEntries: 40), probe: false)
    let stream = manualStream(journal, limits: .init(maxEntries: 10))
    for _ in 0..<10 { store.send(.increment) }
    stream.catchUp()
    for _ in 0..<490 { store.send(.increment) }
    stream.catchUp()
    #expect(stream.statistics.heldEntries == 10)
    stream.acknowledge(upTo: 20)
    stream.catchUp()
    let first = journal.indices.lowerBound
    let lost = first - 10
    #expect(lost > 0)
    let lines = stream.lines(after: 20)
    #expect(lines[0].text == #"{"gap":{"dropped":\#(2 * lost),"entries":\#(lost)}}"#)
    #expect(lines[1].kind == .entry)
    #expect(lines[1].text.contains(#"{"entry":{"index":\#(first),"#))
    #expect(lines[1].text.contains(#""checkpoint":{"kind":"resync","state":{"count":\#(first),"log":[]}}"#))
    #expect(lines[2].text == #"{"state":{"index":\#(first),"full":{"count":\#(first + 1),"log":[]}}}"#)
    #expect(stream.statistics.droppedEntries == lost)
    #expect(stream.statistics.droppedLines == 2 * lost)
  }

  @Test func aResumeAfterFreedLinesStartsWithAGapNumberedBeforeTheOldestLineHeld() {
    let (store, journal) = makeTracedStore(probe: false)
    let stream = manualStream(journal)
    for _ in 0..<5 { store.send(.increment) }
    stream.catchUp()
    stream.acknowledge(upTo: 2)
    stream.acknowledge(upTo: 6)
    #expect(stream.resume(after: 6) == LiveResume(next: 7, gap: nil))
    #expect(stream.resume(after: 0).gap?.text == #"{"gap":{"dropped":6,"entries":3}}"#)
    let resume = stream.resume(after: 2)
    #expect(resume.next == 6)
    #expect(resume.gap?.number == 6)
    #expect(resume.gap?.text == #"{"gap":{"dropped":4,"entries":2}}"#)
    // An inspector ahead of the stream (another app run) starts after the last line.
    #expect(stream.resume(after: 99) == LiveResume(next: 11, gap: nil))
  }

  @Test func afterATruncationTheNewLineOfEntriesFollowsWithAWholeState() {
    let (store, journal) = makeTracedStore(probe: false)
    let stream = manualStream(journal)
    for _ in 0..<3 { store.send(.increment) }
    stream.catchUp()
    journal.truncate(from: 1)
    store.send(.add(10))
    stream.catchUp()
    let lines = stream.lines(after: 6)
    #expect(lines.count == 2)
    #expect(lines[0].text.contains(#"{"entry":{"index":1,"#))
    #expect(lines[1].text == #"{"state":{"index":1,"full":{"count":13,"log":[]}}}"#)
  }

  @Test func aTimeTravelMoveMakesTheNextStateWholeFromTheStoresState() {
    let (store, journal) = makeTracedStore(probe: false)
    let stream = manualStream(journal)
    store.send(.increment)
    store.send(.increment)
    stream.catchUp()
    // A move replaces the store's state without an entry: the journal's replay no longer tells it.
    store.replaceState(Counter.State(count: 100))
    stream.noteTimeTravelMove()
    store.send(.increment)
    stream.catchUp()
    #expect(stream.lines(after: 4).last?.text == #"{"state":{"index":2,"full":{"count":101,"log":[]}}}"#)
  }

  @Test func redactionAppliesToEveryLine() {
    let (store, journal) = makeTracedStore(probe: false)
    let stream = manualStream(journal, options: ExportOptions(redaction: Redaction(keys: ["log", "note"])))
    store.send(.note("hunter2"))
    store.send(.note("hunter3"))
    stream.catchUp()
    let all = texts(stream.lines(after: 0)).joined()
    #expect(!all.contains("hunter"))
    #expect(all.contains("<redacted>"))
  }

  @Test func theMetaIsTheNDJSONHeadersMeta() {
    let (_, journal) = makeTracedStore(probe: false)
    let stream = manualStream(journal)
    let meta = stream.metaJSON()
    #expect(meta.hasPrefix(#"{"state":{"type":"#))
    #expect(meta.contains(#""checkpointInterval":100"#))
  }

  @Test func theThreadStreamsWhatIsSentAndANewLinesHandlerIsCalled() async throws {
    let (store, journal) = makeTracedStore(probe: false)
    let stream = Stream(journal: journal)
    defer { stream.close() }
    let told = Atomic<Int>(0)
    stream.onNewLines { told.add(1, ordering: .relaxed) }
    store.send(.increment)
    let deadline = ContinuousClock.now + .seconds(10)
    while told.load(ordering: .relaxed) == 0, ContinuousClock.now < deadline { await Task.yield() }
    #expect(told.load(ordering: .relaxed) == 1)
    #expect(stream.lines(after: 0).map(\.kind) == [.entry, .state])
  }

  @Test func aStalledStreamNeverHoldsSendAndStaysBounded() {
    let (store, journal) = makeTracedStore(.init(maxEntries: 1_000), probe: false)
    let stream = Stream(journal: journal, limits: .init(maxEntries: 100))
    defer { stream.close() }
    let threads = 4
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      for _ in 0..<20_000 { store.send(.increment) }
    }
    #expect(store.state.count == threads * 20_000)
    #expect(stream.statistics.heldEntries <= 100 + 256)
  }
}
