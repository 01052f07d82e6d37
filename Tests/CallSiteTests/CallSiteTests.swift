import ChronicleClocks
import ChronicleFormats
import ChronicleMiddleware
import ChronicleStore
import ChronicleTracer
import Foundation
import Synchronization
import Testing

// Not `@testable`: every site is read through the public API (how the journal stores sites is
// tested in TracerTests, SiteStorageTests). Each expected line is taken with `#line` right before
// the call it names, so the expectations follow the code when it moves.

private let thisFile = "CallSiteTests/CallSiteTests.swift"

/// A feature whose effect's `.run` and `send` sit on known lines.
private struct Loader: Reducer {
  struct State: Equatable, Sendable, Codable { var count = 0 }
  enum Action: Equatable, Sendable, Codable { case increment, load, loaded(Int), echo }

  /// The effect of `.load`, with the lines of its `.run` and of its `send`.
  static func loadEffect() -> (effect: Effect<Action>, run: UInt, send: UInt) {
    let run: UInt = #line + 1
    let effect = Effect<Action>.run { send in
      await send(.loaded(42))
    }
    return (effect, run, run + 1)
  }

  /// The effect of `.echo`, with its line.
  static func echoEffect() -> (effect: Effect<Action>, line: UInt) { (.send(.increment), #line) }

  static var runLine: UInt { loadEffect().run }
  static var sendLine: UInt { loadEffect().send }
  static var echoLine: UInt { echoEffect().line }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .load: return Self.loadEffect().effect
    case .echo: return Self.echoEffect().effect
    case .loaded(let value):
      state.count = value
      return .none
    }
  }
}

/// Records the metadata every action reaches the middleware with.
private final class MetadataLog: Sendable {
  let entries = Mutex<[ActionMetadata]>([])
  var middleware: AnyMiddleware<Loader.State, Loader.Action> {
    AnyMiddleware(name: "log") { action, context, next in
      self.entries.withLock { $0.append(context.metadata) }
      next(action)
    }
  }
  var all: [ActionMetadata] { entries.withLock { $0 } }
}

private func tracedStore(
  capturesCallSites: Bool = true
) -> (
  Store<Loader.State, Loader.Action>, Journal<Loader.State, Loader.Action>
) {
  let journal = Journal<Loader.State, Loader.Action>(reducer: Loader())
  let store = Store(
    initialState: Loader.State(), reducer: Loader(), middleware: [.tracer(journal)],
    capturesCallSites: capturesCallSites)
  return (store, journal)
}

/// A journal with a user's action and an effect's, sent from known lines.
private func recordedJournal() async -> (Journal<Loader.State, Loader.Action>, userLine: Int) {
  let (store, journal) = tracedStore()
  let userLine = #line + 1
  store.send(.increment)
  store.send(.load)
  await store.waitUntilIdle()
  return (journal, Int(userLine))
}

@Suite struct CallSiteTests {
  // MARK: Metadata

  @Test func aSendNamesTheFileLineAndFunctionItWasCalledFrom() {
    let log = MetadataLog()
    let store = Store(initialState: Loader.State(), reducer: Loader(), middleware: [log.middleware])
    let line = #line + 1
    store.send(.increment)
    let site = log.all.first?.site
    #expect(site?.fileID == thisFile)
    #expect(site?.line == UInt32(line))
    #expect(site?.function == "aSendNamesTheFileLineAndFunctionItWasCalledFrom()")
    #expect(site?.fileName == "CallSiteTests.swift")
    #expect(log.all.first?.effectSite == nil)
  }

  @Test func anEffectsActionNamesItsSendAndTheRunThatStartedTheEffect() async {
    let log = MetadataLog()
    let store = Store(initialState: Loader.State(), reducer: Loader(), middleware: [log.middleware])
    store.send(.load)
    await store.waitUntilIdle()
    let loaded = log.all.last
    #expect(loaded?.cause.kind == .effect)
    #expect(loaded?.site?.fileID == thisFile)
    #expect(loaded?.site?.line == UInt32(Loader.sendLine))
    #expect(loaded?.effectSite?.fileID == thisFile)
    #expect(loaded?.effectSite?.line == UInt32(Loader.runLine))
  }

  @Test func anEffectSendNamesTheLineThatReturnedIt() {
    let log = MetadataLog()
    let store = Store(initialState: Loader.State(), reducer: Loader(), middleware: [log.middleware])
    store.send(.echo)
    #expect(log.all.map(\.site?.line) == [log.all.first?.site?.line, UInt32(Loader.echoLine)])
    #expect(log.all.last?.site?.function == "echoEffect()")
  }

