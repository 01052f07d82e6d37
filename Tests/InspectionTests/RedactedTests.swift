import ChronicleInspection
import Foundation
import Testing

// Fixtures are private to this file so that their names never clash with other tests.
private struct BankAccount: Equatable, Codable {
  var user: String
  @Redacted var password: String
  @Redacted var pin: Int
  @Redacted var recoveryCodes: [String]
  @Redacted var backupEmail: String?
}

private struct Fingerprint: Equatable, Codable {
  var hash: String
}

private struct Laptop: Codable {
  @Redacted var fingerprint: Fingerprint
}

private func decodeJSON<Value: Decodable>(_ type: Value.Type, from json: String) throws -> Value {
  try JSONDecoder().decode(type, from: Data(json.utf8))
}

@Suite struct RedactedTests {
  @Test func descriptionsShowThePlaceholder() {
    let secret = Redacted("hunter2")
    var dumped = ""
    dump(secret, to: &dumped)
    #expect(secret.description == "<redacted>")
    #expect(secret.debugDescription == "<redacted>")
    #expect(String(describing: secret) == "<redacted>")
    #expect("\(secret)" == "<redacted>")
    #expect(dumped == "- <redacted>\n")
    #expect(Mirror(reflecting: secret).children.isEmpty)
  }

  @Test func wrappedValueIsStillReadable() {
    let account = BankAccount(
      user: "ada", password: "hunter2", pin: 1234, recoveryCodes: ["a"], backupEmail: nil)
    #expect(account.password == "hunter2")
    #expect(Redacted("hunter2").wrappedValue == "hunter2")
  }

  @Test func equalityAndHashingUseTheValue() {
    #expect(Redacted("a") == Redacted("a"))
    #expect(Redacted("a") != Redacted("b"))
    #expect(Set([Redacted("a"), Redacted("a"), Redacted("b")]).count == 2)
  }

  @Test func encodingAlwaysWritesThePlaceholder() throws {
    let account = BankAccount(
      user: "ada", password: "hunter2", pin: 1234, recoveryCodes: ["x"], backupEmail: "a@b.c")
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(account), as: UTF8.self)
    #expect(
      json
        == #"{"backupEmail":"<redacted>","password":"<redacted>","pin":"<redacted>","recoveryCodes":"<redacted>","user":"ada"}"#
    )
  }

  @Test func decodingRestoresARealValue() throws {
    let json = #"{"user":"ada","password":"hunter2","pin":1234,"recoveryCodes":["x"],"backupEmail":null}"#
    let account = try decodeJSON(BankAccount.self, from: json)
    #expect(
      account
        == BankAccount(user: "ada", password: "hunter2", pin: 1234, recoveryCodes: ["x"], backupEmail: nil))
  }

  @Test func decodingThePlaceholderProducesStandInValues() throws {
    let json =
      #"{"user":"ada","password":"<redacted>","pin":"<redacted>","recoveryCodes":"<redacted>","backupEmail":"<redacted>"}"#
    let account = try decodeJSON(BankAccount.self, from: json)
    #expect(account == BankAccount(user: "ada", password: "", pin: 0, recoveryCodes: [], backupEmail: nil))
  }

  @Test func roundTripReplacesSecretsWithStandIns() throws {
    let account = BankAccount(
      user: "ada", password: "hunter2", pin: 1234, recoveryCodes: ["x"], backupEmail: "a@b.c")
    let decoded = try JSONDecoder().decode(BankAccount.self, from: JSONEncoder().encode(account))
    #expect(decoded == BankAccount(user: "ada", password: "", pin: 0, recoveryCodes: [], backupEmail: nil))
  }

  @Test func standardTypesProvideEmptyStandIns() throws {
    #expect(try decodeJSON(Redacted<Bool>.self, from: #""<redacted>""#).wrappedValue == false)
    #expect(try decodeJSON(Redacted<Double>.self, from: #""<redacted>""#).wrappedValue == 0)
    #expect(try decodeJSON(Redacted<UInt8>.self, from: #""<redacted>""#).wrappedValue == 0)
    #expect(try decodeJSON(Redacted<[String: Int]>.self, from: #""<redacted>""#).wrappedValue == [:])
    #expect(try decodeJSON(Redacted<Set<Int>>.self, from: #""<redacted>""#).wrappedValue == [])
  }

  @Test func decodingThePlaceholderWithoutStandInThrows() throws {
    do {
      _ = try decodeJSON(Laptop.self, from: #"{"fingerprint":"<redacted>"}"#)
      Issue.record("decoding a redacted Fingerprint should throw")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.codingPath.map(\.stringValue) == ["fingerprint"])
      #expect(
        context.debugDescription
          == "The Fingerprint value was redacted at capture and cannot be restored; conform Fingerprint to RedactionPlaceholder to decode a stand-in value."
      )
    }
  }

  @Test func decodingARealValueWithoutStandInSucceeds() throws {
    let device = try decodeJSON(Laptop.self, from: #"{"fingerprint":{"hash":"abc"}}"#)
    #expect(device.fingerprint == Fingerprint(hash: "abc"))
  }
}
