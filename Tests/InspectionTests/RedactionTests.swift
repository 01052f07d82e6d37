import ChronicleInspection
import Foundation
import Testing

// Fixtures are private to this file so that their names never clash with other tests.
private let secretText = "hunter2"

private struct Credentials: Equatable, Codable {
  var user: String
  @Redacted var password: String
}

private enum Handshake: Equatable, Codable {
  case idle
  case signingIn(Redacted<String>)
  case verified(user: String, token: Redacted<String>)
}

private struct Vault: Equatable, Codable {
  var login = Credentials(user: "ada", password: secretText)
  var history = [Credentials(user: "bob", password: secretText)]
  var keychain = ["github": Redacted(secretText)]
  var recovery: Redacted<String>? = Redacted(secretText)
  var step = Handshake.verified(user: "ada", token: Redacted(secretText))
  var pending = Handshake.signingIn(Redacted(secretText))
}

/// Secrets held in plain properties, found only by the rules of a policy.
private struct Persona: Equatable {
  var name = "Ada"
  var apiToken = secretText
  var headers = ["Authorization": secretText, "Accept": "json"]
  var notes: [String] = []
}

private struct PinCode: SensitiveValue, Equatable {
  var digits: String
}

private struct Door: Equatable {
  var pin = PinCode(digits: secretText)
  var label = "front"
}

/// Every way a value can reach a log, a journal or a viewer.
private func everyRendering(of value: some Any, redaction: Redaction = .default) -> [String] {
  var dumped = ""
  dump(value, to: &dumped)
  return [
    ValueDump.render(value, redaction: redaction),
    ValueDump.renderInline(value, redaction: redaction),
    String(describing: value),
    String(reflecting: value),
    dumped,
  ]
}

@Suite struct RedactionTests {
  @Test func markedSecretsNeverAppearInAnyRendering() {
    for text in everyRendering(of: Vault()) {
      #expect(!text.contains(secretText), "\(text)")
    }
  }