  @Test func aScopedStoreSendNamesItsCaller() {
    let log = MetadataLog()
    let store = Store(initialState: Loader.State(), reducer: Loader(), middleware: [log.middleware])
    let child = store.scope(state: { $0.count }, action: { (_: Void) in Loader.Action.increment })
    let line = #line + 1
    child.send(())
    #expect(log.all.first?.site?.line == UInt32(line))
    #expect(log.all.first?.site?.fileID == thisFile)
  }

  @Test func aMiddlewareSendNamesTheMiddlewaresLine() {
    let log = MetadataLog()
    let sendLine = Mutex<UInt>(0)
    let echo = AnyMiddleware<Loader.State, Loader.Action>(name: "echo") { action, context, next in
      next(action)
      guard action == .load else { return }
      sendLine.withLock { $0 = #line + 1 }
      context.send(.increment)
    }
    let store = Store(initialState: Loader.State(), middleware: [echo, log.middleware]) { state, action in
      if action == .increment { state.count += 1 }
      return .none
    }
    store.send(.load)
    #expect(log.all.last?.cause.kind == .middleware)
    #expect(log.all.last?.site?.line == UInt32(sendLine.withLock { $0 }))
  }

  @Test func aSynchronousThunksActionsNameTheirSendAndTheThunk() {
    let log = MetadataLog()
    let store = Store(initialState: Loader.State(), reducer: Loader(), middleware: [log.middleware])
    let sendLine = Mutex<UInt>(0)
    let thunkLine = #line + 1
    let thunk = Thunk<Loader.State, Loader.Action, Void>.sync("twice") { send, _, _ in
      sendLine.withLock { $0 = #line + 1 }
      send(.increment)
    }
    store.dispatch(thunk)
    #expect(log.all.last?.cause.kind == .thunk)
    #expect(log.all.last?.site?.line == UInt32(sendLine.withLock { $0 }))
    #expect(log.all.last?.effectSite?.line == UInt32(thunkLine))
  }

  @Test func aTimersTicksNameTheCommandThatStartedIt() async {
    let log = MetadataLog()
    let clock = TestClock()
    let commandLine = Mutex<UInt>(0)
    let timers = AnyMiddleware<Loader.State, Loader.Action>.timers(clock: clock) { action in
      guard action == .load else { return nil }
      commandLine.withLock { $0 = #line + 1 }
      return .once(id: "tick", after: .seconds(1), send: .increment)
    }
    let store = Store(initialState: Loader.State(), middleware: [timers, log.middleware]) { _, _ in .none }
    store.send(.load)
    await clock.advance(by: .seconds(1))
    await store.waitUntilIdle()
    #expect(log.all.last?.cause.kind == .timer)
    #expect(log.all.last?.effectSite?.line == UInt32(commandLine.withLock { $0 }))
  }

  @Test func aStoreThatDoesNotCaptureSitesGivesNone() {
    let log = MetadataLog()
    let store = Store(
      initialState: Loader.State(), reducer: Loader(), middleware: [log.middleware], capturesCallSites: false)
    store.send(.echo)
    #expect(log.all.count == 2)
    #expect(log.all.allSatisfy { $0.site == nil && $0.effectSite == nil })
  }

  @Test func theLoggerWritesTheSitesWhenAskedTo() async {
    let lines = Mutex<[String]>([])
    let sink = LogSink.text(colored: false) { line in lines.withLock { $0.append(line) } }
    let options = LoggerOptions<Loader.State, Loader.Action>(
      diff: false, duration: false, timestamp: false, sites: true)
    let store = Store(
      initialState: Loader.State(), reducer: Loader(), middleware: [.logger(options, sink: sink)])
    let line = #line + 1
    store.send(.load)
    await store.waitUntilIdle()
    let logged = lines.withLock { $0 }
    #expect(
      logged.first?.contains(" from CallSiteTests.swift:\(line) in theLoggerWritesTheSitesWhenAskedTo()")
        == true)
    #expect(
      logged.last?.contains(
        "from CallSiteTests.swift:\(Loader.sendLine) in loadEffect() (effect at CallSiteTests.swift:\(Loader.runLine) in loadEffect())"
      )
        == true)
  }

  @Test func theLoggerLeavesTheSitesOutByDefault() {
    let lines = Mutex<[String]>([])
    let sink = LogSink.text(colored: false) { line in lines.withLock { $0.append(line) } }
    let options = LoggerOptions<Loader.State, Loader.Action>(diff: false, duration: false, timestamp: false)
    let store = Store(
      initialState: Loader.State(), reducer: Loader(), middleware: [.logger(options, sink: sink)])
    store.send(.increment)
    #expect(lines.withLock { $0 }.first?.hasPrefix("#1 Loader.Action.increment\n") == true)
    #expect(lines.withLock { $0 }.first?.contains("CallSiteTests.swift") == false)
  }

  // MARK: Journal

  @Test func theJournalKeepsBothSitesOfEveryEntry() async {
    let (journal, userLine) = await recordedJournal()
    let entries = journal.snapshot().entries
    #expect(entries.map(\.site?.line) == [userLine, userLine + 1, Int(Loader.sendLine)])
    #expect(entries.map(\.effectSite?.line) == [nil, nil, Int(Loader.runLine)])
    #expect(entries[0].site?.function == "recordedJournal()")
    #expect(entries[2].effectSite?.fileID == thisFile)
  }

  @Test func aJournalOfAStoreWithoutCaptureHasNoSites() {
    let (store, journal) = tracedStore(capturesCallSites: false)
    store.send(.increment)
    #expect(journal.snapshot().entries.map(\.site) == [nil])
  }

  // MARK: Formats

  @Test func journalJSONWritesEachSiteAsAnObject() async throws {
    let (journal, userLine) = await recordedJournal()
    let data = journal.snapshot().journalJSON()
    let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    let entries = try #require(object["entries"] as? [[String: Any]])
    let site = try #require(entries[0]["site"] as? [String: Any])
    #expect(site["fileID"] as? String == thisFile)
    #expect(site["line"] as? Int == userLine)
    #expect(site["function"] as? String == "recordedJournal()")
    #expect(entries[0]["effectSite"] == nil)
    let effectSite = try #require(entries[2]["effectSite"] as? [String: Any])
    #expect(effectSite["line"] as? Int == Int(Loader.runLine))
  }

  @Test func journalJSONRoundTripKeepsTheSites() async throws {
    let (journal, userLine) = await recordedJournal()
    let data = journal.snapshot().journalJSON()
    let loaded = try Journal<Loader.State, Loader.Action>(journalJSON: data, reducer: Loader())
    let entries = loaded.snapshot().entries
    #expect(entries.map(\.site?.line) == [userLine, userLine + 1, Int(Loader.sendLine)])
    #expect(entries.map(\.effectSite?.line) == [nil, nil, Int(Loader.runLine)])
    #expect(entries.map(\.site?.fileID) == [thisFile, thisFile, thisFile])
  }

  @Test func aJournalJSONFileWithoutSitesLoads() async throws {
    let (journal, _) = await recordedJournal()
    var object = try #require(
      JSONSerialization.jsonObject(with: journal.snapshot().journalJSON()) as? [String: Any])
    let entries = try #require(object["entries"] as? [[String: Any]])
    object["entries"] = entries.map { entry in
      var entry = entry
      entry["site"] = nil
      entry["effectSite"] = nil
      return entry
    }
    let data = try JSONSerialization.data(withJSONObject: object)
    let loaded = try Journal<Loader.State, Loader.Action>(journalJSON: data, reducer: Loader())
    #expect(loaded.snapshot().entries.map(\.site) == [nil, nil, nil])
    #expect(loaded.snapshot().entries.map(\.action) == [.increment, .load, .loaded(42)])
  }

