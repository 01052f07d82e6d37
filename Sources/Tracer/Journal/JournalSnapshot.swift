import ChronicleStore
import Foundation

/// A journal frozen at one moment: read it, recompute its states, export it, from any thread,
/// while the journal keeps recording.
///
/// ```swift
/// let snapshot = journal.snapshot()
/// for entry in snapshot.entries { print(entry.sequence, entry.action, entry.cause) }
/// let last = snapshot.state(after: snapshot.indices.last!)
/// try snapshot.writeJournalJSON(to: url)
/// ```
public struct JournalSnapshot<State: Sendable, Action: Sendable>: Sendable {
  @usableFromInline let content: JournalContent<State, Action>
  @usableFromInline let reducer: @Sendable (inout State, Action) -> Effect<Action>
  /// The journal's replay loop: ``reducer`` applied to a range of entries.
  @usableFromInline let replay: ReplayLoop<State, Action>

  init(
    content: JournalContent<State, Action>,
    reduce: @escaping @Sendable (inout State, Action) -> Effect<Action>,
    replay: @escaping ReplayLoop<State, Action>
  ) {
    self.content = content
    self.reducer = reduce
    self.replay = replay
  }

  /// The positions of the entries: from the first one not committed to the last one.
  public var indices: Range<Int> { content.entries.indices }

  /// The number of entries.
  public var count: Int { content.entries.count }

  /// Whether there are no entries.
  public var isEmpty: Bool { content.entries.isEmpty }

  /// The entries, in the order the store processed them, indexed by position.
  public var entries: Entries { Entries(content: content) }

  /// The effect lifecycle events, in the order they happened.
  public var effectEvents: EffectEvents { EffectEvents(content: content) }

  /// The full states kept, in index order; the first one is the base state.
  public var checkpoints: [JournalCheckpoint<State>] { Array(content.checkpoints.all) }

  /// The last checkpoint at or before `index`: where recomputing the state before `index`
  /// starts. O(log checkpoints), without copying the list as ``checkpoints`` does.
  public func checkpoint(atOrBefore index: Int) -> JournalCheckpoint<State>? {
    content.checkpoints.nearest(atOrBefore: index)
  }

  /// The types, and the wall-clock time at the journal's time zero.
  public var metadata: JournalMetadata { content.metadata() }

  /// The state before the first entry: the initial state, or the result of committed entries.
  /// `nil` for a journal that never recorded a state.
  public var baseState: State? { content.baseState }

  /// The entry at `index`, or `nil` outside ``indices``.
  public func entry(at index: Int) -> JournalEntry<Action>? {
    indices.contains(index) ? content.entry(at: index) : nil
  }

  /// The position of the entry with the given store sequence number, such as a cause's
  /// ``/ChronicleStore/Cause/parent``; `nil` when that action was not recorded or was committed.
  public func index(ofSequence sequence: UInt64) -> Int? {
    content.index(ofSequence: sequence)
  }

  /// The state after the entry at `index`, recomputed from the nearest checkpoint with at most
  /// one checkpoint interval of reducer calls; `nil` outside ``indices``.
  public func state(after index: Int) -> State? {
    content.state(after: index, replay: replay)
  }

  /// The state before the entry at `index`; `index` may be the end index, for the state after
  /// the last entry.
  public func state(before index: Int) -> State? {
    content.state(before: index, replay: replay)
  }

  /// Calls `body` with each entry in `range` and the state after it, recomputing states in one
  /// pass: the cost of a replay, without a lookup per entry.
  ///
  /// At a resync checkpoint, the state continues from the checkpoint rather than from the
  /// reducer's result, as the journal does.
  public func forEachState<Failure: Error>(
    in range: Range<Int>? = nil, _ body: (JournalEntry<Action>, State) throws(Failure) -> Void
  ) throws(Failure) {
    let range = (range ?? indices).clamped(to: indices)
    guard !range.isEmpty, var state = content.state(before: range.lowerBound, replay: replay) else { return }
    var nextCheckpoint = content.checkpoints.first(after: range.lowerBound)
    for index in range {
      if let checkpoint = nextCheckpoint, checkpoint.index == index {
        if checkpoint.kind == .resync { state = checkpoint.state }
        nextCheckpoint = content.checkpoints.first(after: index)
      }
      let record = content.entries[index]
      if !record.flags.contains(.stopped) { _ = reducer(&state, record.action) }
      try body(content.entry(at: index), state)
    }
  }

  /// The reducer the journal recomputes states with. Running it drops its effects.
  public func reduce(_ state: inout State, _ action: Action) {
    _ = reducer(&state, action)
  }

  /// The approximate number of bytes held.
  public var approximateBytes: Int { content.approximateBytes }
}

extension JournalSnapshot {
  /// Calls `body` with the action of each entry in `range`, in order, and whether the action
  /// reached the reducer (`false` when a middleware stopped it): what replaying an entry needs,
  /// read from the journal's storage without building its ``JournalEntry`` (strings, cause,
  /// times).
  ///
  /// Inlinable so that a replay loop is specialized in its caller, with the caller's reducer
  /// inlined into it: an unspecialized generic call per entry pays witness and metadata look-ups.
  ///
  /// - Precondition: `range` lies within ``indices``.
  @inlinable
  package func forEachAction(
    in range: Range<Int>, _ body: (_ action: Action, _ reachedReducer: Bool) -> Void
  ) {
    content.entries.forEach(in: range) { record in body(record.action, !record.flags.contains(.stopped)) }
  }

  /// The reducer the journal recomputes states with, for a replay loop specialized in its caller.
  @inlinable
  package var reduceAction: @Sendable (inout State, Action) -> Effect<Action> { reducer }

  /// Applies the actions of the entries in `range` that reached the reducer to `state`, with the
  /// journal's replay loop (specialized for its reducer when the journal was created with one).
  ///
  /// - Precondition: `range` lies within ``indices``.
  @inlinable
  package func replayActions(in range: Range<Int>, into state: inout State) {
    replay(&state, content, range)
  }

  /// The checkpoints in index order, as ``checkpoints``, without copying them into an array.
  @usableFromInline
  package var checkpointSlice: ArraySlice<JournalCheckpoint<State>> { content.checkpoints.all }
}

extension JournalSnapshot {
  /// A snapshot's entries, indexed by position.
  public struct Entries: RandomAccessCollection, Sendable {
    let content: JournalContent<State, Action>

    /// The position of the first entry held.
    public var startIndex: Int { content.entries.startIndex }
    /// The position after the last entry.
    public var endIndex: Int { content.entries.endIndex }

    /// The entry at `position`.
    public subscript(position: Int) -> JournalEntry<Action> {
      content.entry(at: position)
    }
  }

  /// A snapshot's effect events, in the order they happened.
  public struct EffectEvents: RandomAccessCollection, Sendable {
    let content: JournalContent<State, Action>

    /// The position of the first event held.
    public var startIndex: Int { content.events.startIndex }
    /// The position after the last event.
    public var endIndex: Int { content.events.endIndex }

    /// The event at `position`.
    public subscript(position: Int) -> JournalEffectEvent {
      content.event(at: position)
    }
  }
}
