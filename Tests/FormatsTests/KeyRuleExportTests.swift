import ChronicleInspection
import ChronicleStore
import Foundation
import Testing

@testable import ChronicleFormats
@testable import ChronicleJSON
@testable import ChronicleTracer

/// A credential as an enum: its payload is written in a nested container keyed by the case.
private enum Credential: Codable, Sendable, Equatable {
  case token(String)
  case anonymous
}

/// Writes its values in a nested unkeyed container opened for the key `token`.
private struct TokenList: Codable, Sendable, Equatable {
  var values: [String]

  init(_ values: [String]) { self.values = values }

  private enum CodingKeys: String, CodingKey { case token }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    var list = container.nestedUnkeyedContainer(forKey: .token)
    for value in values { try list.encode(value) }
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    var list = try container.nestedUnkeyedContainer(forKey: .token)
    var values: [String] = []
    while !list.isAtEnd { values.append(try list.decode(String.self)) }
    self.values = values
  }
}

private struct Vault: Codable, Sendable, Equatable {
  var credential = Credential.anonymous
  var saved: [Credential] = []
  var maybe: Credential?
}

/// One case per container shape that can carry a payload named by a key rule.
private enum VaultAction: Codable, Sendable, Equatable {
  /// Keyed: `{"token":{"_0":…}}`.
  case token(String)
  /// A nested enum: `{"use":{"_0":{"token":{"_0":…}}}}`.
  case use(Credential)
  /// Unkeyed: `{"save":{"_0":[{"token":{"_0":…}}]}}`.
  case save([Credential])
  /// An optional: `{"pick":{"_0":{"token":{"_0":…}}}}`.
  case pick(Credential?)
  /// A dictionary with a `String` key a rule names: `{"headers":{"_0":{"Token":…}}}`.
  case headers([String: String])
  /// A nested unkeyed container opened for the key: `{"list":{"_0":{"token":[…]}}}`.
  case list(TokenList)
  /// A case without payload named by a rule: `{"token":{}}` holds no secret.
  case anonymous
}

private struct VaultReducer: Reducer {
  func reduce(into state: inout Vault, action: VaultAction) -> Effect<VaultAction> {
    switch action {
    case .token(let token): state.credential = .token(token)
    case .use(let credential): state.credential = credential
    case .save(let credentials): state.saved = credentials
    case .pick(let credential): state.maybe = credential
    case .headers, .list, .anonymous: break
    }
    return .none
  }
}

private let secrets = ["s3cr3t-1", "s3cr3t-2", "s3cr3t-3", "s3cr3t-4", "s3cr3t-5", "s3cr3t-6", "s3cr3t-7"]
private let policy = Redaction(keys: ["user", "token"])

private typealias VaultJournal = Journal<Vault, VaultAction>

/// Sends one action of each shape, recording into a journal and, when given, an NDJSON file.
private func recordVault(ndjson url: URL? = nil) throws -> VaultJournal {
  var sinks: [any JournalSink<Vault, VaultAction>] = []
  if let url {
    sinks.append(try NDJSONFileSink<Vault, VaultAction>(url: url, options: ExportOptions(redaction: policy)))
  }
  let journal = VaultJournal(
    reducer: VaultReducer(), configuration: .init(checkpointInterval: 1, sinks: sinks))
  let store = Store(initialState: Vault(), reducer: VaultReducer(), middleware: [.tracer(journal)])
  store.send(.token(secrets[0]))
  store.send(.use(.token(secrets[1])))
  store.send(.save([.anonymous, .token(secrets[2])]))
  store.send(.pick(.token(secrets[3])))
  store.send(.headers(["Token": secrets[4]]))
  store.send(.list(TokenList([secrets[5], secrets[6]])))
  store.send(.anonymous)
  return journal
}

private func leaks(_ data: Data) -> [String] {
  let text = String(decoding: data, as: UTF8.self)
  return secrets.filter { text.contains($0) }
}

@Suite struct KeyRuleExportTests {
  private let options = ExportOptions(redaction: policy, states: .everyEntry)