  @Test func aSiteWithoutALineIsRefusedNamingTheField() async throws {
    let (journal, _) = await recordedJournal()
    let text = String(decoding: journal.snapshot().journalJSON(), as: UTF8.self)
      .replacingOccurrences(of: #""line":"#, with: #""lines":"#)
    #expect(throws: JournalImportError.self) {
      try Journal<Loader.State, Loader.Action>(journalJSON: Data(text.utf8), reducer: Loader())
    }
    do {
      _ = try Journal<Loader.State, Loader.Action>(journalJSON: Data(text.utf8), reducer: Loader())
    } catch {
      #expect("\(error)".contains("entries[0].site.line"))
    }
  }

  /// Sites that share a line number modulo 8, a line, a file or a function, in turn and
  /// repeated, with strings that need escapes: the writers keep the objects of recent sites, and
  /// every entry must still name its own.
  private static let mixedSites: [(fileID: StaticString, line: UInt, function: StaticString)] = [
    ("A/One.swift", 3, "f()"), ("A/One.swift", 11, "f()"), ("A/One.swift", 3, "f()"),
    ("B/Two.swift", 3, "f()"), ("A/One.swift", 3, "g()"), ("A/One.swift", 3, "g()"),
    ("A/\"Quoted\".swift", 19, "h(_:)"), ("A/One.swift", 3, "f()"), ("C/Tab\t.swift", 27, "k()"),
    ("A/One.swift", 11, "f()"), ("A/\"Quoted\".swift", 19, "h(_:)"), ("B/Two.swift", 4, "f()"),
  ]

