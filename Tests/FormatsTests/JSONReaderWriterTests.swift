import ChronicleStore
import Foundation
import Testing

@testable import ChronicleFormats
@testable import ChronicleTracer

/// The tests of the JSON core that need a journal (the others are in JSONTests).
@Suite struct JSONReaderWriterTests {
  /// A state whose object has both keys loads in a `JournalFile`, and its diff tells them apart.
  @Test func aJournalFileKeepsKeysThatDifferInBytesApart() throws {
    let journal = Journal<String, String> { state, action in
      state = action
      return .none
    }
    let store = Store<String, String>(initialState: "", middleware: [.tracer(journal)]) { state, action in
      state = action
      return .none
    }
    store.send("a")
    store.send("b")
    var text = String(
      decoding: journal.snapshot().journalJSON(options: .init(states: .everyEntry)), as: UTF8.self)
    text = text.replacing(#""state":"a""#, with: "\"state\":{\"\u{E9}\":1,\"e\u{301}\":1}")
    text = text.replacing(#""state":"b""#, with: "\"state\":{\"\u{E9}\":1,\"e\u{301}\":2}")
    let file = try JournalFile(data: Data(text.utf8))
    let changes = try #require(file.stateChanges(from: 1, to: 1))
    #expect(changes.count == 1)
    #expect(changes.first.map { Array($0.utf8.prefix(3)) } == [0x65, 0xCC, 0x81])
    #expect(changes.first?.hasSuffix("1 → 2") == true)
  }
}
