import ChronicleStore
import Foundation

/// What an importer builds a journal's content with: plain values in, the journal's storage
/// (entry records, string and site tables, checkpoint list) kept inside the tracer.
///
/// The calls an import makes per entry are inlinable: an importer's public entry point runs
/// them specialized for the app's types, with the interning of strings and sites inlined as the
/// tracer's own recording has it.
extension JournalContent {
  // MARK: Origin and shape

  /// Sets the journal's time zero to the Unix time `wallNanos`, read from a file, and the
  /// monotonic clock's reading at it: times recorded after the import continue the file's clock,
  /// approximately.
  package mutating func setOrigin(wallNanos: Int64) {
    let now = MonotonicClock.now()
    let wallNow = Int64((Date().timeIntervalSince1970 * 1e9).rounded())
    originWallNanos = wallNanos
    originMonotonic = now &- (wallNow &- wallNanos)
  }

  /// Sets the shape of the state type, as a file gives it (`nil`: unknown).
  package mutating func setStateShape(_ shape: String?) {
    stateShape = shape
  }

  /// Takes the shape of the state type from `state` when none is known yet.
  package mutating func noteStateShape(of state: State) {
    if stateShape == nil { stateShape = TypeFingerprint.shape(of: state) }
  }

  // MARK: Checkpoints

  /// The index of the last checkpoint; `nil` when there is none.
  package var lastCheckpointIndex: Int? { checkpoints.lastIndex }

  /// Adds `checkpoint`, whose state is counted as `size` bytes, after the last one, or replaces
  /// the last one at the same index.
  ///
  /// - Precondition: No checkpoint is after `checkpoint.index`.
  package mutating func appendCheckpoint(_ checkpoint: JournalCheckpoint<State>, size: Int) {
    checkpoints.append(checkpoint, size: size)
  }

  // MARK: Entries

  /// Makes the entries start at `index`, dropping any there are.
  @inlinable
  package mutating func startEntries(at index: Int) {
    entries.reset(startingAt: index)
  }

  /// Adds an entry read from a file after the last one.
  ///
  /// - Parameters:
  ///   - time: Monotonic nanoseconds since the origin.
  ///   - wallNanos: Its Unix time in nanoseconds; `nil` for the origin's plus `time`.
  ///   - chainNanos: Nanoseconds in the chain after the tracer, saturated.
  ///   - reducerNanos: Nanoseconds in the reducer, or ``EntryNumbers/unknownDuration``.
  ///   - reducerOffsetNanos: Nanoseconds from `time` to the reducer's start, or
  ///     ``EntryNumbers/unknownDuration``.
  ///   - stopped: Whether a middleware stopped the action before the reducer.
  @inlinable
  package mutating func appendImportedEntry(
    sequence: UInt64, time: Int64, wallNanos: Int64?, context: String?, cause: Cause, site: RecordedCallSite?,
    effectSite: RecordedCallSite?, stopped: Bool, chainNanos: UInt32, reducerNanos: UInt32,
    reducerOffsetNanos: UInt32, action: Action
  ) {
    let record = EntryRecord(
      sequence: sequence, time: time,
      parent: cause.parent ?? 0, effect: cause.effect ?? 0,
      chainNanos: chainNanos, reducerNanos: reducerNanos,
      reducerOffsetNanos: reducerOffsetNanos,
      context: strings.code(for: context, at: entries.endIndex),
      causeLabel: strings.code(for: cause.label, at: entries.endIndex),
      site: sites.code(for: site, effectSite: effectSite),
      causeKind: cause.kind.code, flags: stopped ? .stopped : [], action: action)
    appendImported(record, wallTime: wallNanos.map { $0 &- originWallNanos } ?? time)
  }

  /// Continues the content at entry `index` where the entry at `nextIndex` was expected, as a
  /// stream does after its journal turned to another branch.
  ///
  /// An `index` among the entries before `nextIndex` is a truncation (a branch starts there): the
  /// entries from `index` on, the checkpoints after it and the events after it are dropped. Any
  /// other is a restore or reset: every entry, checkpoint and event is dropped, and the entries
  /// start at `index`.
  package mutating func turn(to index: Int, from nextIndex: Int) {
    if index >= entries.startIndex && index < nextIndex {
      entries.removeLast(from: index)
      checkpoints.removeAll(after: index)
      var firstDropped = events.endIndex
      while firstDropped > events.startIndex, events[firstDropped - 1].position > Int64(index) {
        firstDropped -= 1
      }
      events.removeLast(from: firstDropped)
    } else {
      entries.reset(startingAt: index)
      checkpoints.removeAll()
      events.reset(startingAt: events.endIndex)
    }
  }

  // MARK: Effect events

  /// Adds an effect event read from a file after the last one.
  ///
  /// - Parameters:
  ///   - failure: The error's description, for a `failed` event.
  ///   - time: Monotonic nanoseconds since the origin.
  ///   - position: The number of entries recorded before the event.
  package mutating func appendImportedEvent(
    effect: UInt64, phase: EventRecord.Phase, failure: String?, time: Int64, position: Int64, cause: Cause,
    ids: [String]
  ) {
    let at = Int(position)
    let failure = strings.code(for: failure, at: at)
    events.append(
      EventRecord(
        effect: effect, parent: cause.parent ?? 0, time: time, position: position,
        label: strings.code(for: cause.label, at: at), ids: idLists.code(for: ids, at: at),
        failure: failure, causeKind: cause.kind.code, phase: phase))
  }
}
