import ChronicleStore
import Synchronization

/// The middleware that tells the tracer what reached the reducer; created by
/// ``ChronicleStore/AnyMiddleware/tracerProbe(_:)``.
@usableFromInline
struct TracerProbe<State: Sendable, Action: Sendable>: Sendable {
  @usableFromInline let journal: Journal<State, Action>

  @inlinable
  init(journal: Journal<State, Action>) {
    self.journal = journal
  }

  @inlinable
  func handle(
    _ action: Action, context: MiddlewareContext<State, Action>, next: MiddlewareNext<State, Action>
  ) {
    let generation = journal.probeGeneration.load(ordering: .relaxed)
    let start = journal.clock.now()
    next(action)
    let end = journal.clock.now()
    journal.probe.withLock { probe in
      probe = ProbeReading(generation: generation, action: action, start: start, end: end)
    }
  }
}
