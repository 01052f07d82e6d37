import ChronicleInspection
import ChronicleStore
import Foundation
import Testing

@testable import ChronicleFormats
@testable import ChronicleJSON
@testable import ChronicleTracer

/// A small app whose password must never reach the viewer.
private struct Login: Reducer {
  struct State: Equatable, Sendable, Codable {
    var user = ""
    @Redacted var password = ""
    var attempts = 0
  }

  enum Action: Equatable, Sendable, Codable {
    case user(String)
    case password(Redacted<String>)
    case submit
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .user(let name): state.user = name
    case .password(let secret): state.password = secret.wrappedValue
    case .submit: state.attempts += 1
    }
    return .none
  }
}

/// A loader whose effect answers: its `.loaded` action is caused by `.load`.
private struct Loader: Reducer {
  struct State: Equatable, Sendable, Codable { var count = 0 }
  enum Action: Equatable, Sendable, Codable { case increment, load, loaded(Int) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += 1
    case .load: return .run { send in await send(.loaded(42)) }.cancellable(id: "load")
    case .loaded(let value): state.count = value
    }
    return .none
  }
}

/// The headless browser the viewer is tested in, when the machine has one.
let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
  .first { FileManager.default.isExecutableFile(atPath: $0) }

/// Where tests leave what a person may want to look at (git-ignored).
private let artifacts = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("artifacts")

/// Runs headless Chromium with `arguments` and returns its standard output.
private func runChromium(_ arguments: [String]) throws -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: try #require(chromium, "\(noChromium)"))
  process.arguments =
    ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars"]
    + arguments
  let output = Pipe()
  process.standardOutput = output
  process.standardError = FileHandle.nullDevice
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return String(decoding: data, as: UTF8.self)
}

/// Writes `html` under ./artifacts and returns its address.
func artifact(_ name: String, _ html: Data) throws -> URL {
  try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
  let page = artifacts.appendingPathComponent(name)
  try html.write(to: page)
  return page
}

/// The DOM of `page` after its script ran, opened at `fragment`.
func dump(_ page: URL, _ fragment: String) throws -> String {
  try runChromium(["--virtual-time-budget=10000", "--dump-dom", page.absoluteString + fragment])
}

/// Saves a screenshot of `page` at `fragment` next to it, and returns whether it was written.
private func screenshot(_ page: URL, _ fragment: String) throws -> Bool {
  let file = page.deletingPathExtension().appendingPathExtension("png")
  try? FileManager.default.removeItem(at: file)
  _ = try runChromium([
    "--virtual-time-budget=10000", "--window-size=1280,720", "--screenshot=\(file.path)",
    page.absoluteString + fragment,
  ])
  return FileManager.default.fileExists(atPath: file.path)
}

/// A recorded login session: four actions, the password redacted.
private func loginSession() throws -> (JournalFile, Data) {
  let journal = Journal<Login.State, Login.Action>(reducer: Login())
  let store = Store(initialState: Login.State(), reducer: Login(), middleware: [.tracer(journal)])
  store.send(.user("ada"), context: "LoginForm")
  store.send(.password(Redacted("hunter2")), context: "LoginForm")
  store.send(.submit, context: "LoginForm")
  store.send(.user("grace"), context: "Profile")
  let html = journal.snapshot().htmlViewer(title: "Login session")
  let json = journal.snapshot().journalJSON(options: ExportOptions(states: .everyEntry))
  return (try JournalFile(data: json), html)
}

/// The number of list rows in a dumped DOM.
private func rowCount(in dom: String) -> Int {
  dom.matches(of: /<div class="row[a-z ]*" data-pos="\d+"/).count
}

let noChromium = "chromium is not installed (apt-get install -y chromium; CI installs it)"

@Suite struct ViewerTests {
  @Test func theViewerIsOneFileThatLoadsNothingFromTheNetwork() throws {
    let page = String(decoding: try loginSession().1, as: UTF8.self)
    #expect(page.hasPrefix("<!DOCTYPE html>"))
    #expect(!page.contains("http://") && !page.contains("https://"))
    #expect(!page.contains("src=") && !page.contains("<link"))
    #expect(page.contains("<title>Login session</title>"))
  }

