import ChronicleStore
import ChronicleTestSupport
import Testing

/// A middleware that records the cause and context of every action it sees, and whether
/// the context's cause is the metadata's.
private func causeAndContextRecorder(
  into recorder: Recorder<String>
) -> AnyMiddleware<Counter.State, Counter.Action> {
  AnyMiddleware(name: "causes") { action, context, next in
    let metadata = context.metadata
    recorder.append(
      "\(action) \(context.cause) \(metadata.cause == context.cause) \(metadata.context ?? "-")")
    next(action)
  }
}

@Suite("Sending with an explicit cause")
struct ExplicitCauseTests {
  @Test func anExplicitCauseReachesTheMiddlewaresAsGiven() {
    let recorder = Recorder<String>()
    let store = Store(
      initialState: Counter.State(), reducer: Counter(), middleware: [causeAndContextRecorder(into: recorder)]
    )
    store.send(.increment, context: "bridge", cause: Cause(kind: .stream, label: "location"))
    store.send(
      .increment, context: "bridge", cause: Cause(kind: .stream, parent: 7, effect: 2, label: "location"))
    #expect(
      recorder.values == [
        #"increment stream "location" true bridge"#, #"increment stream "location" ← #7 true bridge"#,
      ])
    #expect(store.state.count == 2)
  }

  @Test func kindsWithoutLabelsReachTheMiddlewaresAsGivenWhateverTheirStrings() {
    let recorder = Recorder<String>()
    let store = Store(
      initialState: Counter.State(), reducer: Counter(), middleware: [causeAndContextRecorder(into: recorder)]
    )
    // Built at run time: equal names in different buffers, and names of the same length (whose
    // strings differ in their second word only).
    let long = { (letter: Character) in Cause.Kind("socket-" + String(repeating: letter, count: 24)) }
    let kinds = [long("a"), long("a"), long("b"), .user, .stream, .user, long("b")]
    for kind in kinds { store.send(.increment, cause: Cause(kind: kind)) }
    #expect(recorder.values == kinds.map { "increment \($0.rawValue) true -" })
  }

  @Test func aKindHasTheRepresentationOfItselfOnly() {
    var user = Cause.Kind.user
    var stream = Cause.Kind.stream
    var built = Cause.Kind("socket-" + String(repeating: "a", count: 24))
    var copy = built
    let rebuilt = Cause.Kind("socket-" + String(repeating: "a", count: 24))
    #expect(Cause.Kind.user.hasRepresentation(of: &user))
    #expect(!Cause.Kind.user.hasRepresentation(of: &stream))
    #expect(built.hasRepresentation(of: &copy))
    // Equal, but another buffer: the representation does not tell.
    #expect(rebuilt == built)
    #expect(!rebuilt.hasRepresentation(of: &built))
  }

  @Test func anExplicitCauseSentFromInsideProcessingIsKeptWhileQueued() {
    let recorder = Recorder<String>()
    let store = Store(
      initialState: Counter.State(), reducer: Counter(), middleware: [causeAndContextRecorder(into: recorder)]
    )
    let subscription = store.observe(\.count, immediately: false) { [weak store] count in
      if count == 1 { store?.send(.decrement, cause: Cause(kind: .timer, parent: 1, label: "bridged")) }
    }
    store.send(.increment)
    #expect(recorder.values == ["increment user true -", #"decrement timer "bridged" ← #1 true -"#])
    subscription.cancel()
  }

  @Test func aSendWithoutACauseIsTheUsers() {
    let recorder = Recorder<String>()
    let store = Store(
      initialState: Counter.State(), reducer: Counter(), middleware: [causeAndContextRecorder(into: recorder)]
    )
    store.send(.increment)
    #expect(recorder.values == ["increment user true -"])
  }

  @Test func workStartedWithAParentGivesItsActionsThatParent() async {
    let recorder = Recorder<String>()
    let store = Store(
      initialState: Counter.State(), reducer: Counter(), middleware: [causeAndContextRecorder(into: recorder)]
    )
    store.run(.send(.increment), as: .stream, label: "socket", context: "feed", parent: 41)
    await store.waitUntilIdle()
    #expect(recorder.values == [#"increment stream "socket" ← #41 true feed"#])
  }
}
