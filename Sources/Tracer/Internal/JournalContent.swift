import ChronicleStore
import Foundation

/// Everything a journal holds, as one value: the live journal keeps it under its lock, and a
/// snapshot is a copy of it (which copies chunk references and small tables, not entries).
@usableFromInline
struct JournalContent<State: Sendable, Action: Sendable>: Sendable {
  /// Unix time of the journal's time zero, in nanoseconds.
  @usableFromInline var originWallNanos: Int64
  /// The monotonic clock's reading at time zero (meaningful only in the recording process).
  @usableFromInline var originMonotonic: Int64
  @usableFromInline var entries: ChunkedList<EntryRecord<Action>>
  @usableFromInline var events: ChunkedList<EventRecord>
  @usableFromInline var checkpoints = CheckpointList<State>()
  @usableFromInline var strings = StringTable()
  @usableFromInline var idLists = IDListTable()
  /// The shape of the state type, from the first state recorded.
  @usableFromInline var stateShape: String?
  @usableFromInline var checkpointInterval: Int

  init(originWallNanos: Int64, originMonotonic: Int64, checkpointInterval: Int, chunkCapacity: Int) {
    self.originWallNanos = originWallNanos
    self.originMonotonic = originMonotonic
    self.checkpointInterval = checkpointInterval
    entries = ChunkedList(chunkCapacity: chunkCapacity)
    events = ChunkedList(chunkCapacity: max(16, chunkCapacity / 4))
  }

  var baseState: State? {
    guard let first = checkpoints.first, first.index == entries.startIndex else { return nil }
    return first.state
  }

  var origin: Date { Date(timeIntervalSince1970: Double(originWallNanos) / 1e9) }

  func metadata() -> JournalMetadata {
    JournalMetadata(
      state: TypeFingerprint(name: TypeFingerprint.qualifiedName(of: State.self), shape: stateShape),
      action: TypeFingerprint.of(Action.self),
      origin: origin,
      checkpointInterval: checkpointInterval
    )
  }

  // MARK: Reading

  @inline(__always)
  func entry(at index: Int) -> JournalEntry<Action> {
    let record = entries[index]
    let unknown = EntryRecord<Action>.unknownDuration
    return JournalEntry(
      index: index,
      sequence: record.sequence,
      wallTime: Date(timeIntervalSince1970: (Double(originWallNanos) + Double(record.wallTime)) / 1e9),
      time: .nanoseconds(record.time),
      context: strings.string(for: record.context),
      cause: cause(
        kind: record.causeKind, parent: record.parent, effect: record.effect, label: record.causeLabel),
      action: record.action,
      outcome: record.flags.contains(.stopped) ? .stopped : .reduced,
      chainDuration: .nanoseconds(Int64(record.chainNanos)),
      reducerDuration: record.reducerNanos == unknown ? nil : .nanoseconds(Int64(record.reducerNanos)),
      reducerOffset: record.reducerOffsetNanos == unknown
        ? nil : .nanoseconds(Int64(record.reducerOffsetNanos))
    )
  }

  /// The effect events in the shape the readers give them, for the writers shared with files.
  var effectEventFields: [EventFields] {
    events.indices.map { index in
      let event = self.event(at: index)
      let (phase, error): (EventRecord.Phase, String?) =
        switch event.phase {
        case .started: (.started, nil)
        case .finished: (.finished, nil)
        case .cancelled: (.cancelled, nil)
        case .failed(let message): (.failed, message)
        }
      return EventFields(
        effect: event.effect, phase: phase, error: error, time: nanoseconds(event.time),
        position: Int64(event.position), cause: event.cause, ids: event.ids)
    }
  }

  func event(at index: Int) -> JournalEffectEvent {
    let record = events[index]
    let phase: EffectEvent.Phase =
      switch record.phase {
      case .started: .started
      case .finished: .finished
      case .cancelled: .cancelled
      case .failed: .failed(strings.string(for: record.failure) ?? "")
      }
    return JournalEffectEvent(
      phase: phase,
      effect: record.effect,
      cause: cause(kind: record.causeKind, parent: record.parent, effect: record.effect, label: record.label),
      ids: idLists.list(for: record.ids),
      time: .nanoseconds(record.time),
      position: Int(record.position)
    )
  }

  func cause(kind: UInt8, parent: UInt64, effect: UInt64, label: UInt32) -> Cause {
    Cause(
      kind: Cause.Kind(code: kind), parent: parent == 0 ? nil : parent, effect: effect == 0 ? nil : effect,
      label: strings.string(for: label))
  }

  /// The position of the entry with sequence number `sequence`.
  func index(ofSequence sequence: UInt64) -> Int? {
    var low = entries.startIndex
    var high = entries.endIndex
    while low < high {
      let middle = (low + high) / 2
      let found = entries[middle].sequence
      if found == sequence { return middle }
      if found < sequence { low = middle + 1 } else { high = middle }
    }
    return nil
  }

  /// The state before the entry at `index` (`index` may be the end index: the state after the
  /// last entry, or the state a reset or truncation left there), recomputed from the nearest
  /// checkpoint.
  func state(before index: Int, replay: ReplayLoop<State, Action>) -> State? {
    guard index >= entries.startIndex, index <= entries.endIndex,
      let checkpoint = checkpoints.nearest(atOrBefore: index)
    else { return nil }
    var state = checkpoint.state
    replay(&state, self, checkpoint.index..<index)
    return state
  }

  /// The state after the entry at `index`. Not `state(before: index + 1)`: a resync checkpoint
  /// before the next entry holds the state after actions that were not recorded.
  func state(after index: Int, replay: ReplayLoop<State, Action>) -> State? {
    guard entries.indices.contains(index), let checkpoint = checkpoints.nearest(atOrBefore: index) else {
      return nil
    }
    var state = checkpoint.state
    replay(&state, self, checkpoint.index..<(index + 1))
    return state
  }

  // MARK: Size

  /// Frees the interned strings and id lists that only entries and events before the first
  /// remaining entry referred to.
  mutating func releaseUnreferencedStrings() {
    strings.release(before: entries.startIndex)
    idLists.release(before: entries.startIndex)
  }

  @inlinable
  var approximateBytes: Int {
    entries.count * MemoryLayout<EntryRecord<Action>>.stride + events.count * MemoryLayout<EventRecord>.stride
      + checkpoints.byteCount + strings.byteCount + idLists.byteCount
  }
}
