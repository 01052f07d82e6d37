import ChronicleStore
import Foundation
import Synchronization

/// The record of a store's run: every action the tracer saw, with its metadata, its cause, its
/// timings, and the effects it started — from which any state of the run can be recomputed.
///
/// ```swift
/// let journal = Journal(reducer: Counter())
/// let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [.tracer(journal)])
/// store.send(.increment)
/// journal.state(after: journal.indices.last!)   // the state after the last action
/// let file = try journal.snapshot().journalJSON()
/// ```
///
/// ## States and checkpoints
/// A journal does not keep every state. It keeps *checkpoints* — full states before some
/// entries: one every ``Configuration/checkpointInterval`` entries, and one wherever the entries
/// alone cannot lead to the store's state (the first entry, and after actions that were not
/// recorded). Any other state is recomputed by running the reducer from the nearest checkpoint,
/// so ``state(after:)`` costs at most one interval of reducer calls, and recording does not make the
/// store copy its state on every action. Replay runs the reducer only: effects never run again.
///
/// An entry's ``JournalEntry/chainDuration`` is the time the rest of the chain after the tracer
/// took, the reducer included. The tracer's own one-time costs (its clock's and its probe's first
/// readings, the metadata it hands its sinks, their preparation) are paid before the first
/// action's span starts; the reducer still runs once per action, so its own first call (the
/// runtime instantiating its types' metadata) stays in it.
///
/// ## Bounded memory
/// Past ``Configuration/maxEntries`` entries or ``Configuration/maxBytes`` bytes, the oldest
/// entries are *committed*: folded into the base state, as Redux DevTools' commit does. The
/// journal always replays from its base state. A state larger than ``Configuration/maxBytes``
/// alone cannot be kept within it: ``byteCapOverrun`` says so.
///
/// ## Threads
/// A journal is thread-safe: record into it from a store while other threads read it, take
/// ``snapshot()``s or export. A journal records one store; give each store its own.
public final class Journal<State: Sendable, Action: Sendable>: Sendable {
  /// The reducer that recomputes states. Its effects are dropped: replay never runs them.
  @usableFromInline let reducer: @Sendable (inout State, Action) -> Effect<Action>
  /// The loop that recomputes states: ``reducer`` applied to a range of entries.
  @usableFromInline let replay: ReplayLoop<State, Action>
  /// The configuration the journal was created with.
  public let configuration: Configuration
  /// The configuration's sinks, held apart: reading them from ``configuration`` on every entry
  /// copied the whole configuration (its closures and arrays retained and released twice).
  @usableFromInline let sinks: [any JournalSink<State, Action>]
  // The recording path below is inlinable, like `Store.send`: the client specializes it for its
  // own State and Action, where an unspecialized generic call pays metadata look-ups.
  @usableFromInline let storage: JournalLock<JournalStorage<State, Action>>
  @usableFromInline let paused = Atomic<Bool>(false)
  /// Whether the tracer should hand the next entry its state before: set when the next entry
  /// falls on a checkpoint, or follows a gap. Written under the lock, read without it.
  @usableFromInline let wantsCheckpoint = Atomic<Bool>(true)
  /// Set by the tracer when it lets an action through without recording it.
  @usableFromInline let gapPending = Atomic<Bool>(false)
  /// Set once a probe was created for this journal.
  @usableFromInline let hasProbe = Atomic<Bool>(false)
  @usableFromInline let probe = JournalLock(ProbeReading<Action>())
  /// Counts the actions the tracer passes on, so that the tracer can tell whether the probe's
  /// reading is about the current action without asking the store for its metadata again.
  @usableFromInline let probeGeneration = Atomic<UInt64>(0)
  /// The process's monotonic clock, held so that the tracer reads it without a global's lazy
  /// initialization check.
  @usableFromInline let clock = MonotonicClock.source
  /// Set once the tracer has warmed up the recording path (see ``warmUp(from:with:)``).
  @usableFromInline let warmedUp = Atomic<Bool>(false)
  /// Whether the tracer can skip the filter for every action (no rule set, and `Action` does not
  /// conform to ``TraceableAction``).
  @usableFromInline let recordsEverything: Bool

