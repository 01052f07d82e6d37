import ChronicleFormats
import ChronicleStore
import ChronicleTestSupport
import ChronicleTracer
import Foundation
import Testing
import TracerFixtures

extension Cause.Kind {
  /// A kind no Chronicle module declares, as an app declares its own.
  fileprivate static var socket: Cause.Kind { Cause.Kind("socket") }
}

@Suite struct OpenCauseKindTests {
  @Test func aKindEncodesAndDecodesAsItsBareName() throws {
    let data = try JSONEncoder().encode([Cause.Kind.user, .socket])
    #expect(String(decoding: data, as: UTF8.self) == #"["user","socket"]"#)
    #expect(try JSONDecoder().decode([Cause.Kind].self, from: data) == [.user, .socket])
  }

  @Test func anActionSentWithAnAppsOwnKindIsJournaledAndExportedUnderItsName() throws {
    let (store, journal) = makeTracedStore()
    store.send(.increment, cause: Cause(kind: .socket, label: "feed"))
    let snapshot = journal.snapshot()
    #expect(Array(snapshot.entries).map(\.cause) == [Cause(kind: .socket, label: "feed")])
    let text = String(decoding: snapshot.journalJSON(), as: UTF8.self)
    #expect(text.contains(#""cause":{"kind":"socket","label":"feed"}"#))
  }

  @Test func aKindTheReaderDoesNotDeclareIsKeptOnImportAndWrittenBackAsRead() throws {
    let (store, journal) = makeTracedStore()
    store.send(.increment)
    store.send(.add(5))
    let original = String(decoding: journal.snapshot().journalJSON(), as: UTF8.self)
    let target = #""kind":"user"},"type":"add""#
    #expect(original.components(separatedBy: target).count == 2, "\(target) occurs once")
    let text = original.replacingOccurrences(of: target, with: #""kind":"alien"},"type":"add""#)
    let imported = try CounterJournal(journalJSON: Data(text.utf8), reducer: Counter())
    let snapshot = imported.snapshot()
    #expect(Array(snapshot.entries).map(\.cause.kind) == [.user, Cause.Kind("alien")])
    #expect(String(decoding: snapshot.journalJSON(), as: UTF8.self) == text)
  }
}
