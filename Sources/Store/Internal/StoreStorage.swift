import Foundation

/// Everything mutable in a store. It lives behind an `UnsafeMutablePointer` allocated once, so
/// that `reduce(&storage.pointee.state, action)` pays no dynamic exclusivity check (a class
/// property passed `inout` to an opaque closure would, on every action: `send/no-middleware`).
///
/// Guarded by the store's lock: only the thread that holds it (the store's `owner`) touches it.
@usableFromInline
struct StoreStorage<State, Action> {
  @usableFromInline var state: State
  /// The sequence number of the action being (or last) processed.
  @usableFromInline var sequence: UInt64 = 0
  @usableFromInline var currentContext: String?
  @usableFromInline var currentCause: Cause = .user
  /// Where the action being processed was sent, and where the effect that sent it was created.
  @usableFromInline var currentSite: CallSite?
  @usableFromInline var currentEffectSite: CallSite?
  @usableFromInline var currentTimestamp: Date?
  @usableFromInline var reducerRan = false
  /// Bit `i` is set once middleware `i` has called `next` for the current action.
  @usableFromInline var passedLevels: UInt64 = 0
  /// The middlewares past the 64th that have called `next`, for the action with `sequence`: kept
  /// apart so that the common chain's bookkeeping stays one word reset per action.
  @usableFromInline var passedDeepLevels: (sequence: UInt64, levels: Set<Int>) = (0, [])
  /// Re-entrant sends, processed FIFO after the current action.
  @usableFromInline var queue: [PendingAction<Action>] = []
  @usableFromInline var queueHead = 0
  /// The observers; change them through `addObserver(_:)` and `removeObservers(where:)`, which
  /// keep `observerRefs` in step.
  @usableFromInline private(set) var observers: [StateObserver<State>] = []
  /// `observers`, unretained (`observers` holds them), for notifying: loading an element of
  /// `observers` retained and released it, a measurable part of `send/1-observer`.
  @usableFromInline private(set) var observerRefs: ContiguousArray<Unmanaged<StateObserver<State>>> = []

  @usableFromInline
  mutating func addObserver(_ observer: StateObserver<State>) {
    observers.append(observer)
    observerRefs.append(Unmanaged.passUnretained(observer))
  }

  @usableFromInline
  mutating func removeObservers(where shouldRemove: (StateObserver<State>) -> Bool) {
    observers.removeAll(where: shouldRemove)
    observerRefs = ContiguousArray(observers.map { Unmanaged.passUnretained($0) })
  }
  /// How many notification rounds are running; while one is, removals only deactivate.
  @usableFromInline var notifyDepth = 0
  @usableFromInline var observersNeedCompaction = false
  @usableFromInline var idleWaiters: [CheckedContinuation<Void, Never>] = []
  var records: [ObjectIdentifier: EffectRecord] = [:]
  var recordsByID: [EffectID: [ObjectIdentifier: EffectRecord]] = [:]
  var nextEffectSerial: UInt64 = 0

  @usableFromInline
  init(state: State) { self.state = state }
}