  /// Creates an empty journal.
  ///
  /// - Parameters:
  ///   - initialState: The base state until the tracer records its first action; the tracer then
  ///     takes the store's state before that action as the base, whatever was given here.
  ///   - reducer: The store's reducer, used to recompute states (its effects are never run).
  ///   - configuration: Checkpoints, caps, filter and sinks.
  // Inlinable so that the reducer closure and the replay loop are formed in the client,
  // specialized for its reducer: formed here, every recomputed step (time travel, `state(after:)`)
  // called the reducer through generic witnesses; through the closure, it paid a call per step.
  @inlinable
  public convenience init<R: Reducer>(
    initialState: State? = nil, reducer: R, configuration: Configuration = Configuration()
  ) where R.State == State, R.Action == Action {
    self.init(
      initialState: initialState, configuration: configuration,
      reduce: { reducer.reduce(into: &$0, action: $1) },
      replay: { state, content, range in
        content.entries.forEach(in: range) { record in
          if !record.flags.contains(.stopped) { _ = reducer.reduce(into: &state, action: record.action) }
        }
      })
  }

  /// Creates an empty journal whose reducer is a closure.
  public convenience init(
    initialState: State? = nil, configuration: Configuration = Configuration(),
    reduce: @escaping @Sendable (_ state: inout State, _ action: Action) -> Effect<Action>
  ) {
    self.init(
      initialState: initialState, configuration: configuration, reduce: reduce,
      replay: JournalContent.replayLoop(calling: reduce))
  }

  /// Creates an empty journal whose states are recomputed by `replay`, which applies `reduce`.
  @usableFromInline
  init(
    initialState: State?, configuration: Configuration,
    reduce: @escaping @Sendable (_ state: inout State, _ action: Action) -> Effect<Action>,
    replay: @escaping ReplayLoop<State, Action>
  ) {
    self.reducer = reduce
    self.replay = replay
    self.configuration = configuration
    self.sinks = configuration.sinks
    self.recordsEverything =
      configuration.filter.recordsEverything && !(Action.self is any TraceableAction.Type)
    let wall = Int64((Date().timeIntervalSince1970 * 1e9).rounded())
    var content = JournalContent<State, Action>(
      originWallNanos: wall, originMonotonic: MonotonicClock.now(),
      checkpointInterval: configuration.effectiveCheckpointInterval,
      chunkCapacity: Self.chunkCapacity(for: configuration))
    if let initialState {
      content.checkpoints.append(
        JournalCheckpoint(index: 0, kind: .resync, state: initialState),
        size: configuration.size(of: initialState))
      content.stateShape = TypeFingerprint.shape(of: initialState)
    }
    var storage = JournalStorage(content: content)
    // The first state recorded is the store's, not one the entries lead to.
    storage.gap = true
    self.storage = JournalLock(storage)
  }

  /// Creates a journal holding `content`, for imports.
  package init(
    content: JournalContent<State, Action>, configuration: Configuration,
    reduce: @escaping @Sendable (inout State, Action) -> Effect<Action>
  ) {
    self.reducer = reduce
    self.replay = JournalContent.replayLoop(calling: reduce)
    self.configuration = configuration
    self.sinks = configuration.sinks
    self.recordsEverything =
      configuration.filter.recordsEverything && !(Action.self is any TraceableAction.Type)
    var storage = JournalStorage(content: content)
    storage.gap = true
    self.storage = JournalLock(storage)
  }

  static func chunkCapacity(for configuration: Configuration) -> Int {
    min(1024, max(16, configuration.maxEntries ?? 1024))
  }

  // MARK: - Reading

  /// A consistent copy of the journal, to read or export while recording goes on.
  ///
  /// Taking one costs O(number of chunks + checkpoints), not O(entries): entries are shared
  /// with the journal, which never changes an entry once recorded.
  public func snapshot() -> JournalSnapshot<State, Action> {
    let content = storage.withLock { $0.content }
    return JournalSnapshot(content: content, reduce: reducer, replay: replay)
  }

  /// The positions of the entries held: from the first entry not committed to the last one.
  public var indices: Range<Int> { storage.withLock { $0.content.entries.indices } }

  /// The number of entries held.
  public var count: Int { storage.withLock { $0.content.entries.count } }

  /// The number of entries this journal folded into its base state so far, by its caps,
  /// ``commit(through:)`` or ``reset(to:)``.
  public var committedCount: Int { storage.withLock { $0.committedCount } }

