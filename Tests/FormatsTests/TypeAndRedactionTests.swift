import ChronicleInspection
import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing
import TracerFixtures

@testable import ChronicleFormats
@testable import ChronicleTracer

private struct OtherState: Codable, Sendable, Equatable { var count = 0 }

/// A secret type: exports write it as the placeholder, which its decoding accepts.
private struct APIKey: SensitiveValue, Codable, Sendable, Equatable {
  var raw: String

  init(raw: String) { self.raw = raw }

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let text = try? container.decode(String.self), text == Redaction.placeholder {
      raw = ""
    } else {
      raw = try container.decode([String: String].self)["raw"] ?? ""
    }
  }
}

private struct Account: Codable, Sendable, Equatable {
  var user = ""
  var password = ""
  @Redacted var token = ""
  var key = APIKey(raw: "")
}

private enum AccountAction: Codable, Sendable, Equatable {
  case login(user: String, password: String)
  case token(Redacted<String>)
  case key(APIKey)
}

private struct Accounts: Reducer {
  func reduce(into state: inout Account, action: AccountAction) -> Effect<AccountAction> {
    switch action {
    case .login(let user, let password):
      state.user = user
      state.password = password
    case .token(let token): state.token = token.wrappedValue
    case .key(let key): state.key = key
    }
    return .none
  }
}

/// An action that is not `Encodable`.
private enum Gesture: Sendable, Equatable { case tap(x: Int, y: Int) }

/// A `Codable` action whose values cannot always be encoded as JSON.
private enum Reading: Codable, Sendable, Equatable { case value(Double) }

