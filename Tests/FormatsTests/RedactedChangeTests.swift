import ChronicleInspection
import ChronicleStore
import Foundation
import Testing

@testable import ChronicleFormats
@testable import ChronicleJSON
@testable import ChronicleTracer

private struct Login: Codable, Sendable, Equatable {
  var user = ""
  @Redacted var password = ""
  var token = ""
}

private enum LoginAction: Codable, Sendable, Equatable {
  case password(Redacted<String>)
  case token(String)
  case user(String)
}

private struct LoginReducer: Reducer {
  func reduce(into state: inout Login, action: LoginAction) -> Effect<LoginAction> {
    switch action {
    case .password(let password): state.password = password.wrappedValue
    case .token(let token): state.token = token
    case .user(let user): state.user = user
    }
    return .none
  }
}

private let policy = Redaction(keys: ["token"])

/// A password set, set again to the same value, changed; a token changed; a user renamed.
private func recordedLogin() -> Data {
  let journal = Journal<Login, LoginAction>(
    reducer: LoginReducer(), configuration: .init(checkpointInterval: 100))
  let store = Store(initialState: Login(), reducer: LoginReducer(), middleware: [.tracer(journal)])
  store.send(.password(Redacted("hunter2")))
  store.send(.password(Redacted("hunter2")))
  store.send(.password(Redacted("hunter3")))
  store.send(.token("tok-1"))
  store.send(.user("ann"))
  return journal.snapshot().journalJSON(options: ExportOptions(redaction: policy, states: .everyEntry))
}

@Suite struct RedactedChangeTests {
  @Test func everyEntryExportsListTheRedactedValuesThatChanged() throws {
    let root = try JSONParser.parse([UInt8](recordedLogin()), limits: JournalImportLimits.default.parser)
    guard case .array(let entries) = root["entries"] else {
      Issue.record("no entries")
      return
    }
    #expect(
      entries.map { $0["redactedChanges"] } == [
        .array([.array([.string("password")])]), nil, .array([.array([.string("password")])]),
        .array([.array([.string("token")])]), nil,
      ])
  }

  @Test func documentStateChangesSayThatARedactedValueChangedWithoutTheValue() throws {
    let document = try JournalFile(data: recordedLogin())
    #expect(document.stateChanges(from: 0, to: 0) == [#"password: "<redacted>" → "<redacted>""#])
    #expect(document.stateChanges(from: 1, to: 1) == [])
    #expect(document.stateChanges(from: 3, to: 3) == [#"token: "<redacted>" → "<redacted>""#])
    #expect(document.stateChanges(from: 4, to: 4) == [#"user: "" → "ann""#])
    #expect(
      document.stateChanges(from: 0, to: 4) == [
        #"user: "" → "ann""#, #"password: "<redacted>" → "<redacted>""#,
        #"token: "<redacted>" → "<redacted>""#,
      ])
  }

  @Test func viewerPatchesMarkARedactedValueThatChanged() throws {
    let document = try JournalFile(data: recordedLogin())
    let data = ViewerData.make(document, title: "t", interval: 100)
    guard case .array(let patches) = data["patches"] else {
      Issue.record("no patches")
      return
    }
    let placeholder = JSONValue.string(Redaction.placeholder)
    #expect(
      patches == [
        .array([.array([.array([.string("password")]), placeholder])]),
        .array([]),
        .array([.array([.array([.string("password")]), placeholder])]),
        .array([.array([.array([.string("token")]), placeholder])]),
        .array([.array([.array([.string("user")]), .string("ann")])]),
      ])
  }

  @Test func theTypedImporterReadsAFileThatListsRedactedChanges() throws {
    let journal = try Journal<Login, LoginAction>(journalJSON: recordedLogin(), reducer: LoginReducer())
    #expect(journal.snapshot().count == 5)
  }

  @Test func aMalformedRedactedChangesListIsATypedError() throws {
    let text = String(decoding: recordedLogin(), as: UTF8.self)
      .replacingOccurrences(of: #""redactedChanges":[["password"]]"#, with: #""redactedChanges":[true]"#)
    #expect(
      throws: JournalImportError.wrongType(
        entry: 0, field: "entries[0].redactedChanges[0]", expected: "array of strings and integers",
        found: "bool")
    ) {
      try JournalFile(data: Data(text.utf8))
    }
  }
}
