import ChronicleFormats
import ChronicleMiddleware
import ChronicleStore
import ChronicleTesting
import ChronicleTimeTravel
import ChronicleTracer
import Foundation
import Synchronization
import Testing

/// The three kinds of secret: a `SensitiveValue`, a `@Redacted` property and a value a key rule
/// names. Each is a string that appears nowhere else.
private let apiKeySecret = "SK-7f3a-apikey"
private let passwordSecret = "PW-hunter2-x9"
private let tokenSecret = "TK-91c2-token"
private let secrets = [apiKeySecret, passwordSecret, tokenSecret]
private let policy = Redaction(keys: ["token"])

/// A secret type whose own description and encoding give it away, as careless ones would.
private struct APIKey: SensitiveValue, Codable, Equatable, Sendable, CustomStringConvertible {
  var raw: String
  var description: String { raw }
}

/// An error that prints the secret it holds.
private struct Rejected: Error, CustomStringConvertible {
  var key: APIKey
  var description: String { "rejected \(key.raw)" }
}

private struct Vault: Reducer {
  struct State: Codable, Equatable, Sendable {
    var user = ""
    @Redacted var password = ""
    var key = APIKey(raw: "")
    var token = ""
    var session = Session.none
    var attempts = 0
  }

  enum Session: Codable, Equatable, Sendable {
    case none
    case token(String)
  }

  enum Action: Codable, Equatable, Sendable {
    case login(user: String, password: Redacted<String>)
    case key(APIKey)
    case token(String)
    case session(Session)
    case verify
  }

  /// Added to `attempts` by `session`, so that a replay with another bonus diverges there.
  var bonus = 0

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .login(let user, let password):
      state.user = user
      state.password = password.wrappedValue
    case .key(let key): state.key = key
    case .token(let token): state.token = token
    case .session(let session):
      state.session = session
      state.attempts += 1 + bonus
    case .verify:
      let key = state.key
      return .run { _ in throw Rejected(key: key) }
    }
    return .none
  }
}

/// Every text an output produced, by the output's name.
private final class Outputs: Sendable {
  private let texts = Mutex<[(name: String, text: String)]>([])

  func add(_ name: String, _ text: String) { texts.withLock { $0.append((name, text)) } }
  func add(_ name: String, _ data: Data) { add(name, String(decoding: data, as: UTF8.self)) }

  var all: [(name: String, text: String)] { texts.withLock { $0 } }

  /// `output: secret` for every secret found in an output.
  var leaks: [String] {
    all.flatMap { output in secrets.filter { output.text.contains($0) }.map { "\(output.name): \($0)" } }
  }
}

/// Sends every secret through a store with three loggers, a thunk that fails, an effect that
/// fails, a tracer and an NDJSON sink.
private func runFeature(outputs: Outputs, ndjson: URL) async throws -> Journal<Vault.State, Vault.Action> {
  let sink = try NDJSONFileSink<Vault.State, Vault.Action>(
    url: ndjson, options: ExportOptions(redaction: policy))
  let journal = Journal(reducer: Vault(), configuration: .init(checkpointInterval: 2, sinks: [sink]))
  let failing = Thunk<Vault.State, Vault.Action, Void>("check") { _, _, _ in
    throw Rejected(key: APIKey(raw: apiKeySecret))
  }
  let store = Store(
    initialState: Vault.State(), reducer: Vault(),
    middleware: [
      .tracer(journal),
      .logger(effects: true, redaction: policy, sink: .text { outputs.add("logger", $0) }),
      .logger(
        collapsed: true, diff: false, effects: true, redaction: policy,
        sink: .text(colored: true) { outputs.add("collapsed colored logger", $0) }),
      .logger(effects: true, redaction: policy, sink: .records { outputs.add("log record", "\($0)") }),
      .thunks(onError: { failure in
        outputs.add("thunk failure", failure.description)
        return nil
      }) { $0 == .verify ? failing : nil },
      .thunks { $0 == .verify ? failing : nil },
      AnyMiddleware(name: "failures", handle: { action, _, next in next(action) }) { event, _ in
        if case .failed(let message) = event.phase { outputs.add("effect error", message) }
      },
    ])
  store.send(.login(user: "ann", password: Redacted(passwordSecret)))
  store.send(.key(APIKey(raw: apiKeySecret)))
  store.send(.token(tokenSecret))
  store.send(.session(.token(tokenSecret)))
  store.send(.verify)
  await store.waitUntilIdle()
  sink.close()
  outputs.add("ndjson sink", try Data(contentsOf: ndjson))
  return journal
}