  @Test func everyEntryNamesItsOwnSiteWhenSitesShareALineAFileOrASlot() async throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("mixed-sites-\(UUID()).ndjson")
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Loader.State, Loader.Action>(url: url)
    let journal = Journal<Loader.State, Loader.Action>(
      reducer: Loader(), configuration: .init(sinks: [sink]))
    let store = Store(initialState: Loader.State(), reducer: Loader(), middleware: [.tracer(journal)])
    for site in Self.mixedSites {
      store.send(.increment, fileID: site.fileID, line: site.line, function: site.function)
    }
    sink.close()
    let expected = Self.mixedSites.map { site in
      ["fileID": "\(site.fileID)", "line": Int(site.line), "function": "\(site.function)"] as NSDictionary
    }
    // The stream's lines, after its header.
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst()
    let streamed = try lines.map { line in
      let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let entry = try #require(object["entry"] as? [String: Any])
      return try #require(entry["site"] as? NSDictionary)
    }
    #expect(streamed == expected)
    let document = try #require(
      JSONSerialization.jsonObject(with: journal.snapshot().journalJSON()) as? [String: Any])
    let entries = try #require(document["entries"] as? [[String: Any]])
    #expect(try entries.map { try #require($0["site"] as? NSDictionary) } == expected)
  }

  @Test func ndjsonLinesCarryTheSitesAndLoadBack() async throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sites-\(UUID()).ndjson")
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Loader.State, Loader.Action>(url: url)
    let journal = Journal<Loader.State, Loader.Action>(
      reducer: Loader(), configuration: .init(sinks: [sink]))
    let store = Store(initialState: Loader.State(), reducer: Loader(), middleware: [.tracer(journal)])
    let line = #line + 1
    store.send(.increment)
    sink.close()
    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(text.contains(#""site":{"fileID":"\#(thisFile)","line":\#(line),"#))
    let loaded = try Journal<Loader.State, Loader.Action>.loadNDJSON(contentsOf: url, reducer: Loader())
    #expect(loaded.journal.snapshot().entries.map(\.site?.line) == [Int(line)])
  }

  @Test func theChromeTraceNamesTheSitesInTheActionSlicesArgs() async throws {
    let (journal, userLine) = await recordedJournal()
    let object = try #require(
      JSONSerialization.jsonObject(with: journal.snapshot().chromeTrace()) as? [String: Any])
    let events = try #require(object["traceEvents"] as? [[String: Any]])
    let actions = events.filter { $0["cat"] as? String == "action" }
    let args = actions.compactMap { $0["args"] as? [String: Any] }
    #expect(args.first?["site"] as? String == "\(thisFile):\(userLine) in recordedJournal()")
    #expect(args.last?["effectSite"] as? String == "\(thisFile):\(Loader.runLine) in loadEffect()")
  }

  @Test func reduxDevToolsStackParsesAsTheTraceMonitorParsesIt() async throws {
    let (journal, userLine) = await recordedJournal()
    let data = journal.snapshot().reduxDevTools(.liftedState)
    let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    let actions = try #require(object["actionsById"] as? [String: [String: Any]])
    let first = try #require(actions["1"]?["stack"] as? String)
    let frames = TraceMonitorParser.parse(first)
    #expect(frames.count == 1)
    #expect(frames.first?.function == "recordedJournal()")
    #expect(frames.first?.file == thisFile)
    #expect(frames.first?.line == userLine)
    let second = try #require(actions["3"]?["stack"] as? String)
    let effectFrames = TraceMonitorParser.parse(second)
    #expect(effectFrames.map(\.line) == [Int(Loader.sendLine), Int(Loader.runLine)])
    #expect(effectFrames.map(\.file) == [thisFile, thisFile])
    #expect(actions["0"]?["stack"] == nil)
  }

  @Test func reduxDevToolsRoundTripKeepsTheSites() async throws {
    let (journal, userLine) = await recordedJournal()
    let data = journal.snapshot().reduxDevTools(.liftedState)
    let loaded = try Journal<Loader.State, Loader.Action>(reduxDevTools: data, reducer: Loader())
    #expect(loaded.snapshot().entries.map(\.site?.line) == [userLine, userLine + 1, Int(Loader.sendLine)])
    #expect(loaded.snapshot().entries.map(\.effectSite?.line) == [nil, nil, Int(Loader.runLine)])
  }

  @Test func aJournalFileReadsTheSites() async throws {
    let (journal, userLine) = await recordedJournal()
    let file = try JournalFile(data: journal.snapshot().journalJSON())
    #expect(file.entries.map(\.site?.line) == [userLine, userLine + 1, Int(Loader.sendLine)])
    #expect(file.entries.map(\.effectSite?.line) == [nil, nil, Int(Loader.runLine)])
  }
}

