import ChronicleStore
import Synchronization

// The tracer's hot path is inlinable so that the client specializes it for its own State and
// Action (see `Store.send`).

/// The middleware that records into a journal; created by ``ChronicleStore/AnyMiddleware/tracer(_:)``.
@usableFromInline
struct TracerMiddleware<State: Sendable, Action: Sendable>: Sendable {
  @usableFromInline let journal: Journal<State, Action>

  @inlinable
  init(journal: Journal<State, Action>) {
    self.journal = journal
  }

  @inlinable
  func handle(
    _ action: Action, context: MiddlewareContext<State, Action>, next: MiddlewareNext<State, Action>
  ) {
    let journal = self.journal
    if journal.paused.load(ordering: .relaxed) {
      journal.noteUnrecorded()
      next(action)
      return
    }
    // The sequence, label and cause are read one by one: `context.metadata` would also read the
    // wall clock, which the journal derives from its monotonic reading instead.
    let label = context.contextLabel
    let recorded: Bool
    if journal.recordsEverything {
      recorded = label == nil || label != TraceFilter<Action>.untracedContext
    } else {
      recorded = journal.configuration.filter.shouldRecord(action, metadata: context.metadata)
    }
    guard recorded else {
      journal.noteUnrecorded()
      next(action)
      return
    }
    let before = journal.wantsCheckpoint.load(ordering: .relaxed) ? context.state : nil
    // The first action always wants a checkpoint, so the warm-up costs the others nothing.
    if let before { journal.warmUp(from: before, with: action) }
    let probed = journal.hasProbe.load(ordering: .relaxed)
    // Actions are processed one at a time (re-entrant sends are queued), so no other action can
    // pass the probe between here and the reading below.
    let generation = probed ? journal.probeGeneration.add(1, ordering: .relaxed).newValue : 0
    let start = journal.clock.now()
    next(action)
    let end = journal.clock.now()
    var reading: ProbeReading<Action>?
    if probed {
      reading = journal.probe.withLock { probe in
        defer { probe.action = nil }
        return probe.generation == generation ? probe : ProbeReading(generation: generation)
      }
    }
    journal.record(
      action, sequence: context.sequence, label: label, cause: RecordedCause(of: context),
      start: start, end: end, before: before, reading: reading, site: context.site,
      effectSite: context.effectSite)
  }

  @inlinable
  func handle(_ event: EffectEvent) {
    guard !journal.paused.load(ordering: .relaxed) else { return }
    journal.record(event)
  }
}
