import ChronicleInspection
import ChronicleMiddleware
import ChronicleStore
import ChronicleTestSupport
import Testing

private struct PinCode: SensitiveValue, Sendable, CustomStringConvertible {
  var digits: String
  var description: String { digits }
}

/// An error that prints the secret it holds.
private struct WrongPin: Error, CustomStringConvertible {
  var pin: PinCode
  var description: String { "wrong pin \(pin.digits)" }
}

@Suite struct ThunkErrorRedactionTests {
  @Test func aThunkFailureDescribesAnErrorHoldingASensitiveValueWithTheValueRedacted() {
    let failure = ThunkFailure(thunk: "unlock", error: WrongPin(pin: PinCode(digits: "4921")))
    #expect(failure.description == #"thunk "unlock" failed: WrongPin(pin: <redacted>)"#)
  }

  @Test func aFailedThunkIsReportedWithoutTheSecretItsErrorHolds() async {
    let messages = Recorder<String>()
    let watcher = AnyMiddleware<Int, Int>(
      name: "failures", handle: { action, _, next in next(action) },
      event: { event, _ in
        if case .failed(let message) = event.phase { messages.append(message) }
      })
    let unlock = Thunk<Int, Int, Void>("unlock") { _, _, _ in throw WrongPin(pin: PinCode(digits: "4921")) }
    let store = Store(initialState: 0, middleware: [watcher, .thunks { $0 == 1 ? unlock : nil }]) {
      (_: inout Int, _: Int) -> Effect<Int> in .none
    }
    store.send(1)
    await store.waitUntilIdle()
    #expect(messages.values == ["WrongPin(pin: <redacted>)"])
  }
}