@Suite struct SecretLeakTests {
  @Test func noOutputHoldsASecret() async throws {
    let outputs = Outputs()
    let folder = try CLIRunner.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let stream = folder.appendingPathComponent("run.ndjson")
    let journal = try await runFeature(outputs: outputs, ndjson: stream)
    let errors = outputs.all.filter { $0.name == "effect error" }.map(\.text)
    // The effect and the thunk without a handler failed; both errors hold the key.
    #expect(errors == ["Rejected(key: <redacted>)", "Rejected(key: <redacted>)"])

    // Every export.
    let snapshot = journal.snapshot()
    let everyEntry = ExportOptions(redaction: policy, states: .everyEntry)
    let json = snapshot.journalJSON(options: everyEntry)
    outputs.add("journal JSON", json)
    outputs.add("journal JSON (checkpoints)", snapshot.journalJSON(options: ExportOptions(redaction: policy)))
    outputs.add("chrome trace", snapshot.chromeTrace(options: everyEntry))
    outputs.add("redux devtools custom", snapshot.reduxDevTools(.custom, options: everyEntry))
    outputs.add("redux devtools lifted", snapshot.reduxDevTools(.liftedState, options: everyEntry))
    outputs.add("viewer", snapshot.htmlViewer(redaction: policy))
    for (name, data) in [("json", json), ("ndjson", try Data(contentsOf: stream))] {
      let document = try JournalFile(data: data)
      outputs.add("document from \(name) → journal JSON", document.journalJSON())
      outputs.add("document from \(name) → NDJSON", document.ndjson())
      outputs.add("document from \(name) → chrome trace", document.chromeTrace())
      outputs.add("document from \(name) → redux devtools", document.reduxDevTools())
      outputs.add("document from \(name) → viewer", JournalViewer.html(for: document))
    }

    // The command-line tool, on both files.
    let file = folder.appendingPathComponent("run.json")
    try json.write(to: file)
    for input in [file.path, stream.path] {
      outputs.add("chronicle summary", try CLIRunner.chronicle("summary", input).output)
      for index in snapshot.indices {
        let result = try CLIRunner.chronicle("show", input, String(index))
        outputs.add("chronicle show \(index)", result.output + result.errors)
      }
      outputs.add("chronicle diff", try CLIRunner.chronicle("diff", input, "0", "4").output)
      for text in ["token", "key", "rejected", "TK", "SK", "PW"] {
        outputs.add(
          "chronicle filter \(text)", try CLIRunner.chronicle("filter", input, "--text", text).output)
      }
      for format in ["json", "ndjson", "chrome", "redux", "html"] {
        let output = folder.appendingPathComponent("converted.\(format)")
        #expect(try CLIRunner.chronicle("convert", input, output.path, "--to", format).status == 0)
        outputs.add("chronicle convert --to \(format)", try Data(contentsOf: output))
      }
    }

    // Generated tests, TestStore and replay messages.
    outputs.add(
      "generated test",
      try TestSourceGenerator.source(from: snapshot, reducer: "Vault()", redaction: policy))
    outputs.add("test store", await testStoreMessages())
    let divergence = try #require(Replay.verify(journal, reducer: Vault(bonus: 1)).divergence)
    outputs.add("replay divergence", divergence.description(redaction: policy))
    outputs.add("assertReplay", assertReplayMessages(journal))

    #expect(outputs.all.count > 60)
    #expect(outputs.leaks == [])
  }
}

private func comments(of issue: Issue) -> String {
  issue.comments.map(\.rawValue).joined(separator: "\n")
}

/// The failures of a test that asserts nothing about the secrets it sends.
private func testStoreMessages() async -> String {
  let messages = Mutex<[String]>([])
  let store = TestStore(initialState: Vault.State(), reducer: Vault(), redaction: policy)
  await withKnownIssue {
    await store.send(.login(user: "ann", password: Redacted(passwordSecret)))
    await store.send(.key(APIKey(raw: apiKeySecret)))
    await store.send(.token(tokenSecret)) { $0.token = "guess" }
    await store.send(.session(.token(tokenSecret)))
    await store.receive(.token(tokenSecret))
  } matching: { issue in
    messages.withLock { $0.append(comments(of: issue)) }
    return true
  }
  let text = messages.withLock { $0.joined(separator: "\n") }
  #expect(messages.withLock { $0.count } == 5)
  return text
}

private func assertReplayMessages(_ journal: Journal<Vault.State, Vault.Action>) -> String {
  let messages = Mutex<[String]>([])
  withKnownIssue {
    assertReplay(journal: journal, reducer: Vault(bonus: 1), redaction: policy)
  } matching: { issue in
    messages.withLock { $0.append(comments(of: issue)) }
    return true
  }
  #expect(messages.withLock { $0.count } == 1)
  return messages.withLock { $0.joined(separator: "\n") }
}