@Suite struct TypeAndRedactionTests {
  @Test func importingIntoAnotherStateTypeIsRefusedNamingBothTypes() async throws {
    let (journal, _) = await recordedRun()
    let data = journal.snapshot().journalJSON()
    #expect(
      throws: JournalImportError.typeMismatch(
        .state, expected: "FormatsTests.OtherState", found: "ChronicleTestSupport.Counter.State",
        difference: "expected type FormatsTests.OtherState, found ChronicleTestSupport.Counter.State")
    ) {
      try Journal<OtherState, Counter.Action>(journalJSON: data, reducer: Reduce { _, _ in .none })
    }
    #expect {
      try Journal<Counter.State, String>(journalJSON: data, reducer: Reduce { _, _ in .none })
    } throws: { error in
      guard
        case .typeMismatch(.action, "Swift.String", "ChronicleTestSupport.Counter.Action", _) = error
          as? JournalImportError
      else { return false }
      return true
    }
  }

  @Test func aStateWhoseFieldsChangedIsRefusedNamingTheFields() async throws {
    let (journal, _) = await recordedRun()
    let text = String(decoding: journal.snapshot().journalJSON(), as: UTF8.self)
      .replacingOccurrences(
        of: "count: Int, log: Array<String>", with: "count: Int, log: Array<String>, limit: Int")
    #expect {
      try CounterJournal(journalJSON: Data(text.utf8), reducer: Counter())
    } throws: { error in
      guard case .typeMismatch(.state, _, _, let difference) = error as? JournalImportError else {
        return false
      }
      return difference
        == "ChronicleTestSupport.Counter.State changed: the file has limit: Int that ChronicleTestSupport.Counter.State does not"
    }
  }

  @Test func actionsThatAreNotEncodableExportByDescription() throws {
    let journal = Journal<Int, Gesture> { state, _ in
      state += 1
      return .none
    }
    let store = Store<Int, Gesture>(initialState: 0, middleware: [.tracer(journal)]) { state, _ in
      state += 1
      return .none
    }
    store.send(.tap(x: 1, y: 2))
    let root = try jsonObject(journal.snapshot().journalJSON())
    #expect(((root["meta"] as? [String: Any])?["action"] as? [String: Any])?["encodable"] as? Bool == false)
    let entry = try #require((root["entries"] as? [[String: Any]])?.first)
    #expect(entry["replayable"] as? Bool == false)
    #expect(entry["action"] as? String == "Gesture.tap(x: 1, y: 2)")
    #expect(entry["type"] as? String == "tap")
  }

  @Test func anActionThatFailsToEncodeIsNotReplayable() throws {
    let journal = Journal<Double, Reading> { state, action in
      if case .value(let value) = action { state = value }
      return .none
    }
    let store = Store<Double, Reading>(initialState: 0, middleware: [.tracer(journal)]) { state, action in
      if case .value(let value) = action { state = value }
      return .none
    }
    store.send(.value(1.5))
    store.send(.value(.nan))
    let data = journal.snapshot().journalJSON()
    let entries = try #require(try jsonObject(data)["entries"] as? [[String: Any]])
    #expect(entries.map { $0["replayable"] as? Bool } == [true, false])
    #expect(throws: JournalImportError.notReplayable(entry: 1, field: "entries[1].action")) {
      try Journal<Double, Reading>(journalJSON: data, reducer: Reduce { _, _ in .none })
    }
  }

  private func recordAccount() -> Journal<Account, AccountAction> {
    let journal = Journal(reducer: Accounts(), configuration: .init(checkpointInterval: 1))
    let store = Store(
      initialState: Account(), reducer: Accounts(), middleware: [.tracer(journal), .tracerProbe(journal)])
    store.send(.login(user: "alice", password: "hunter2"))
    store.send(.token(Redacted("secret-token")))
    store.send(.key(APIKey(raw: "key-123")))
    return journal
  }

  private func exports(
    _ snapshot: JournalSnapshot<Account, AccountAction>, _ options: ExportOptions
  ) throws -> [String: String] {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("chronicle-\(UUID()).ndjson")
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Account, AccountAction>(url: url, options: options)
    for entry in snapshot.entries {
      sink.record(
        entry, checkpoint: snapshot.checkpoints.first { $0.index == entry.index }, metadata: snapshot.metadata
      )
    }
    return [
      "journal": String(decoding: snapshot.journalJSON(options: options), as: UTF8.self),
      "every state": String(
        decoding: snapshot.journalJSON(
          options: ExportOptions(redaction: options.redaction, states: .everyEntry)),
        as: UTF8.self),
      "ndjson": try String(contentsOf: url, encoding: .utf8),
      "chrome": String(decoding: snapshot.chromeTrace(options: options), as: UTF8.self),
      "redux custom": String(decoding: snapshot.reduxDevTools(.custom, options: options), as: UTF8.self),
      "redux lifted": String(decoding: snapshot.reduxDevTools(.liftedState, options: options), as: UTF8.self),
    ]
  }

  @Test func valuesMarkedSensitiveNeverAppearInAnyExport() throws {
    let snapshot = recordAccount().snapshot()
    for (name, text) in try exports(snapshot, ExportOptions()) {
      #expect(!text.contains("secret-token"), "\(name)")
      #expect(!text.contains("key-123"), "\(name)")
      #expect(text.contains("alice"), "\(name)")
      #expect(text.contains("hunter2"), "\(name): no key rule hides the password by default")
    }
  }

  @Test func keyRulesApplyToTheJSONOfEveryExport() throws {
    let snapshot = recordAccount().snapshot()
    let options = ExportOptions(redaction: Redaction(keys: ["password"]))
    for (name, text) in try exports(snapshot, options) {
      #expect(!text.contains("hunter2"), "\(name)")
      #expect(!text.contains("secret-token"), "\(name)")
      #expect(!text.contains("key-123"), "\(name)")
      #expect(text.contains("alice"), "\(name)")
      #expect(text.contains("<redacted>"), "\(name)")
    }
  }

  @Test func aRedactedJournalStillImportsWithPlaceholders() throws {
    let snapshot = recordAccount().snapshot()
    let data = snapshot.journalJSON(options: ExportOptions(redaction: Redaction(keys: ["password"])))
    let imported = try Journal(journalJSON: data, reducer: Accounts())
    let state = try #require(imported.state(after: 2))
    #expect(state.user == "alice")
    #expect(state.password == "<redacted>")
    #expect(state.token == "")
    #expect(state.key == APIKey(raw: ""))
  }
}
