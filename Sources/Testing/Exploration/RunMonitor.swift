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

/// The innermost middleware of an explored store: checks the invariants after every action,
/// keeps the first violation and a failed effect, and, for a recorded run, every action.
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

  private let invariants: [Invariant<State, Action>]
  private let hasTransitionInvariants: Bool
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

  init(initialState: State, invariants: [Invariant<State, Action>], recording: Recording) {
    self.invariants = invariants
    self.hasTransitionInvariants = invariants.contains(where: \.isTransition)
    switch recording {
    case .nothing: (recordingClock, recordsActions) = (nil, false)
    case .times(let clock): (recordingClock, recordsActions) = (clock, false)
    case .actions(let clock): (recordingClock, recordsActions) = (clock, true)
    }
    self.storage = SanitizerVisibleMutex(Storage(latest: initialState))
  }

  var middleware: AnyMiddleware<State, Action> {
    AnyMiddleware(name: "Explorer") { [self] action, context, next in
      let before = hasTransitionInvariants ? context.state : nil
      next(action)
      processed(
        action, before: before, after: context.state, isUser: context.cause.kind == .user,
        sequence: context.sequence)
    } event: { [self] event, context in
      guard case .failed(let message) = event.phase else { return }
      let state = context.state
      let step = step.load(ordering: .relaxed)
      storage.withLock { storage in
        guard storage.violation == nil else { return }
        violated.store(true, ordering: .relaxed)
        storage.violation = Violation(
          kind: .effectFailed(message), step: step, before: state, action: nil, sequence: nil,
          after: state)
      }
    }
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

  private func processed(_ action: Action, before: State?, after: State, isUser: Bool, sequence: UInt64) {
    var broken: String?
    for invariant in invariants {
      let holds: Bool
      switch invariant.check {
      case .state(let check): holds = check(after)
      case .transition(let check): holds = before.map { check($0, action, after) } ?? true
      }
      if !holds {
        broken = invariant.name
        break
      }
    }
    let time = recordingClock?.now.offset
    let step = step.load(ordering: .relaxed)
    storage.withLock { storage in
      if let broken, storage.violation == nil {
        violated.store(true, ordering: .relaxed)
        storage.violation = Violation(
          kind: .invariant(broken), step: step, before: before ?? storage.latest, action: action,
          sequence: sequence, after: after)
      }
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

  /// The state after the last action processed.
  var latest: State { storage.withLock { $0.latest } }

  var violation: Violation<State, Action>? { storage.withLock { $0.violation } }

  var hasViolation: Bool { violated.load(ordering: .relaxed) }

  var records: [ProcessedAction<State, Action>] { storage.withLock { $0.records } }

  /// The test clock's time of each action processed, by sequence number.
  var times: [UInt64: Duration] {
    storage.withLock { Dictionary(zip($0.sequences, $0.times), uniquingKeysWith: { first, _ in first }) }
  }
}