  @Test func markedSecretsRenderAsPlaceholderAtEveryDepth() {
    #expect(
      ValueDump.render(Vault()) == """
        Vault(
          login: Credentials(
            user: "ada",
            password: <redacted>
          ),
          history: [
            [0]: Credentials(
              user: "bob",
              password: <redacted>
            )
          ],
          keychain: [
            "github": <redacted>
          ],
          recovery: <redacted>,
          step: .verified(
            user: "ada",
            token: <redacted>
          ),
          pending: .signingIn(<redacted>)
        )
        """
    )
  }

  @Test func markedSecretsNeverAppearInJSON() throws {
    let json = String(decoding: try JSONEncoder().encode(Vault()), as: UTF8.self)
    #expect(!json.contains(secretText))
    #expect(json.contains(#""password":"<redacted>""#))
  }

  @Test func changedMarkedSecretShowsThatItChangedButNotTheValue() {
    var new = Vault()
    new.login.password = "correct horse"
    #expect(StateDiff.render(from: Vault(), to: new) == "login.password: <redacted> → <redacted>")
  }

  @Test func unchangedMarkedSecretIsNoChange() {
    #expect(StateDiff.changes(from: Vault(), to: Vault()).isEmpty)
  }

  @Test func markedSecretsNeverAppearInDiffs() {
    let old = Vault()
    var new = Vault()
    new.history.append(Credentials(user: "eve", password: secretText))
    new.keychain["gitlab"] = Redacted(secretText)
    new.recovery = nil
    new.step = .verified(user: "ada", token: Redacted("other"))
    new.pending = .idle
    let diff = StateDiff.render(from: old, to: new)
    #expect(
      diff == """
        history[1]: added Credentials(user: "eve", password: <redacted>)
        keychain["gitlab"]: added <redacted>
        recovery: <redacted> → nil
        step.verified.token: <redacted> → <redacted>
        pending: .signingIn(<redacted>) → .idle
        """
    )
  }

  @Test func sensitiveValueTypeIsRedactedWhole() {
    #expect(ValueDump.renderInline(Door()) == #"Door(pin: <redacted>, label: "front")"#)
    var new = Door()
    new.pin.digits = "0000"
    #expect(StateDiff.render(from: Door(), to: new) == "pin: <redacted> → <redacted>")
  }

  @Test func noneStillRedactsMarkedValues() {
    #expect(
      ValueDump.renderInline(Credentials(user: "ada", password: secretText), redaction: .none)
        == #"Credentials(user: "ada", password: <redacted>)"#)
  }

  @Test func keyRuleRedactsPropertiesIgnoringCase() {
    let policy = Redaction(keys: ["APITOKEN"])
    #expect(
      ValueDump.renderInline(Persona(), redaction: policy)
        == #"Persona(name: "Ada", apiToken: <redacted>, headers: ["Accept": "json", "Authorization": "hunter2"], notes: [])"#
    )
  }

  @Test func keyRuleRedactsStringDictionaryKeys() {
    let policy = Redaction(keys: ["authorization"])
    #expect(
      ValueDump.renderInline(Persona().headers, redaction: policy)
        == #"["Accept": "json", "Authorization": <redacted>]"#
    )
  }

  @Test func keyRuleMatchesWholeNamesOnly() {
    let policy = Redaction(keys: ["token", "name"])
    #expect(ValueDump.renderInline(Persona(), redaction: policy).contains(secretText))
  }

  @Test func keyRulesKeepSecretsOutOfDiffs() {
    let policy = Redaction.default.redacting(keys: ["apiToken", "authorization"])
    var new = Persona()
    new.apiToken = "rotated"
    new.headers["Authorization"] = "rotated"
    #expect(
      StateDiff.render(from: Persona(), to: new, redaction: policy) == """
        apiToken: <redacted> → <redacted>
        headers["Authorization"]: <redacted> → <redacted>
        """
    )
  }

  @Test func keyRuleRedactsEnumCasePayloads() {
    enum Credential { case token(String), anonymous }
    #expect(
      ValueDump.renderInline(
        [Credential.token(secretText), .anonymous], redaction: Redaction(keys: ["token"]))
        == "[.token(<redacted>), .anonymous]")
  }

  @Test func keyRuleNamesTheLabelOfASingleEnumPayload() {
    enum Grant { case single(token: String) }
    let policy = Redaction(keys: ["token"])
    #expect(
      ValueDump.renderInline(Grant.single(token: secretText), redaction: policy)
        == "Grant.single(token: <redacted>)")
    #expect(
      SafeDescription.of(Grant.single(token: secretText), redaction: policy)
        == "Grant.single(token: <redacted>)")
    #expect(
      SafeDescription.member(Grant.single(token: secretText), redaction: policy)
        == "single(token: <redacted>)")
  }

  @Test func keyRuleNamingACaseHidesItsLabelledPayload() {
    enum Grant { case pair(name: String, token: String), single(token: String) }
    let policy = Redaction(keys: ["pair", "single"])
    #expect(
      ValueDump.renderInline(
        [Grant.pair(name: "ann", token: secretText), .single(token: secretText)], redaction: policy)
        == "[.pair(<redacted>), .single(<redacted>)]")
  }

  @Test func keyRuleNamesTheLabelOfASingleEnumPayloadInDiffs() {
    enum Grant: Equatable { case single(token: String) }
    struct Session: Equatable { var grant = Grant.single(token: "old") }
    let diff = StateDiff.changes(
      from: Session(), to: Session(grant: .single(token: secretText)), redaction: Redaction(keys: ["token"]))
    #expect(
      diff.map { "\($0.path): \($0.old ?? "") → \($0.new ?? "")" } == [
        "grant.single.token: <redacted> → <redacted>"
      ])
  }

  @Test func keyRuleNamingACaseHidesItsLabelledPayloadInDiffs() {
    enum Grant: Equatable { case pair(name: String, token: String) }
    struct Session: Equatable { var grant = Grant.pair(name: "ann", token: "old") }
    let diff = StateDiff.changes(
      from: Session(), to: Session(grant: .pair(name: "ann", token: secretText)),
      redaction: Redaction(keys: ["pair"]))
    #expect(
      diff.map { "\($0.path): \($0.old ?? "") → \($0.new ?? "")" } == ["grant.pair: <redacted> → <redacted>"])
  }

  @Test func keyRuleRedactsNilValuesToo() {
    struct Session { var token: String? }
    #expect(
      ValueDump.renderInline(Session(token: nil), redaction: Redaction(keys: ["token"]))
        == "Session(token: <redacted>)")
  }

  @Test func ruleClosureRedactsWhatItSelects() {
    let policy = Redaction { _, value in (value as? String) == secretText }
    var profile = Persona()
    profile.notes = ["call mom", secretText]
    for text in [
      ValueDump.renderInline(profile, redaction: policy),
      StateDiff.render(from: Persona(), to: profile, redaction: policy),
    ] {
      #expect(!text.contains(secretText), "\(text)")
    }
    #expect(
      StateDiff.render(from: Persona(), to: profile, redaction: policy) == """
        notes[0]: added "call mom"
        notes[1]: added <redacted>
        """
    )
  }

  @Test func ruleClosureReceivesThePathOfEachPart() {
    let policy = Redaction { path, _ in path.description == #"headers["Authorization"]"# }
    #expect(
      ValueDump.renderInline(Persona(), redaction: policy)
        == #"Persona(name: "Ada", apiToken: "hunter2", headers: ["Accept": "json", "Authorization": <redacted>], notes: [])"#
    )
  }

  @Test func ruleClosureNeverSeesMarkedValues() {
    let seen = SeenValues()
    let policy = Redaction { _, value in
      seen.append(ValueDump.renderInline(value, redaction: .none))
      return false
    }
    _ = ValueDump.render(Vault(), redaction: policy)
    _ = StateDiff.changes(
      from: Vault(), to: Vault(login: Credentials(user: "x", password: "y")), redaction: policy)
    let values = seen.values.joined(separator: "\n")
    #expect(!values.isEmpty)
    #expect(!values.contains(secretText))
    #expect(!values.contains(#""y""#))
  }

  @Test func policiesCompose() {
    let policy = Redaction(keys: ["apiToken"]).redacting { path, _ in path.description == "name" }
    #expect(
      ValueDump.renderInline(Persona(), redaction: policy.redacting(keys: ["headers"]))
        == "Persona(name: <redacted>, apiToken: <redacted>, headers: <redacted>, notes: [])"
    )
  }

  @Test func redactsReportsTheDecisionForOneValue() {
    let policy = Redaction(keys: ["password"])
    #expect(policy.redacts("x", at: [.property("login"), .property("Password")]))
    #expect(policy.redacts("x", at: [.property("settings"), .stringKey("PASSWORD")]))
    #expect(!policy.redacts("x", at: [.property("passwordHint")]))
    #expect(Redaction.none.redacts(Redacted(1), at: .root))
    #expect(!Redaction.none.redacts(1, at: [.property("password")]))
  }
}

/// What a rule closure was shown, collected from whichever thread calls it.
private final class SeenValues: @unchecked Sendable {
  private let lock = NSLock()
  // Guarded by `lock`.
  private var storage: [String] = []

  var values: [String] { lock.withLock { storage } }

  func append(_ value: String) {
    lock.withLock { storage.append(value) }
  }
}