  @Test func journalJSONRedactsThePayloadOfEveryCaseAKeyRuleNames() throws {
    let data = try recordVault().snapshot().journalJSON(options: options)
    let actions = try entries(of: data).map { compact($0["action"]) }
    #expect(
      actions == [
        #"{"token":{"_0":"<redacted>"}}"#,
        #"{"use":{"_0":{"token":{"_0":"<redacted>"}}}}"#,
        #"{"save":{"_0":[{"anonymous":{}},{"token":{"_0":"<redacted>"}}]}}"#,
        #"{"pick":{"_0":{"token":{"_0":"<redacted>"}}}}"#,
        #"{"headers":{"_0":{"Token":"<redacted>"}}}"#,
        #"{"list":{"_0":{"token":["<redacted>","<redacted>"]}}}"#,
        #"{"anonymous":{}}"#,
      ])
    #expect(leaks(data) == [])
  }

  @Test func aRedactedPayloadKeepsItsShapeSoThatAStringPayloadStillImports() throws {
    let data = try recordVault().snapshot().journalJSON(options: options)
    let journal = try VaultJournal(journalJSON: data, reducer: VaultReducer())
    #expect(journal.snapshot().entries.map(\.action).first == .token(Redaction.placeholder))
  }

  @Test func statesHoldingAnEnumCaseAKeyRuleNamesAreRedacted() throws {
    let data = try recordVault().snapshot().journalJSON(options: options)
    #expect(
      compact(try entries(of: data)[3]["state"])
        == #"{"credential":{"token":{"_0":"<redacted>"}},"saved":[{"anonymous":{}},{"token":{"_0":"<redacted>"}}],"maybe":{"token":{"_0":"<redacted>"}}}"#
    )
  }

  @Test func theNDJSONSinkRedactsThePayloadOfEveryCaseAKeyRuleNames() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "keyrule-\(UUID().uuidString).ndjson")
    defer { try? FileManager.default.removeItem(at: url) }
    _ = try recordVault(ndjson: url)
    let data = try Data(contentsOf: url)
    #expect(String(decoding: data, as: UTF8.self).contains(#"{"token":{"_0":"<redacted>"}}"#))
    #expect(leaks(data) == [])
  }

  @Test func theChromeTraceRedactsThePayloadOfEveryCaseAKeyRuleNames() throws {
    let data = try recordVault().snapshot().chromeTrace(options: options)
    #expect(String(decoding: data, as: UTF8.self).contains("<redacted>"))
    #expect(leaks(data) == [])
  }

  @Test(arguments: [ReduxDevToolsForm.custom, .liftedState])
  func reduxDevToolsRedactsThePayloadOfEveryCaseAKeyRuleNames(form: ReduxDevToolsForm) throws {
    let data = try recordVault().snapshot().reduxDevTools(form, options: options)
    #expect(String(decoding: data, as: UTF8.self).contains("<redacted>"))
    #expect(leaks(data) == [])
  }

  @Test func theHTMLViewerRedactsThePayloadOfEveryCaseAKeyRuleNames() throws {
    let data = try recordVault().snapshot().htmlViewer(redaction: policy)
    #expect(leaks(data) == [])
  }

  @Test func documentConversionsKeepThePayloadRedacted() throws {
    let document = try JournalFile(data: try recordVault().snapshot().journalJSON(options: options))
    for data in [document.journalJSON(), document.ndjson(), document.chromeTrace(), document.reduxDevTools()]
    {
      #expect(leaks(data) == [])
    }
  }
}

/// The entry objects of a Journal JSON document, members in the file's order.
private func entries(of data: Data) throws -> [JSONValue] {
  let root = try JSONParser.parse([UInt8](data), limits: JournalImportLimits.default.parser)
  guard case .array(let entries) = root["entries"] else { return [] }
  return entries
}

private func compact(_ value: JSONValue?) -> String {
  String(decoding: JSONWriter.serialize(value ?? .null), as: UTF8.self)
}
