import ChronicleInspection
import ChronicleMiddleware
import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing

/// A feature full of secrets: marked with `Redacted` and `SensitiveValue` at every depth (in
/// arrays, dictionaries, optionals, enum payloads), and named by a key policy (`token`, which
/// also covers the dictionary key `"Token"`).
enum Vault {
  struct Card: SensitiveValue, Equatable, Sendable { var number: String }

  struct Session: Equatable, Sendable {
    var user: String
    var token: String
  }

  struct State: Equatable, Sendable {
    var sessions: [Session] = []
    var pins: [String: Redacted<String>] = [:]
    var history: [Redacted<String>] = []
    var backup: Redacted<String>?
    var cards: [Card] = []
    var headers: [String: String] = [:]
  }

  enum Action: Equatable, Sendable {
    case signIn(Session)
    case signOut
    case setPin(String, Redacted<String>?)
    case remember(Redacted<String>)
    case backup(Redacted<String>?)
    case addCard(Card)
    case header(String, Redacted<String>)
  }

  static let reducer = Reduce<State, Action> { state, action in
    switch action {
    case .signIn(let session): state.sessions.append(session)
    case .signOut: state.sessions.removeAll()
    case .setPin(let user, let pin): state.pins[user] = pin
    case .remember(let secret): state.history.append(secret)
    case .backup(let secret): state.backup = secret
    case .addCard(let card): state.cards.append(card)
    case .header(let name, let value): state.headers[name] = value.wrappedValue
    }
    return .none
  }

  static let secrets = [
    "tok-abc", "tok-def", "pin-1234", "pin-5678", "s3cr3t-1", "s3cr3t-2", "hunter2", "card-4242",
  ]

  /// Every kind of change: additions, changes and removals of secrets at every depth.
  static let actions: [Action] = [
    .signIn(Session(user: "ann", token: "tok-abc")),
    .setPin("ann", Redacted("pin-1234")),
    .remember(Redacted("s3cr3t-1")),
    .remember(Redacted("s3cr3t-2")),
    .backup(Redacted("hunter2")),
    .addCard(Card(number: "card-4242")),
    .header("Token", Redacted("tok-def")),
    .header("Accept", Redacted("text/plain")),
    .setPin("ann", Redacted("pin-5678")),
    .backup(nil),
    .setPin("ann", nil),
    .signOut,
  ]
}

/// The ways the logger can write.
enum LoggerOutput: String, CaseIterable, Sendable {
  case expanded, collapsed, wholeState, colored, records, recordsWithWholeState, transformed
}

@Suite("Logger redaction")
struct LoggerRedactionTests {
  @Test(arguments: LoggerOutput.allCases)
  func secretsNeverAppearInAnyOutput(_ output: LoggerOutput) {
    let texts = Recorder<String>()
    var options = LoggerOptions<Vault.State, Vault.Action>(redaction: Redaction(keys: ["token"]))
    var sink = LogSink.text { texts.append($0) }
    switch output {
    case .expanded: break
    case .collapsed: options.collapsed = true
    case .wholeState: options.diff = false
    case .colored: sink = .text(colored: true) { texts.append($0) }
    case .records, .recordsWithWholeState:
      options.diff = output == .records
      sink = .records { record in
        texts.append(
          ([record.message, record.action, record.stateBefore, record.stateAfter, record.text].compactMap {
            $0
          }
            + record.details + (record.changes ?? [])).joined(separator: "\n"))
      }
    case .transformed:
      options.actionTransformer = { action in [action] }
      options.stateTransformer = { state in ["vault": state] }
    }
    let store = Store(
      initialState: Vault.State(), reducer: Vault.reducer, middleware: [.logger(options, sink: sink)])
    for action in Vault.actions { store.send(action) }

    let everything = texts.values.joined(separator: "\n")
    #expect(texts.count == Vault.actions.count)
    for secret in Vault.secrets {
      #expect(!everything.contains(secret), "\(secret) leaked in \(output) output:\n\(everything)")
    }
    #expect(everything.contains("<redacted>"))
    #expect(everything.contains("ann"))
    #expect(everything.contains("text/plain"))
  }

  @Test func changesToSecretsAreReportedWithoutTheirValues() {
    let lines = Recorder<String>()
    let store = Store(
      initialState: Vault.State(), reducer: Vault.reducer,
      middleware: [
        .logger(
          collapsed: true, duration: false, timestamp: false, redaction: Redaction(keys: ["token"]),
          sink: .text { lines.append($0) })
      ])
    for action in Vault.actions { store.send(action) }
    #expect(
      lines.values == [
        #"#1 Vault.Action.signIn(Vault.Session(user: "ann", token: <redacted>)) — sessions[0]: added Vault.Session(user: "ann", token: <redacted>)"#,
        #"#2 Vault.Action.setPin("ann", <redacted>) — pins["ann"]: added <redacted>"#,
        #"#3 Vault.Action.remember(<redacted>) — history[0]: added <redacted>"#,
        #"#4 Vault.Action.remember(<redacted>) — history[1]: added <redacted>"#,
        #"#5 Vault.Action.backup(<redacted>) — backup: nil → <redacted>"#,
        #"#6 Vault.Action.addCard(<redacted>) — cards[0]: added <redacted>"#,
        #"#7 Vault.Action.header("Token", <redacted>) — headers["Token"]: added <redacted>"#,
        #"#8 Vault.Action.header("Accept", <redacted>) — headers["Accept"]: added "text/plain""#,
        #"#9 Vault.Action.setPin("ann", <redacted>) — pins["ann"]: <redacted> → <redacted>"#,
        #"#10 Vault.Action.backup(nil) — backup: <redacted> → nil"#,
        #"#11 Vault.Action.setPin("ann", nil) — pins["ann"]: removed <redacted>"#,
        #"#12 Vault.Action.signOut — sessions[0]: removed Vault.Session(user: "ann", token: <redacted>)"#,
      ])
  }

  @Test func anEffectErrorIsLoggedUnderTheLoggersPolicy() async {
    struct KeyedError: Error { var token: String }
    let lines = Recorder<String>()
    let store = Store(
      initialState: 0,
      middleware: [
        .logger(
          timestamp: false, redaction: Redaction(keys: ["token"]), sink: .text { lines.append($0) })
      ]
    ) { (_: inout Int, _: Int) -> Effect<Int> in .run { _ in throw KeyedError(token: "errtok-s3cr3t") } }
    store.send(1)
    await store.waitUntilIdle()
    #expect(lines.values.last == "effect failed: KeyedError(token: <redacted>) ← #1")
  }

  @Test func anEffectErrorInALogRecordIsWrittenUnderTheLoggersPolicyAndNotKept() async throws {
    struct KeyedError: Error { var token: String }
    let records = Recorder<LogRecord>()
    let store = Store(
      initialState: 0,
      middleware: [.logger(redaction: Redaction(keys: ["token"]), sink: .records { records.append($0) })]
    ) { (_: inout Int, _: Int) -> Effect<Int> in .run { _ in throw KeyedError(token: "errtok-s3cr3t") } }
    store.send(1)
    await store.waitUntilIdle()
    let effect = try #require(records.values.last?.effect)
    #expect(effect.phase == .failed("KeyedError(token: <redacted>)"))
    #expect(effect.error == nil)
    #expect(!"\(records.values)".contains("s3cr3t"))
  }
}
