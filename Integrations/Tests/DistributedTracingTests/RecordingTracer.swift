import Synchronization
import Tracing

/// What a test reads of a span the ``RecordingTracer`` made.
struct RecordedSpan: Sendable {
  var id: Int
  var name: String
  var parent: Int?
  var links: [RecordedLink]
  var attributes: [String: String]
  var status: SpanStatus?
  var errors: [String]
  var ended: Bool
}

struct RecordedLink: Equatable, Sendable {
  var span: Int
  var attributes: [String: String]
}

/// The id of the ``RecordingSpan`` a context belongs to.
enum RecordingSpanID: ServiceContextKey {
  typealias Value = Int
}

/// A tracer that keeps every span it makes, numbered from 1 in the order they were started.
final class RecordingTracer: Tracer, Sendable {
  typealias Span = RecordingSpan

  private let spans = Mutex<[RecordingSpan]>([])

  /// Every span, in the order they were started.
  var recorded: [RecordedSpan] { spans.withLock { $0 }.map(\.snapshot) }

  /// The spans named `name`.
  func spans(named name: String) -> [RecordedSpan] { recorded.filter { $0.name == name } }

  func startSpan<Instant: TracerInstant>(
    _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
    at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
  ) -> RecordingSpan {
    let parentContext = context()
    return spans.withLock { spans in
      let span = RecordingSpan(
        id: spans.count + 1, name: operationName, parent: parentContext[RecordingSpanID.self],
        baggage: parentContext)
      spans.append(span)
      return span
    }
  }

  func forceFlush() {}

  func extract<Carrier, Extract: Extractor>(
    _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
  ) where Extract.Carrier == Carrier {}

  func inject<Carrier, Inject: Injector>(
    _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
  ) where Inject.Carrier == Carrier {}
}

/// A span that records what is done to it.
final class RecordingSpan: Tracing.Span, Sendable {
  private struct Record {
    var name: String
    var attributes: SpanAttributes = [:]
    var links: [SpanLink] = []
    var status: SpanStatus?
    var errors: [String] = []
    var ended = false
  }

  let id: Int
  let parent: Int?
  let context: ServiceContext
  private let record: Mutex<Record>

  init(id: Int, name: String, parent: Int?, baggage: ServiceContext) {
    self.id = id
    self.parent = parent
    var context = baggage
    context[RecordingSpanID.self] = id
    self.context = context
    self.record = Mutex(Record(name: name))
  }

  var operationName: String {
    get { record.withLock { $0.name } }
    set { record.withLock { $0.name = newValue } }
  }

  var attributes: SpanAttributes {
    get { record.withLock { $0.attributes } }
    set { record.withLock { $0.attributes = newValue } }
  }

  var isRecording: Bool { record.withLock { !$0.ended } }

  func setStatus(_ status: SpanStatus) { record.withLock { $0.status = status } }

  func addEvent(_ event: SpanEvent) {}

  func recordError<Instant: TracerInstant>(
    _ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant
  ) {
    record.withLock { $0.errors.append("\(error)") }
  }

  func addLink(_ link: SpanLink) { record.withLock { $0.links.append(link) } }

  func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
    record.withLock { $0.ended = true }
  }

  var snapshot: RecordedSpan {
    record.withLock { record in
      RecordedSpan(
        id: id, name: record.name, parent: parent,
        links: record.links.map {
          RecordedLink(span: $0.context[RecordingSpanID.self] ?? 0, attributes: Self.text($0.attributes))
        },
        attributes: Self.text(record.attributes), status: record.status, errors: record.errors,
        ended: record.ended)
    }
  }

  /// The attributes as text, `int64` and `string` alike, for exact comparisons.
  static func text(_ attributes: SpanAttributes) -> [String: String] {
    var text: [String: String] = [:]
    attributes.forEach { key, value in
      switch value {
      case .int64(let number): text[key] = "\(number)"
      case .string(let string): text[key] = string
      case .stringArray(let strings): text[key] = "\(strings)"
      default: text[key] = "unexpected \(value)"
      }
    }
    return text
  }
}