  @Test func redactedValuesReachTheViewerOnlyAsPlaceholders() throws {
    let (document, html) = try loginSession()
    let page = String(decoding: html, as: UTF8.self)
    #expect(!page.contains("hunter2"))
    #expect(page.contains(#"\u003credacted>"#))
    // The password is hidden before and after; only that it changed shows.
    #expect(document.stateChanges(from: 1, to: 1) == [#"password: "<redacted>" → "<redacted>""#])
    #expect(
      document.stateChanges(from: 0, to: 3) == [
        #"user: "" → "grace""#, "attempts: 0 → 1", #"password: "<redacted>" → "<redacted>""#,
      ])
    #expect(document.actionText(at: 1) == "{\n  \"password\": {\n    \"_0\": \"<redacted>\"\n  }\n}")
  }

  @Test func patchesDescribeEveryChangedValueAndNothingElse() {
    let old = JSONValue.object([
      JSONMember("count", .integer(1)), JSONMember("tags", .array([.string("a")])),
      JSONMember("gone", .bool(true)),
    ])
    let new = JSONValue.object([
      JSONMember("count", .integer(2)), JSONMember("tags", .array([.string("b")])),
      JSONMember("added", .null),
    ])
    let patches = StatePatch.between(old, new)
    #expect(
      patches.map { $0.description(before: old) } == [
        "count: 1 → 2", #"tags[0]: "a" → "b""#, "added: (none) → null", "gone: true → (none)",
      ])
    #expect(
      JSONText.compact(.array(patches.map(\.json)))
        == #"[[["count"],2],[["tags",0],"b"],[["added"],null],[["gone"]]]"#)
  }

  @Test func theViewerDataHoldsFullStatesEveryIntervalAndPatchesBetween() throws {
    let (document, _) = try loginSession()
    let data = ViewerData.make(document, title: "t", interval: 2)
    #expect(data["full"]?.arrayValue?.count == 2)  // after entries 0 and 2
    #expect(
      JSONText.compact(data["patches"]!)
        == #"[[[["user"],"ada"]],[[["password"],"<redacted>"]],[[["attempts"],1]],[[["user"],"grace"]]]"#)
    #expect(data["contexts"] == .array([.string("LoginForm"), .string("Profile")]))
  }

  @Test(.enabled(if: chromium != nil, "\(noChromium)"))
  func chromiumRendersTheEntriesAndShowsTheSelectedEntrysDiff() throws {
    let page = try artifact("viewer-login.html", try loginSession().1)
    let dom = try dump(page, "#select=3")  // the list's #3, the third entry
    #expect(rowCount(in: dom) == 4)
    #expect(dom.contains(#"data-selected="3""#))
    #expect(dom.contains(#"<div class="row selected" data-pos="2""#))
    #expect(
      dom.contains(
        #"<span class="path">attempts</span>: <span class="old">0</span> → <span class="new">1</span>"#))
    #expect(
      dom.contains(#"<span class="key">password</span>: <span class="redacted">"&lt;redacted&gt;"</span>"#))
    #expect(dom.contains("4 entries, 4 shown"))
    #expect(!dom.contains("hunter2"))
    #expect(try screenshot(page, "#select=3"))
  }

  @Test(.enabled(if: chromium != nil, "\(noChromium)"))
  func chromiumFiltersByTextAndFollowsACause() async throws {
    let journal = Journal<Loader.State, Loader.Action>(reducer: Loader())
    let store = Store(initialState: Loader.State(), reducer: Loader(), middleware: [.tracer(journal)])
    store.send(.increment, context: "CounterScreen")
    store.send(.load, context: "CounterScreen")
    await store.waitUntilIdle()
    let page = try artifact("viewer-cause.html", journal.snapshot().htmlViewer())
    let filteredDOM = try dump(page, "#filter=loaded")
    #expect(rowCount(in: filteredDOM) == 1)
    #expect(filteredDOM.contains("3 entries, 1 shown"))
    let causeDOM = try dump(page, "#cause=3")  // #3, `.loaded`, was sent by the effect of #2, `.load`
    #expect(causeDOM.contains(#"data-selected="2""#))
    #expect(causeDOM.contains(#"<pre>#2 load  index 1"#))
    // The effect `.load` started, with its outcome.
    #expect(causeDOM.contains(#"<div id="effects"><div class="effect"><span class="path">effect"#))
    #expect(causeDOM.contains(", finished</div></div>"))
  }

  @Test(.enabled(if: chromium != nil, "\(noChromium)"))
  func aHundredThousandEntriesRenderOnlyTheRowsOnScreen() throws {
    let count = 100_000
    var entries: [JSONValue] = []
    entries.reserveCapacity(count)
    for index in 0..<count {
      let cause: [JSONMember] =
        index == 0
        ? [JSONMember("kind", .string("user"))]
        : [JSONMember("kind", .string("effect")), JSONMember("parent", .integer(index))]
      entries.append(
        .object([
          JSONMember("index", .integer(index)), JSONMember("seq", .integer(index + 1)),
          JSONMember("time", .integer(index * 1000)), JSONMember("wallTime", .integer(index * 1000)),
          JSONMember("context", .string(index % 2 == 0 ? "Even" : "Odd")),
          JSONMember("cause", .object(cause)),
          JSONMember("type", .string("step")),
          JSONMember("action", .object([JSONMember("step", .object([]))])),
          JSONMember("outcome", .string("reduced")),
          JSONMember("durations", .object([JSONMember("chain", .integer(1500))])),
          JSONMember("state", .object([JSONMember("count", .integer(index + 1))])),
        ]))
    }
    let document = try JournalFile(
      meta: .object([]), baseState: .object([JSONMember("count", .integer(0))]), entries: entries, effects: []
    )
    let page = try artifact("viewer-100k.html", Data(JournalViewer.html(for: document).utf8))
    let dom = try dump(page, "#select=99999")
    #expect(dom.contains(#"data-selected="99999""#))
    #expect(
      dom.contains(
        #"<span class="path">count</span>: <span class="old">99998</span> → <span class="new">99999</span>"#))
    #expect(dom.contains("100000 entries, 100000 shown"))
    #expect((1...60).contains(rowCount(in: dom)))
    #expect(try screenshot(page, "#select=99999"))
  }
}
