import ChronicleFormats
import ChronicleInspection
import ChronicleMiddleware
import ChronicleStore
import ChronicleTesting
import ChronicleTimeTravel
import ChronicleTracer
import Foundation
import Synchronization
import Testing

/// The three kinds of secret: a `SensitiveValue`, a `@Redacted` property and a value a key rule
/// names, the last in each kind of enum payload (unlabelled, labelled single, labelled pair) and
/// in the errors an effect and a thunk throw. Each is a string that appears nowhere else.
private let apiKeySecret = "SK-7f3a-apikey"
private let passwordSecret = "PW-hunter2-x9"
private let tokenSecret = "TK-91c2-token"
private let singleSecret = "TK-5e1a-single"
private let pairSecret = "TK-77b0-pair"
private let effectErrorSecret = "TK-e555-effect-error"
private let thunkErrorSecret = "TK-t666-thunk-error"
private let secrets = [
  apiKeySecret, passwordSecret, tokenSecret, singleSecret, pairSecret, effectErrorSecret, thunkErrorSecret,
]
private let policy = Redaction(keys: ["token"])

/// An error whose secret only a key rule names.
private struct KeyedError: Error {
  var token: String
}

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
    var grant = Grant.none
    var attempts = 0
  }

  /// The labelled kinds of enum payload, in the state.
  enum Grant: Codable, Equatable, Sendable {
    case none
    case single(token: String)
    case pair(name: String, token: String)
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
    case single(token: String)
    case pair(name: String, token: String)
    case verify
    case upload
  }

  /// Added to `attempts` by the actions `bonusOn` names (`session` by default), so that a replay
  /// with another bonus diverges there.
  var bonus = 0
  var bonusOn = "session"

  /// The case name of an action that takes the bonus.
  private static func name(of action: Action) -> String {
    switch action {
    case .token: "token"
    case .session: "session"
    case .single: "single"
    case .pair: "pair"
    default: ""
    }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .login(let user, let password):
      state.user = user
      state.password = password.wrappedValue
    case .key(let key): state.key = key
    case .token(let token): state.token = token
    case .session(let session):
      state.session = session
      state.attempts += 1
    case .single(let token): state.grant = .single(token: token)
    case .pair(let name, let token): state.grant = .pair(name: name, token: token)
    case .verify:
      let key = state.key
      return .run { _ in throw Rejected(key: key) }
    case .upload:
      return .run { _ in throw KeyedError(token: effectErrorSecret) }
    }
    if Self.name(of: action) == bonusOn { state.attempts += bonus }
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

/// Every action the feature is sent: each secret, in each kind of payload, and two effects and
/// two thunks that fail.
private let vaultActions: [Vault.Action] = [
  .login(user: "ann", password: Redacted(passwordSecret)),
  .key(APIKey(raw: apiKeySecret)),
  .token(tokenSecret),
  .session(.token(tokenSecret)),
  .single(token: singleSecret),
  .pair(name: "ann", token: pairSecret),
  .verify,
  .upload,
]

/// Sends every secret through a store with three loggers, thunks that fail, effects that fail,
/// a tracer and two NDJSON sinks (one writing each line, one in the background).
private func runFeature(
  outputs: Outputs, ndjson: URL, backgroundNDJSON: URL
) async throws -> Journal<Vault.State, Vault.Action> {
  let sink = try NDJSONFileSink<Vault.State, Vault.Action>(
    url: ndjson, options: ExportOptions(redaction: policy))
  let background = try NDJSONFileSink<Vault.State, Vault.Action>(
    url: backgroundNDJSON, options: ExportOptions(redaction: policy), writing: .inBackground())
  let journal = Journal(
    reducer: Vault(), configuration: .init(checkpointInterval: 2, sinks: [sink, background]))
  let failing = Thunk<Vault.State, Vault.Action, Void>("check") { _, _, _ in
    throw Rejected(key: APIKey(raw: apiKeySecret))
  }
  let failingKeyed = Thunk<Vault.State, Vault.Action, Void>("upload") { _, _, _ in
    throw KeyedError(token: thunkErrorSecret)
  }
  let route: @Sendable (Vault.Action) -> Thunk<Vault.State, Vault.Action, Void>? = {
    switch $0 {
    case .verify: failing
    case .upload: failingKeyed
    default: nil
    }
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
      .thunks(
        onError: { failure in
          outputs.add("thunk failure", failure.description(redaction: policy))
          return nil
        }, route: route),
      .thunks(route: route),
      AnyMiddleware(name: "failures", handle: { action, _, next in next(action) }) { event, _ in
        if let text = event.failureDescription(redaction: policy) { outputs.add("effect error", text) }
      },
    ])
  for action in vaultActions { store.send(action) }
  await store.waitUntilIdle()
  sink.close()
  background.close()
  outputs.add("ndjson sink", try Data(contentsOf: ndjson))
  outputs.add("ndjson sink in the background", try Data(contentsOf: backgroundNDJSON))
  return journal
}

