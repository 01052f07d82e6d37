import ChronicleStore
import Foundation

/// Everything a journal holds, as one value: the live journal keeps it under its lock, and a
/// snapshot is a copy of it (which copies chunk references and small tables, not entries).
///
/// Its storage is the tracer's own: the importers build one with the `package` calls of
/// `JournalContent+Importing.swift`, and the exporters read a snapshot's with those of
/// `JournalSnapshot+ExportReading.swift`, in plain values.
@usableFromInline
package struct JournalContent<State: Sendable, Action: Sendable>: Sendable {
  /// Unix time of the journal's time zero, in nanoseconds.
  @usableFromInline var originWallNanos: Int64
  /// The monotonic clock's reading at time zero (meaningful only in the recording process).
  @usableFromInline var originMonotonic: Int64
  @usableFromInline var entries: ChunkedList<EntryRecord<Action>>
  @usableFromInline var events: ChunkedList<EventRecord>
  @usableFromInline var checkpoints = CheckpointList<State>()
  @usableFromInline var strings = StringTable()
  @usableFromInline var idLists = IDListTable()
  @usableFromInline var sites = SiteTable()
  /// The wall times, in nanoseconds since the origin wall time, of the entries flagged
  /// ``EntryFlags/wallTimeApart`` (imported ones whose wall time is not the origin's plus their
  /// time), by entry index.
  @usableFromInline var wallTimes: [Int: Int64] = [:]
  /// The heap bytes the entries' actions carry, for the byte cap.
  @usableFromInline var actionBytes = ActionBytes()
  /// The errors of failed effects, by effect serial: exports write each under their own policy.
  /// Failures are rare; those whose event is gone are dropped when the table has doubled.
  var failures: [UInt64: EffectError] = [:]
  /// The size of ``failures`` past which it is pruned next.
  var failurePruneMark = 64
  /// The shape of the state type, from the first state recorded.
  @usableFromInline var stateShape: String?
  @usableFromInline var checkpointInterval: Int

  package init(originWallNanos: Int64, originMonotonic: Int64, checkpointInterval: Int, chunkCapacity: Int) {
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

  // Inlinable: an export's loop inlines it, so the metadata of `JournalEntry<Action>` is
  // looked up once per export rather than per entry.
  @inlinable
  func entry(at index: Int) -> JournalEntry<Action> {
    let record = entries[index]
    return record.journalEntry(
      at: index, wallNanos: wallNanos(of: record, at: index), originWallNanos: originWallNanos,
      context: strings.string(for: record.context),
      cause: cause(
        kind: record.causeKind, parent: record.parent, effect: record.effect, label: record.causeLabel),
      sites: sites)
  }

  /// The wall time of `record`, the entry at `index`, in nanoseconds since the origin wall time.
  @inlinable
  func wallNanos(of record: EntryRecord<Action>, at index: Int) -> Int64 {
    record.flags.contains(.wallTimeApart) ? wallTimes[index] ?? record.time : record.time
  }

  /// Appends an entry read from a file, whose wall time (nanoseconds since the origin wall time)
  /// may not be the origin's plus its time.
  @usableFromInline
  mutating func appendImported(_ record: EntryRecord<Action>, wallTime: Int64) {
    var record = record
    if wallTime != record.time {
      record.flags.insert(.wallTimeApart)
      wallTimes[entries.endIndex] = wallTime
    }
    entries.append(record)
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
      position: Int(record.position),
      error: record.phase == .failed ? failures[record.effect] : nil
    )
  }

  /// Keeps the error of the failed effect `effect`, whose event is being recorded.
  mutating func keepFailure(_ error: EffectError, of effect: UInt64) {
    failures[effect] = error
    guard failures.count > failurePruneMark else { return }
    var live = Set<UInt64>()
    for index in events.indices where events[index].phase == .failed { live.insert(events[index].effect) }
    live.insert(effect)
    failures = failures.filter { live.contains($0.key) }
    failurePruneMark = max(64, failures.count * 2)
  }

  @usableFromInline func cause(kind: UInt16, parent: UInt64, effect: UInt64, label: UInt32) -> Cause {
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

  // Always inlined: `isOverCaps` reads it on every recorded action, and called out of line the
  // whole content (488 bytes for a small state) was copied to the stack for it each time.
  @inlinable @inline(__always)
  var approximateBytes: Int {
    entries.count * MemoryLayout<EntryRecord<Action>>.stride + events.count * MemoryLayout<EventRecord>.stride
      + checkpoints.byteCount + strings.byteCount + idLists.byteCount + actionBytes.byteCount
  }
}
