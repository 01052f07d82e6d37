import ChronicleInspection
import ChronicleStore
import ChronicleTesting
import ChronicleTimeTravel
import ChronicleTracer
import Foundation
import Synchronization
import Testing

/// A secret type whose own description and encoding give it away, as careless ones would.
private struct Passkey: SensitiveValue, Equatable, Sendable, Codable, CustomStringConvertible {
  var raw: String
  var description: String { raw }
}

private struct Vault: Reducer {
  struct State: Equatable, Sendable, Codable {
    var key = Passkey(raw: "")
    @Redacted var pin = ""
    var token = ""
    var opened = 0
  }

  enum Action: Equatable, Sendable, Codable {
    case store(Passkey)
    case setPin(Redacted<String>)
    case token(String)
    case open
  }

  /// Added to `opened` by `token`, so that a replay with another bonus diverges there.
  var bonus = 0

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .store(let key): state.key = key
    case .setPin(let pin): state.pin = pin.wrappedValue
    case .token(let token):
      state.token = token
      state.opened += bonus
    case .open: state.opened += 1
    }
    return .none
  }
}

private let secrets = ["pk-s3cr3t", "4921", "tok-s3cr3t"]
private let policy = Redaction(keys: ["token"])

private func leaks(_ text: String) -> [String] { secrets.filter { text.contains($0) } }

private func recorded() -> Journal<Vault.State, Vault.Action> {
  let journal = Journal(reducer: Vault(), configuration: .init(checkpointInterval: 1))
  let store = Store(initialState: Vault.State(), reducer: Vault(), middleware: [.tracer(journal)])
  store.send(.store(Passkey(raw: secrets[0])))
  store.send(.setPin(Redacted(secrets[1])))
  store.send(.token(secrets[2]))
  store.send(.open)
  return journal
}

@Suite struct SecretMessageTests {
  @Test func testStoreFailureMessagesRedactActionsAndStates() async {
    let store = TestStore(initialState: Vault.State(), reducer: Vault(), redaction: policy)
    let messages = Mutex<[String]>([])
    await withKnownIssue {
      await store.send(.store(Passkey(raw: secrets[0])))
      await store.send(.setPin(Redacted(secrets[1])))
      await store.send(.token(secrets[2])) { $0.token = "wrong" }
    } matching: { issue in
      messages.withLock { $0.append(comment(issue)) }
      return true
    }
    let expected: [String] = [
      "State changed after sending store(<redacted>), but no change was asserted:\n"
        + "  key: expected <redacted>, actual <redacted>",
      "State changed after sending setPin(<redacted>), but no change was asserted:\n"
        + "  pin: expected <redacted>, actual <redacted>",
      "State after sending token(<redacted>) does not match the expectation:\n"
        + "  token: expected <redacted>, actual <redacted>",
    ]
    #expect(messages.withLock { $0 } == expected)
  }

  @Test func aReceivedActionMismatchIsReportedWithoutItsSecret() async {
    let store = TestStore(
      initialState: Vault.State(),
      reducer: Reduce<Vault.State, Vault.Action> { _, action in
        action == .open ? .send(.token(secrets[2])) : .none
      }, redaction: policy)
    let messages = Mutex<[String]>([])
    await withKnownIssue {
      await store.send(.open)
      await store.receive(.token("other"))
    } matching: { issue in
      messages.withLock { $0.append(comment(issue)) }
      return true
    }
    #expect(messages.withLock { $0 }.count == 1)
    #expect(
      messages.withLock { $0 }.first?.hasPrefix(
        "Received unexpected action:\n  − token(<redacted>)\n  + token(<redacted>)\n    (sent from ") == true)
  }

  @Test func generatedTestSourcesHoldNoSecret() throws {
    let source = try TestSourceGenerator.source(
      from: recorded().snapshot(), reducer: "Vault()", redaction: policy)
    #expect(leaks(source) == [])
    #expect(
      source.contains("  // <redacted> marks a secret the recording hid: put a test value in its place."))
    #expect(source.contains("  await store.send(.store(<redacted>)) {"))
    #expect(source.contains("  await store.send(.token(<redacted>)) {"))
  }

  @Test func replayDivergencesAndAssertReplayMessagesHoldNoSecret() throws {
    let journal = recorded()
    let divergence = try #require(Replay.verify(journal, reducer: Vault(bonus: 1)).divergence)
    #expect(divergence.index == 2)
    #expect(leaks(divergence.description(redaction: policy)) == [])
    let messages = Mutex<[String]>([])
    withKnownIssue {
      assertReplay(journal: journal, reducer: Vault(bonus: 1), redaction: policy)
    } matching: { issue in
      messages.withLock { $0.append(comment(issue)) }
      return true
    }
    #expect(messages.withLock { $0.count } == 1)
    #expect(leaks(messages.withLock { $0.joined() }) == [])
  }

  @Test func aReplayDivergenceWritesAnActionHoldingASensitiveValueAsItsDump() throws {
    let journal = Journal(reducer: Vault(), configuration: .init(checkpointInterval: 1))
    let store = Store(initialState: Vault.State(), reducer: Vault(), middleware: [.tracer(journal)])
    store.send(.store(Passkey(raw: secrets[0])))
    store.send(.open)
    store.send(.open)
    let divergence = try #require(
      Replay.verify(
        journal,
        reducer: Reduce<Vault.State, Vault.Action> { state, _ in
          state.opened = 9
          return .none
        }
      ).divergence)
    #expect(divergence.description.hasPrefix("entry 0 (#1) store(<redacted>), cause user, sent from"))
  }
}
