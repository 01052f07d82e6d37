import ChronicleMiddleware
import ChronicleStore
import ChronicleTimeTravel
import ChronicleTracer
import Testing

@Suite struct ExplicitCauseJournalTests {
  @Test func anExplicitCauseIsJournaledAsGiven() {
    let journal = Journal<Int, Int>(reducer: Sum())
    let store = Store(initialState: 0, reducer: Sum(), middleware: [.tracer(journal)])
    let cause = Cause(kind: .stream, parent: 12, effect: 4, label: "socket")
    store.send(5, context: "feed", cause: cause)
    #expect(journal.entry(at: 0)?.cause == cause)
    #expect(journal.entry(at: 0)?.context == "feed")
  }

  @Test func theParentGivenToStartIsJournaledWithTheWorksActions() async {
    let journal = Journal<Int, Int>(reducer: Sum())
    let store = Store(initialState: 0, reducer: Sum(), middleware: [.tracer(journal)])
    store.run(.send(3), as: .thunk, label: "import", parent: 9)
    await store.waitUntilIdle()
    #expect(journal.entry(at: 0)?.cause == Cause(kind: .thunk, parent: 9, label: "import"))
  }
}