  /// The entry at `index`, or `nil` outside ``indices``.
  public func entry(at index: Int) -> JournalEntry<Action>? {
    storage.withLock { storage in
      storage.content.entries.indices.contains(index) ? storage.content.entry(at: index) : nil
    }
  }

  /// The state after the entry at `index` — what the store held once that action was processed —
  /// recomputed from the nearest checkpoint; `nil` outside ``indices``.
  public func state(after index: Int) -> State? {
    snapshot().state(after: index)
  }

  /// The state before the entry at `index`; `index` may be the end index, for the state after
  /// the last entry. `nil` outside that range or before any state was recorded.
  public func state(before index: Int) -> State? {
    snapshot().state(before: index)
  }

  /// The state before the first entry held: the initial state, or the result of the entries
  /// committed so far.
  public var baseState: State? { storage.withLock { $0.content.baseState } }

  /// The types the journal holds and the origin of its times.
  public var metadata: JournalMetadata { storage.withLock { $0.content.metadata() } }

  /// The approximate number of bytes the journal holds (see ``Configuration/maxBytes``).
  public var approximateBytes: Int { storage.withLock { $0.content.approximateBytes } }

  /// The first time the journal could not keep within ``Configuration/maxBytes``: a state alone
  /// was larger. Set once and kept; `nil` while the cap has always been met.
  ///
  /// From then on, while its states stay that large, the journal keeps its last checkpoint and
  /// the entries after it (at most ``Configuration/checkpointInterval`` of them), and commits
  /// only when it takes a checkpoint, without recomputing a state: an action costs no replay and
  /// no size estimate (see ``Configuration/maxBytes``). Taking a checkpoint still costs what it
  /// costs under the cap: the store copies a state that the next action changes.
  public var byteCapOverrun: ByteCapOverrun? { storage.withLock { $0.byteCapOverrun } }

  // MARK: - Recording control

  /// Stops recording until ``resume()``. Actions keep reaching the reducer; the first entry after
  /// resuming stores the store's state, so the journal still replays.
  public func pause() { paused.store(true, ordering: .relaxed) }

  /// Resumes recording after ``pause()``.
  public func resume() { paused.store(false, ordering: .relaxed) }

  /// Whether recording is paused.
  public var isPaused: Bool { paused.load(ordering: .relaxed) }
}

extension Journal {
  /// Runs, once and before the tracer reads the first action's start time, what that action
  /// would otherwise pay for inside its measured span: the clock's first reading, the probe's
  /// first reading of an action, the metadata handed to the sinks with every entry and effect
  /// event, and the sinks' own preparation (an effect the first action starts is recorded within
  /// its span).
  ///
  /// The reducer is not called: a live action runs the user's reducer exactly once. What the
  /// middlewares after the tracer do once (the logger's type facts) they do when they are created.
  ///
  /// - Parameter state: The state before the first recorded action, whose shape the metadata
  ///   describes, as the checkpoint before that action will.
  @inlinable
  func warmUp(from state: State, with action: Action) {
    guard !warmedUp.load(ordering: .relaxed), !warmedUp.exchange(true, ordering: .relaxed) else { return }
    _ = clock.now()
    probe.withLock { probe in
      let saved = probe
      probe = ProbeReading(generation: saved.generation, action: action)
      probe = saved
    }
    prepareSinks(from: state)
  }

  /// Finds the state's shape and the sinks' metadata, as recording the first entry would, and
  /// hands the metadata to the sinks to prepare (``JournalSink/prepare(metadata:)``).
  @usableFromInline
  func prepareSinks(from state: State) {
    guard !sinks.isEmpty else { return }
    let metadata = storage.withLock { storage in
      if storage.content.stateShape == nil { storage.content.stateShape = TypeFingerprint.shape(of: state) }
      return storage.metadataForSinks(untilShapeKnown: true)
    }
    for sink in sinks { sink.prepare(metadata: metadata.metadata) }
  }
}

/// What a probe saw of the action being processed.
@usableFromInline
struct ProbeReading<Action: Sendable>: Sendable {
  /// The tracer's generation when the probe saw the action.
  @usableFromInline var generation: UInt64
  @usableFromInline var action: Action?
  @usableFromInline var start: Int64
  @usableFromInline var end: Int64

  @inlinable
  init(generation: UInt64 = 0, action: Action? = nil, start: Int64 = 0, end: Int64 = 0) {
    self.generation = generation
    self.action = action
    self.start = start
    self.end = end
  }
}
