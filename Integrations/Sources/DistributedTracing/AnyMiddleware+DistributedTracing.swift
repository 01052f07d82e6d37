import ChronicleInspection
import ChronicleStore
import Tracing

extension AnyMiddleware {
  /// A middleware that traces the store through swift-distributed-tracing: every action is a
  /// span, every effect, thunk and timer a child span of the action that started it, and the
  /// actions an effect sends are children of the effect's span.
  ///
  /// ```swift
  /// let store = Store(
  ///   initialState: Counter.State(), reducer: Counter(),
  ///   middleware: [.distributedTracing()])
  /// ```
  ///
  /// With a tracer bootstrapped in `InstrumentationSystem` (swift-otel's, say), the spans reach
  /// any OpenTelemetry collector: Jaeger, Tempo, Honeycomb, …
  ///
  /// - An action's span is named after its case (`increment`, `addTodo`). Its parent is the
  ///   span of the effect, thunk or timer that sent it while that one runs; otherwise the
  ///   `ServiceContext` of the task that sent it (a request's span, say), or none. When another
  ///   action caused it, the span links to that action's span.
  /// - An effect's span is named after its kind and label (`effect`, `thunk load`,
  ///   `timer tick`); its parent is the span of the action whose processing started it. It ends
  ///   when the effect finishes, fails (the error is recorded and the status set to error) or is
  ///   cancelled.
  ///
  /// The attributes, each present only when there is a value:
  ///
  /// | Attribute                    | On             | Value                                          |
  /// |------------------------------|----------------|------------------------------------------------|
  /// | `chronicle.sequence`         | actions        | the sequence number                            |
  /// | `chronicle.context`          | actions        | the context label                              |
  /// | `chronicle.action`           | actions        | the action, as a redacted one-line dump        |
  /// | `chronicle.cause.kind`       | both           | `user`, `effect`, `thunk`, `timer`, …          |
  /// | `chronicle.cause.parent`     | both           | the sequence number of the causing action      |
  /// | `chronicle.cause.effect`     | actions        | the serial number of the sending effect        |
  /// | `chronicle.cause.label`      | both           | the effect's id, the thunk's name, the timer's id |
  /// | `chronicle.effect`           | effects        | the effect's serial number                     |
  /// | `chronicle.effect.ids`       | effects        | its cancellation ids, as redacted dumps        |
  /// | `chronicle.effect.outcome`   | effects        | `finished`, `failed` or `cancelled`            |
  ///
  /// A link to a causing action has the attribute `chronicle.link` = `cause`. Payloads appear only
  /// as dumps made with `redaction`, so values marked as sensitive read `<redacted>` in every span.
  ///
  /// - Parameters:
  ///   - tracer: The tracer that makes the spans: the one bootstrapped in `InstrumentationSystem`
  ///     by default.
  ///   - redaction: Which values to write as `<redacted>`, besides those marked as sensitive.
  ///   - actionPayloads: Record each action as the `chronicle.action` attribute.
  ///   - recentActions: How many recent actions' spans to remember for linking the actions they
  ///     cause; an effect remembers its own action however long it runs.
  public static func distributedTracing(
    tracer: any Tracer = InstrumentationSystem.tracer,
    redaction: Redaction = .default,
    actionPayloads: Bool = true,
    recentActions: Int = 1024
  ) -> AnyMiddleware {
    let book = SpanBook(capacity: recentActions)
    return AnyMiddleware(name: "distributedTracing") { action, context, next in
      let cause = context.cause
      let sequence = context.sequence
      let (parent, causeSpan) = book.parent(ofActionCausedBy: cause)
      let span = tracer.startSpan(
        SpanNaming.caseName(of: action, redaction: redaction),
        context: parent ?? ServiceContext.current ?? .topLevel, ofKind: .internal)
      var attributes: SpanAttributes = [:]
      attributes.set("chronicle.sequence", value: .int64(Int64(sequence)))
      if let label = context.contextLabel { attributes.set("chronicle.context", value: .string(label)) }
      if actionPayloads {
        attributes.set(
          "chronicle.action", value: .string(ValueDump.renderInline(action, redaction: redaction)))
      }
      SpanNaming.add(cause, to: &attributes, includingEffect: true)
      span.updateAttributes { $0.merge(attributes) }
      if let causeSpan { span.addLink(SpanLink(context: causeSpan, attributes: ["chronicle.link": "cause"])) }
      book.remember(action: sequence, context: span.context)
      next(action)
      span.end()
    } event: { event, _ in
      switch event.phase {
      case .started:
        let parent = event.cause.parent.flatMap { book.action($0) }
        let span = tracer.startSpan(
          SpanNaming.name(ofEffectCausedBy: event.cause),
          context: parent ?? ServiceContext.current ?? .topLevel, ofKind: .internal)
        var attributes: SpanAttributes = [:]
        attributes.set("chronicle.effect", value: .int64(Int64(event.effect)))
        SpanNaming.add(event.cause, to: &attributes, includingEffect: false)
        if !event.ids.isEmpty {
          attributes.set(
            "chronicle.effect.ids",
            value: .stringArray(event.ids.map { ValueDump.renderInline($0.base, redaction: redaction) }))
        }
        span.updateAttributes { $0.merge(attributes) }
        book.remember(effect: event.effect, span: span, parent: parent)
      case .finished:
        guard let span = book.forget(effect: event.effect) else { return }
        span.attributes.set("chronicle.effect.outcome", value: .string("finished"))
        span.end()
      case .cancelled:
        guard let span = book.forget(effect: event.effect) else { return }
        span.attributes.set("chronicle.effect.outcome", value: .string("cancelled"))
        span.end()
      case .failed(let text):
        guard let span = book.forget(effect: event.effect) else { return }
        let message = event.failureDescription(redaction: redaction) ?? text
        span.attributes.set("chronicle.effect.outcome", value: .string("failed"))
        span.recordError(EffectFailure(message: message))
        span.setStatus(SpanStatus(code: .error, message: message))
        span.end()
      }
    }
  }
}
