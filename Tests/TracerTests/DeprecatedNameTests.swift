import ChronicleFormats
import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing
import TracerFixtures

@testable import ChronicleTracer

/// The names issue 14 replaced still work for one release, as deprecated aliases of the new ones.
@Suite struct DeprecatedNameTests {
  @available(*, deprecated, message: "exercises deprecated names")
  @Test func stateAtIsStateAfter() {
    let (store, journal) = makeTracedStore()
    store.send(.increment)
    store.send(.add(5))
    #expect(journal.state(at: 1) == Counter.State(count: 6))
    #expect(journal.snapshot().state(at: 0) == Counter.State(count: 1))
  }

  @available(*, deprecated, message: "exercises deprecated names")
  @Test func journalDocumentIsJournalFileAndPositionIsIndex() throws {
    let (store, journal) = makeTracedStore()
    store.send(.increment)
    store.send(.add(5))
    let document: JournalDocument = try JournalFile(data: journal.snapshot().journalJSON())
    let entry: DocumentEntry = document.entries[1]
    #expect(entry.sequence == 2)
    #expect(document.position(ofSequence: 2) == 1)
  }
}
