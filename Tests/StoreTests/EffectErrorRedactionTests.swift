import ChronicleInspection
import ChronicleStore
import ChronicleTestSupport
import Testing

/// A secret type whose own description gives it away, as a careless one would.
private struct SessionKey: SensitiveValue, Sendable, CustomStringConvertible {
  var raw: String
  var description: String { raw }
}

/// An error that tells everything it holds when printed.
private struct RejectedKey: Error, CustomStringConvertible {
  var key: SessionKey
  var description: String { "rejected key \(key.raw)" }
}

/// An error holding a secret in a `@Redacted` property.
private struct BadPassword: Error {
  var user: String
  @Redacted var password: String
}

private enum Offline: Error, CustomStringConvertible {
  case noNetwork
  var description: String { "offline" }
}

/// The text of the `failed` event of an effect that throws `error`.
private func failureText(throwing error: any Error & Sendable) async -> String? {
  let messages = Recorder<String>()
  let watcher = AnyMiddleware<Int, Int>(
    name: "failures", handle: { action, _, next in next(action) },
    event: { event, _ in
      if case .failed(let message) = event.phase { messages.append(message) }
    })
  let store = Store(initialState: 0, middleware: [watcher]) { (_: inout Int, _: Int) -> Effect<Int> in
    .run { _ in throw error }
  }
  store.send(1)
  await store.waitUntilIdle()
  return messages.values.first
}

@Suite struct EffectErrorRedactionTests {
  @Test func anErrorHoldingASensitiveValueIsDescribedWithTheValueRedacted() async {
    let text = await failureText(throwing: RejectedKey(key: SessionKey(raw: "k3y-s3cr3t")))
    #expect(text == "RejectedKey(key: <redacted>)")
  }

  @Test func anErrorHoldingARedactedPropertyIsDescribedWithThePropertyRedacted() async {
    let text = await failureText(throwing: BadPassword(user: "ann", password: "hunter2"))
    #expect(text == #"BadPassword(user: "ann", password: <redacted>)"#)
  }

  @Test func anErrorWithoutSecretsKeepsItsOwnDescription() async {
    #expect(await failureText(throwing: Offline.noNetwork) == "offline")
  }
}