@Suite struct SecretLeakTests {
  @Test func noOutputHoldsASecret() async throws {
    let outputs = Outputs()
    let folder = try CLIRunner.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let stream = folder.appendingPathComponent("run.ndjson")
    let backgroundStream = folder.appendingPathComponent("background.ndjson")
    let journal = try await runFeature(outputs: outputs, ndjson: stream, backgroundNDJSON: backgroundStream)
    let errors = outputs.all.filter { $0.name == "effect error" }.map(\.text)
    // The effects and the thunks without a handler failed; each error holds a secret.
    #expect(
      Set(errors) == [
        "Rejected(key: <redacted>)", "KeyedError(token: <redacted>)",
      ])
    #expect(errors.count == 4)
    #expect(outputs.all.filter { $0.name == "thunk failure" }.count == 2)

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
    for (name, data) in [
      ("json", json), ("ndjson", try Data(contentsOf: stream)),
      ("background ndjson", try Data(contentsOf: backgroundStream)),
    ] {
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
    for input in [file.path, stream.path, backgroundStream.path] {
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
    // A divergence at the entry of each kind of payload, in a journal with a checkpoint after
    // every entry.
    let (checkpointed, finalState) = recordedWithACheckpointAfterEveryEntry()
    for (kind, index) in [("token", 2), ("session", 3), ("single", 4), ("pair", 5)] {
      let reducer = Vault(bonus: 1, bonusOn: kind)
      let report = Replay.verify(checkpointed, reducer: reducer, finalState: finalState)
      let divergence = try #require(report.divergence)
      #expect(divergence.index == index)
      outputs.add("replay divergence at \(kind)", divergence.description(redaction: policy))
      outputs.add(
        "assertReplay at \(kind)",
        assertReplayMessages(checkpointed, reducer: reducer, finalState: finalState))
    }

    #expect(outputs.all.count > 60)
    #expect(outputs.leaks == [])
  }
}

private func comments(of issue: Issue) -> String {
  issue.comments.map(\.rawValue).joined(separator: "\n")
}

/// The failures of a test that asserts nothing about the secrets it sends, whose effects and
/// thunks fail.
private func testStoreMessages() async -> String {
  let messages = Mutex<[String]>([])
  let failingThunk = Thunk<Vault.State, Vault.Action, Void>("upload") { _, _, _ in
    throw KeyedError(token: thunkErrorSecret)
  }
  let store = TestStore(
    initialState: Vault.State(), reducer: Vault(),
    middleware: [.thunks { $0 == .upload ? failingThunk : nil }], redaction: policy)
  await withKnownIssue {
    await store.send(.login(user: "ann", password: Redacted(passwordSecret)))
    await store.send(.key(APIKey(raw: apiKeySecret)))
    await store.send(.token(tokenSecret)) { $0.token = "guess" }
    await store.send(.session(.token(tokenSecret)))
    await store.send(.single(token: singleSecret))
    await store.send(.pair(name: "ann", token: pairSecret))
    await store.receive(.token(tokenSecret))
    await store.send(.upload)
    await store.finish()
  } matching: { issue in
    messages.withLock { $0.append(comments(of: issue)) }
    return true
  }
  let text = messages.withLock { $0.joined(separator: "\n") }
  // Five changes not asserted, one wrong, one action never received, two failures.
  #expect(messages.withLock { $0.count } == 9)
  return text
}

/// The feature's actions recorded by a plain store with a checkpoint after each, and the state
/// the store reached.
private func recordedWithACheckpointAfterEveryEntry() -> (Journal<Vault.State, Vault.Action>, Vault.State) {
  let journal = Journal(reducer: Vault(), configuration: .init(checkpointInterval: 1))
  let store = Store(initialState: Vault.State(), reducer: Vault(), middleware: [.tracer(journal)])
  for action in vaultActions { store.send(action) }
  return (journal, store.state)
}

private func assertReplayMessages(
  _ journal: Journal<Vault.State, Vault.Action>, reducer: Vault = Vault(bonus: 1),
  finalState: Vault.State? = nil
) -> String {
  let messages = Mutex<[String]>([])
  withKnownIssue {
    assertReplay(journal: journal, reducer: reducer, finalState: finalState, redaction: policy)
  } matching: { issue in
    messages.withLock { $0.append(comments(of: issue)) }
    return true
  }
  #expect(messages.withLock { $0.count } == 1)
  return messages.withLock { $0.joined(separator: "\n") }
}
