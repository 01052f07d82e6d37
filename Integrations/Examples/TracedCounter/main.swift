// A counter whose actions and effects reach an OpenTelemetry collector as spans, and whose log
// reaches swift-log (which swift-otel also exports). Point it at a collector with the standard
// variables, e.g. Jaeger's or Tempo's OTLP/HTTP port:
//
//   OTEL_SERVICE_NAME=counter OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 \
//     swift run --package-path Integrations traced-counter
import ChronicleDistributedTracing
import ChronicleLogging
import ChronicleMiddleware
import ChronicleStore
import Logging
import OTel
import ServiceLifecycle

struct Counter: Reducer {
  struct State: Equatable, Sendable { var count = 0 }
  enum Action: Equatable, Sendable { case increment, load, loaded(Int) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .load:
      return .run { send in await send(.loaded(42)) }.cancellable(id: "load")
    case .loaded(let count):
      state.count = count
      return .none
    }
  }
}

// Reads OTEL_SERVICE_NAME, OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL, … and
// bootstraps the tracer, swift-log and swift-metrics.
let observability = try OTel.bootstrap()
let services = ServiceGroup(services: [observability], logger: Logger(label: "traced-counter"))
let running = Task { try await services.run() }

let logger = Logger(label: "counter.store")
let store = Store(
  initialState: Counter.State(), reducer: Counter(),
  middleware: [.distributedTracing(), .logger(sink: .swiftLog(logger))])
store.send(.increment, context: "CounterScreen")
store.send(.load)
await store.waitUntilIdle()

// Exports what is left before the program ends.
await services.triggerGracefulShutdown()
try await running.value
print("count:", store.state.count)
