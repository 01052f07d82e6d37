import Foundation

/// Everything mutable in a store. It lives behind an `UnsafeMutablePointer` allocated once, so
/// that `reduce(&storage.pointee.state, action)` pays no dynamic exclusivity check (a class
/// property passed `inout` to an opaque closure would, at ~15 ns per action).
///
/// Guarded by the store's lock: only the thread that holds it (the store's `owner`) touches it.
@usableFromInline
struct StoreStorage<State, Action> {
  @usableFromInline var state: State
  /// The sequence number of the action being (or last) processed.
  @usableFromInline var sequence: UInt64 = 0
  @usableFromInline var currentContext: String?
  @usableFromInline var currentCause: Cause = .user
  @usableFromInline var currentTimestamp: Date?
  @usableFromInline var reducerRan = false
  /// Bit `i` is set once middleware `i` has called `next` for the current action.
  @usableFromInline var passedLevels: UInt64 = 0
  /// Re-entrant sends, processed FIFO after the current action.
  @usableFromInline var queue: [PendingAction<Action>] = []
  @usableFromInline var queueHead = 0
  @usableFromInline var observers: [StateObserver<State>] = []
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
