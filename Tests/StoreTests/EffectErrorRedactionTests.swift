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

/// An error whose secret only a key rule names.
private struct KeyedError: Error {
  var token: String
}

/// The `failed` event of an effect that throws `error`.
private func failedEvent(throwing error: any Error & Sendable) async -> EffectEvent? {
  let events = Recorder<EffectEvent>()
  let watcher = AnyMiddleware<Int, Int>(
    name: "failures", handle: { action, _, next in next(action) },
    event: { event, _ in
      if case .failed = event.phase { events.append(event) }
    })
  let store = Store(initialState: 0, middleware: [watcher]) { (_: inout Int, _: Int) -> Effect<Int> in
    .run { _ in throw error }
  }
  store.send(1)
  await store.waitUntilIdle()
  return events.values.first
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

  @Test func aFailedEventKeepsItsErrorSoThatEachOutputWritesItUnderItsPolicy() async throws {
    let event = try #require(await failedEvent(throwing: KeyedError(token: "errtok-s3cr3t")))
    #expect(event.phase == .failed(#"KeyedError(token: "errtok-s3cr3t")"#))
    #expect(
      event.failureDescription(redaction: Redaction(keys: ["token"])) == "KeyedError(token: <redacted>)")
    #expect(event.failureDescription(redaction: .default) == #"KeyedError(token: "errtok-s3cr3t")"#)
  }

  @Test func aKeptErrorPrintsAndDumpsAsItsTextUnderTheDefaultPolicyOnly() async throws {
    let event = try #require(await failedEvent(throwing: RejectedKey(key: SessionKey(raw: "k3y-s3cr3t"))))
    let error = try #require(event.error)
    var dumped = ""
    dump(error, to: &dumped)
    #expect("\(error)" == "RejectedKey(key: <redacted>)")
    #expect(!dumped.contains("k3y-s3cr3t"))
    #expect(!String(reflecting: event).contains("k3y-s3cr3t"))
  }

  @Test func anEventIsEqualToOneMadeWithoutItsError() async throws {
    let event = try #require(await failedEvent(throwing: Offline.noNetwork))
    #expect(event.error != nil)
    #expect(
      event == EffectEvent(phase: .failed("offline"), effect: event.effect, cause: event.cause, ids: []))
  }
}
