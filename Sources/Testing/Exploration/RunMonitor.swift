import ChronicleClocks
import ChronicleLocks
import ChronicleStore
import Synchronization

/// A property the explorer found broken, and where.
struct Violation<State: Sendable, Action: Sendable>: Sendable {
  var kind: ExplorationFailureKind
  /// The index of the step during which it happened; -1 for the initial state.
  var step: Int
  var before: State
  /// The action that broke it; `nil` for the initial state and for a failed effect.
  var action: Action?
  /// That action's sequence number in the store.
  var sequence: UInt64?
  var after: State
}

/// An action the store processed during a recorded run, and the state after it.
struct ProcessedAction<State: Sendable, Action: Sendable>: Sendable {
  var step: Int
  var action: Action
  var isUser: Bool
  /// The store's sequence number of the action.
  var sequence: UInt64
  var after: State
  /// The test clock's time when it was processed.
  var time: Duration
}

/// What a run learns from its store: the first violation, a failed effect, and, for a recorded
/// run, every action. The store's innermost middleware reports to it; that middleware is formed in
/// the client (``Explorer/init(initialState:reducer:middleware:actions:invariants:configuration:)``
/// is inlinable), so checking the invariants after each action runs specialized for the client's
/// types, and the monitor is called only when an invariant breaks or every action is wanted.
@usableFromInline
final class RunMonitor<State: Sendable, Action: Sendable>: Sendable {
  private struct Storage {
    var latest: State
    var violation: Violation<State, Action>?
    var records: [ProcessedAction<State, Action>] = []
    var sequences: [UInt64] = []
    var times: [Duration] = []
  }

  /// What a run keeps of the actions it processes.
  enum Recording {
    /// Nothing: a run explored or a shrinking candidate.
    case nothing
    /// The test clock's time of each, for a journal.
    case times(TestClock)
    /// Each action and the state after it too, for the generated test.
    case actions(TestClock)
  }

  /// Whether ``processed(_:after:isUser:sequence:)`` wants every action: for a recorded run, or
  /// to keep the latest state for an action generator that reads it.
  @usableFromInline let observesEveryAction: Bool
  private let invariants: [Invariant<State, Action>]
  /// The run's clock, read for each action only when the run is recorded.
  private let recordingClock: TestClock?
  private let recordsActions: Bool
  private let storage: SanitizerVisibleMutex<Storage>
  /// The index of the step being performed. Written by the explorer between steps, read while
  /// the store processes the step's actions (on its thread or an effect's): the store's lock and
  /// the activity's settling order those accesses, so relaxed ordering is enough.
  private let step = Atomic<Int>(0)
  /// Set once `storage` holds a violation: read after every step without taking the lock.
  private let violated = Atomic<Bool>(false)

  init(
    initialState: State, invariants: [Invariant<State, Action>], recording: Recording, keepsLatestState: Bool
  ) {
    self.invariants = invariants
    switch recording {
    case .nothing: (recordingClock, recordsActions) = (nil, false)
    case .times(let clock): (recordingClock, recordsActions) = (clock, false)
    case .actions(let clock): (recordingClock, recordsActions) = (clock, true)
    }
    self.observesEveryAction = keepsLatestState || recordingClock != nil
    self.storage = SanitizerVisibleMutex(Storage(latest: initialState))
  }

  /// The violation of a state invariant by the initial state, if any.
  func checkInitialState(_ state: State) -> Violation<State, Action>? {
    for invariant in invariants where !invariant.isTransition {
      if case .state(let holds) = invariant.check, !holds(state) {
        return Violation(
          kind: .invariant(invariant.name), step: -1, before: state, action: nil, sequence: nil, after: state)
      }
    }
    return nil
  }

  /// Keeps the first violation: the invariant named `name` broke on this transition.
  @usableFromInline
  func broke(_ name: String, before: State, action: Action, after: State, sequence: UInt64) {
    let step = step.load(ordering: .relaxed)
    storage.withLock { storage in
      guard storage.violation == nil else { return }
      violated.store(true, ordering: .relaxed)
      storage.violation = Violation(
        kind: .invariant(name), step: step, before: before, action: action, sequence: sequence, after: after)
    }
  }

  /// Keeps a failed effect as the violation, if it is the first.
  @usableFromInline
  func effectEvent(_ event: EffectEvent, state: State) {
    guard case .failed(let message) = event.phase else { return }
    let step = step.load(ordering: .relaxed)
    storage.withLock { storage in
      guard storage.violation == nil else { return }
      violated.store(true, ordering: .relaxed)
      storage.violation = Violation(
        kind: .effectFailed(message), step: step, before: state, action: nil, sequence: nil, after: state)
    }
  }

  /// Keeps the state after an action and, for a recorded run, the action.
  @usableFromInline
  func processed(_ action: Action, after: State, isUser: Bool, sequence: UInt64) {
    let time = recordingClock?.now.offset
    let step = step.load(ordering: .relaxed)
    storage.withLock { storage in
      storage.latest = after
      if let time {
        storage.sequences.append(sequence)
        storage.times.append(time)
        if recordsActions {
          storage.records.append(
            ProcessedAction(
              step: step, action: action, isUser: isUser, sequence: sequence, after: after, time: time))
        }
      }
    }
  }

  /// Marks the actions processed from now on as the `index`th step's.
  func beginStep(_ index: Int) { step.store(index, ordering: .relaxed) }

  /// The state after the last action processed, when ``observesEveryAction``.
  var latest: State { storage.withLock { $0.latest } }

  var violation: Violation<State, Action>? { storage.withLock { $0.violation } }

  var hasViolation: Bool { violated.load(ordering: .relaxed) }

  var records: [ProcessedAction<State, Action>] { storage.withLock { $0.records } }

  /// The test clock's time of each action processed, by sequence number.
  var times: [UInt64: Duration] {
    storage.withLock { Dictionary(zip($0.sequences, $0.times), uniquingKeysWith: { first, _ in first }) }
  }
}
