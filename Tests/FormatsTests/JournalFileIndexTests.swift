import ChronicleFormats
import ChronicleTestSupport
import ChronicleTracer
import Testing
import TracerFixtures

/// `index` means a journal index everywhere, `position` a place in a file's `entries`: after
/// commits the two differ, and each method answers with its own.
@Suite struct JournalFileIndexTests {
  @Test func indexOfSequenceIsTheJournalIndexAndPositionIsThePlaceInEntries() throws {
    let (store, journal) = makeTracedStore()
    for _ in 0..<8 { store.send(.increment) }
    journal.commit(through: 4)
    let snapshot = journal.snapshot()
    let file = try JournalFile(data: snapshot.journalJSON())

    #expect(snapshot.index(ofSequence: 7) == 6)
    #expect(file.index(ofSequence: 7) == 6)
    #expect(file.position(ofSequence: 7) == 1)
    #expect(file.entries[1].index == 6)
    #expect(file.entries[1].sequence == 7)
  }

  @Test func aSequenceTheFileDoesNotHoldHasNeitherIndexNorPosition() throws {
    let (store, journal) = makeTracedStore()
    for _ in 0..<3 { store.send(.increment) }
    journal.commit(through: 0)
    let file = try JournalFile(data: journal.snapshot().journalJSON())

    #expect(file.index(ofSequence: 1) == nil)
    #expect(file.position(ofSequence: 1) == nil)
    #expect(file.index(ofSequence: 4) == nil)
    #expect(file.position(ofSequence: 2) == 0)
  }
}
