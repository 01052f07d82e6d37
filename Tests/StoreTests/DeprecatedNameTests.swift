import ChronicleStore
import ChronicleTestSupport
import Testing

/// The names issue 14 replaced still work for one release, as deprecated aliases of the new ones.
@Suite struct DeprecatedNameTests {
  @available(*, deprecated, message: "exercises deprecated names")
  @Test func startIsRun() async {
    let recorder = Recorder<String>()
    let store = Store(
      initialState: Counter.State(), reducer: Counter(), middleware: [causeRecorder(into: recorder)])
    store.start(.send(.increment), as: .stream, label: "socket", context: "feed", parent: 41)
    await store.waitUntilIdle()
    #expect(recorder.values == [#"increment stream "socket" ← #41 true feed"#])
  }

  @available(*, deprecated, message: "exercises deprecated names")
  @Test func activeEffectCountIsPendingEffectCount() {
    let channels = Channels(["a"])
    let store = Store(initialState: 0) { (_: inout Int, _: String) -> Effect<String> in
      .run { _ in _ = await channels.next("a") }.cancellable(id: "work")
    }
    store.send("start")
    #expect(store.activeEffectCount == 1)
    store.cancel(id: "work")
    #expect(store.activeEffectCount == 0)
  }
}