/// The headless browser the viewer's DOM is read in, when the machine has one.
private let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
  .first { FileManager.default.isExecutableFile(atPath: $0) }

/// The DOM of the page `html` after its script ran, opened at `fragment`.
private func renderedDOM(_ html: Data, at fragment: String) throws -> String {
  let page = FileManager.default.temporaryDirectory.appendingPathComponent("sites-\(UUID()).html")
  defer { try? FileManager.default.removeItem(at: page) }
  try html.write(to: page)
  let process = Process()
  process.executableURL = URL(fileURLWithPath: chromium ?? "/usr/bin/chromium")
  process.arguments = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--virtual-time-budget=10000",
    "--dump-dom", page.absoluteString + fragment,
  ]
  let output = Pipe()
  process.standardOutput = output
  process.standardError = FileHandle.nullDevice
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return String(decoding: data, as: UTF8.self)
}

@Suite(.enabled(if: chromium != nil, "chromium is not installed (apt-get install -y chromium)"))
struct CallSiteViewerTests {
  @Test func theEntryDetailSaysWhereTheActionWasSentAndWhereItsEffectWasCreated() async throws {
    let (journal, _) = await recordedJournal()
    let dom = try renderedDOM(journal.snapshot().htmlViewer(), at: "#select=3")
    #expect(dom.contains(#"data-selected="3""#))
    #expect(
      dom.contains(
        #"<span class="site">sent from CallSiteTests.swift:\#(Loader.sendLine) in loadEffect()</span>"#))
    #expect(
      dom.contains(
        #"<span class="effect-site">by the effect created at CallSiteTests.swift:\#(Loader.runLine) in loadEffect()</span>"#
      ))
  }

  @Test func aSourceRootMakesEachSiteAnEditorLink() async throws {
    let (journal, userLine) = await recordedJournal()
    let html = journal.snapshot().htmlViewer(sourceRoot: "vscode://file/src/")
    let dom = try renderedDOM(html, at: "#select=1")
    #expect(
      dom.contains(
        #"sent from <a class="site-link" href="vscode://file/src/\#(thisFile):\#(userLine)">CallSiteTests.swift:\#(userLine)</a> in recordedJournal()"#
      ))
  }
}

/// The Redux DevTools Trace tab's stack parser, reimplemented: `parseStack` of
/// `packages/redux-devtools-inspector-monitor-trace-tab/src/react-error-overlay/utils/parser.ts`
/// (reduxjs/redux-devtools): a line is a frame when it matches the Chrome pattern
/// `^\s*(at|in)\s.+(:\d+)` (and not Firefox's `(^|@)\S+:\d+`); its words after `at` are the
/// function name, the last one the location, split by `\(?(.+?)(?::(\d+))?(?::(\d+))?\)?$`.
enum TraceMonitorParser {
  struct Frame: Equatable {
    var function: String?
    var file: String
    var line: Int?
  }

  static func parse(_ stack: String) -> [Frame] {
    stack.split(separator: "\n", omittingEmptySubsequences: false).compactMap { raw in
      let line = String(raw)
      let chrome = line.firstMatch(of: /^\s*(at|in)\s.+(:\d+)/) != nil
      let firefox = line.firstMatch(of: /(^|@)\S+:\d+/) != nil
      guard chrome, !firefox else { return nil }
      var words = line.split(whereSeparator: \.isWhitespace).dropFirst().map(String.init)
      guard let last = words.popLast(),
        let location = last.wholeMatch(of: /\(?(.+?)(?::(\d+))?(?::(\d+))?\)?/)
      else { return nil }
      return Frame(
        function: words.isEmpty ? nil : words.joined(separator: " "), file: String(location.1),
        line: location.2.flatMap { Int($0) })
    }
  }
}
