import ChronicleDistributedTracing
import ChronicleInspection
import ChronicleStore
import Logging
import OTel
import ServiceLifecycle
import Testing
import Tracing

enum Orders {
  struct State: Equatable, Sendable {
    var count = 0
  }

  enum Action: Equatable, Sendable {
    case load
    case loaded(Int)
    case save(Redacted<String>)
  }

  struct Offline: Error, CustomStringConvertible {
    var description: String { "offline" }
  }

  static let reducer = Reduce<State, Action> { state, action in
    switch action {
    case .load:
      return .run { send in await send(.loaded(3)) }.cancellable(id: "load")
    case .loaded(let count):
      state.count = count
      return .none
    case .save:
      return .run { _ in throw Offline() }
    }
  }
}

/// Runs `work` on a store traced by swift-otel's tracer, exporting over OTLP/HTTP (protobuf) to
/// an `OTLPReceiver`, and returns the spans the receiver decoded.
func exportedSpans(
  _ work: (Store<Orders.State, Orders.Action>) async -> Void
) async throws -> [OTLPSpan] {
  let receiver = try OTLPReceiver()
  defer { receiver.stop() }

  var configuration = OTel.Configuration.default
  configuration.serviceName = "chronicle-e2e"
  configuration.metrics.enabled = false
  configuration.logs.enabled = false
  configuration.traces.sampler = .alwaysOn
  configuration.traces.exporter = .otlp
  configuration.traces.otlpExporter.protocol = .httpProtobuf
  configuration.traces.otlpExporter.endpoint = receiver.endpoint
  let (tracer, service) = try OTel.makeTracingBackend(configuration: configuration)
  let quiet = Logger(label: "otel") { _ in SwiftLogNoOpLogHandler() }
  let services = ServiceGroup(
    configuration: ServiceGroupConfiguration(services: [.init(service: service)], logger: quiet))
  let running = Task { try await services.run() }

  let store = Store(
    initialState: Orders.State(), reducer: Orders.reducer,
    middleware: [.distributedTracing(tracer: tracer)])
  await work(store)
  await store.waitUntilIdle()

  // A graceful shutdown exports every ended span and waits for the receiver's answer, which it
  // sends only after writing the request down.
  await services.triggerGracefulShutdown()
  try await running.value
  return try receiver.requests().flatMap(\.spans)
}

@Suite(
  "OTLP export end to end",
  .enabled(if: OTLPReceiver.unavailability == nil, "\(OTLPReceiver.unavailability ?? "")"))
struct OTLPExportTests {
  @Test func anEffectChainArrivesWithItsParentsLinksAndAttributes() async throws {
    let spans = try await exportedSpans { store in
      store.send(.load, context: "Orders")
    }
    #expect(spans.map(\.name).sorted() == ["effect load", "load", "loaded"])
    let load = try #require(spans.first { $0.name == "load" })
    let effect = try #require(spans.first { $0.name == "effect load" })
    let loaded = try #require(spans.first { $0.name == "loaded" })

    #expect(load.parentSpanId == nil)
    #expect(effect.parentSpanId == load.spanId)
    #expect(loaded.parentSpanId == effect.spanId)
    #expect(Set([load.traceId, effect.traceId, loaded.traceId]).count == 1)
    #expect(loaded.links?.map(\.spanId) == [load.spanId])
    #expect(loaded.links?.map(\.traceId) == [load.traceId])
    #expect(loaded.links?.map { KeyValue.texts($0.attributes) } == [["chronicle.link": "cause"]])

    #expect(
      load.attributeTexts == [
        "chronicle.sequence": "1",
        "chronicle.context": "Orders",
        "chronicle.action": "Orders.Action.load",
        "chronicle.cause.kind": "user",
      ])
    #expect(
      effect.attributeTexts == [
        "chronicle.effect": "1",
        "chronicle.effect.ids": #"["load"]"#,
        "chronicle.effect.outcome": "finished",
        "chronicle.cause.kind": "effect",
        "chronicle.cause.parent": "1",
        "chronicle.cause.label": "load",
      ])
    #expect(
      loaded.attributeTexts == [
        "chronicle.sequence": "2",
        "chronicle.context": "Orders",
        "chronicle.action": "Orders.Action.loaded(3)",
        "chronicle.cause.kind": "effect",
        "chronicle.cause.parent": "1",
        "chronicle.cause.effect": "1",
        "chronicle.cause.label": "load",
      ])
  }

  @Test func aFailedEffectArrivesWithAnErrorStatusAndItsExceptionAndNoSecret() async throws {
    let spans = try await exportedSpans { store in
      store.send(.save(Redacted("card-4242")))
    }
    #expect(spans.map(\.name).sorted() == ["effect", "save"])
    let save = try #require(spans.first { $0.name == "save" })
    let effect = try #require(spans.first { $0.name == "effect" })
    #expect(effect.parentSpanId == save.spanId)
    #expect(effect.status?.code == "STATUS_CODE_ERROR")
    #expect(effect.status?.message == "offline")
    #expect(effect.events?.map(\.name) == ["exception"])
    #expect(effect.events?.first.map { KeyValue.texts($0.attributes)["exception.message"] } == "offline")
    #expect(effect.attributeTexts["chronicle.effect.outcome"] == "failed")
    #expect(save.attributeTexts["chronicle.action"] == "Orders.Action.save(<redacted>)")
    #expect(!spans.contains { "\($0)".contains("card-4242") })
  }
}
