import ChronicleStore
import Foundation
import Synchronization

extension Journal {
  /// Records an action the tracer let through. Called by the tracer, in the store's order.
  ///
  /// The entry's wall time is the journal's origin wall time plus the monotonic time elapsed since
  /// (one clock read per action instead of two), so it does not follow changes of the system clock
  /// made while recording.
  ///
  /// - Parameters:
  ///   - sequence: The store's sequence number of the action.
  ///   - label: Its context label.
  ///   - cause: Its cause, as the entry keeps it.
  ///   - before: The store's state before the action, when ``wantsCheckpoint`` was set.
  ///   - reading: What the probe saw, when there is a probe.
  ///   - site: Where the action was sent.
  ///   - effectSite: Where the effect that sent it was created.
  @inlinable
  func record(
    _ action: Action, sequence: UInt64, label: String?, cause: RecordedCause, start: Int64, end: Int64,
    before: State?,
    reading: ProbeReading<Action>?, site: CallSite? = nil, effectSite: CallSite? = nil
  ) {
    let maxEntries = configuration.maxEntries
    let maxBytes = configuration.maxBytes
    let hasSinks = !sinks.isEmpty
    // One lock per action: what the sinks need is taken while the entry is recorded, before the
    // caps may commit it (a sink gets every entry recorded), and they are called after the lock
    // is released. A pointer, so that without sinks the result is one word, `nil`.
    let handOff: UnsafeMutablePointer<SinkHandOff<State, Action>>? = storage.withLock { storage in
      // Only the tracer, in the store's order, sets and clears the flag (a journal records one
      // store): a load and a rare store, not an exchange (a locked instruction on every action).
      var gap = storage.gap
      if gapPending.load(ordering: .relaxed) {
        gapPending.store(false, ordering: .relaxed)
        gap = true
      }
      let index = storage.content.entries.endIndex
      if let before {
        addCheckpoint(before, at: index, resync: gap || storage.content.checkpoints.isEmpty, to: &storage)
      } else if gap || storage.content.checkpoints.isEmpty {
        // The state was needed but not captured (the journal was truncated or restored while
        // this action was in the chain): leave the action out and resync on the next one.
        gapPending.store(true, ordering: .relaxed)
        wantsCheckpoint.store(true, ordering: .relaxed)
        return nil
      }
      storage.gap = false
      let unknown = EntryRecord<Action>.unknownDuration
      let time = start &- storage.content.originMonotonic
      var record = EntryRecord<Action>(
        sequence: sequence,
        time: time,
        parent: cause.parent,
        effect: cause.effect,
        chainNanos: EntryRecord<Action>.duration(end &- start),
        reducerNanos: unknown,
        reducerOffsetNanos: unknown,
        context: storage.content.strings.code(for: label, at: index),
        causeLabel: storage.content.strings.code(for: cause.label, at: index),
        site: storage.content.sites.code(for: site, effectSite: effectSite),
        causeKind: cause.kind,
        flags: [],
        action: action
      )
      if let reading {
        if let seen = reading.action {
          record.action = seen
          record.reducerNanos = EntryRecord<Action>.duration(reading.end &- reading.start)
          record.reducerOffsetNanos = EntryRecord<Action>.duration(reading.start &- start)
        } else {
          record.flags.insert(.stopped)
        }
      }
      storage.content.entries.append(record)
      let handOff =
        hasSinks
        ? takeForSinks(record, at: index, withCheckpoint: before != nil, from: &storage)
        : nil
      if let maxBytes {
        storage.countActionBytes(
          record.action, at: index, maxBytes: maxBytes, measure: configuration.actionSize)
      }
      if storage.isOverCaps(maxEntries: maxEntries, maxBytes: maxBytes) { commitOverflow(&storage) }
      let sinceCheckpoint =
        storage.content.entries.endIndex - (storage.content.checkpoints.lastIndex ?? Int.min / 2)
      wantsCheckpoint.store(sinceCheckpoint >= storage.content.checkpointInterval, ordering: .relaxed)
      return handOff
    }
    if let handOff { notifySinks(handOff) }
  }

  /// Keeps `state` as the checkpoint before the entry at `index`.
  @usableFromInline
  func addCheckpoint(
    _ state: State, at index: Int, resync: Bool, to storage: inout JournalStorage<State, Action>
  ) {
    let checkpoint = JournalCheckpoint(index: index, kind: resync ? .resync : .interval, state: state)
    if let stateSize = configuration.stateSize {
      storage.content.checkpoints.append(checkpoint, size: stateSize(state))
    } else {
      // The journal's own estimate counts a buffer this state shares with the previous checkpoint
      // once: a large collection no action touches is one allocation for all of them.
      storage.content.checkpoints.append(estimating: checkpoint)
    }
    if storage.content.stateShape == nil { storage.content.stateShape = TypeFingerprint.shape(of: state) }
  }

  /// Commits the oldest entries until the journal fits its caps.
  @usableFromInline
  func commitOverflow(_ storage: inout JournalStorage<State, Action>) {
    storage.enforceCaps(configuration: configuration, replay: replay)
  }

  /// What the sinks need of `record`, the entry just recorded at `index`; call with the lock
  /// held. The label and cause are the strings the record's codes stand for in the journal's
  /// table (capturing the tracer's own `String?` in the recording closure made Swift copy it
  /// through value witnesses on every action, sinks or not).
  ///
  /// Inlinable, so specialized in the client as `record` is; never inlined into it, where its
  /// code would slow the tracer without sinks. The caller passes the pointer to
  /// ``notifySinks(_:)``, which frees it.
  @inlinable @inline(never)
  func takeForSinks(
    _ record: EntryRecord<Action>, at index: Int, withCheckpoint: Bool,
    from storage: inout JournalStorage<State, Action>
  ) -> UnsafeMutablePointer<SinkHandOff<State, Action>> {
    let handOff = UnsafeMutablePointer<SinkHandOff<State, Action>>.allocate(capacity: 1)
    // A recorded entry's wall time is its time (only imported entries differ).
    handOff.initialize(
      to: SinkHandOff(
        entry: record.journalEntry(
          at: index, wallNanos: record.time, originWallNanos: storage.content.originWallNanos,
          context: storage.content.strings.string(for: record.context),
          cause: storage.content.cause(
            kind: record.causeKind, parent: record.parent, effect: record.effect, label: record.causeLabel),
          sites: storage.content.sites),
        checkpoint: withCheckpoint ? storage.content.checkpoints.nearest(atOrBefore: index) : nil,
        metadata: storage.metadataForSinks(untilShapeKnown: true)))
    return handOff
  }

  /// Hands the entry just recorded to the sinks, outside the lock, and frees what
  /// ``takeForSinks(_:at:withCheckpoint:from:)`` took under the lock the entry was recorded
  /// under: the entry ``JournalSnapshot`` reads back, without taking the lock again or reading
  /// the entry back from the journal's storage.
  ///
  /// Inlinable, as ``record(_:sequence:label:cause:start:end:before:reading:site:effectSite:)`` is: specialized in
  /// the client, walking the sinks and freeing the entry pay no generic metadata look-ups (they
  /// were most of a background sink's cost on the sending thread). Not inlined into `record`:
  /// there it slowed the tracer without sinks.
  @inlinable @inline(never)
  func notifySinks(_ taken: UnsafeMutablePointer<SinkHandOff<State, Action>>) {
    // Moved out, not read in place: read through `pointee`, the entry and the metadata were
    // copied for each sink.
    let handOff = taken.move()
    taken.deallocate()
    for sink in sinks {
      sink.record(handOff.entry, checkpoint: handOff.checkpoint, metadata: handOff.metadata.metadata)
    }
  }

  /// Notes that an action passed the tracer without being recorded.
  @inlinable
  func noteUnrecorded() {
    if !gapPending.load(ordering: .relaxed) { gapPending.store(true, ordering: .relaxed) }
    if !wantsCheckpoint.load(ordering: .relaxed) { wantsCheckpoint.store(true, ordering: .relaxed) }
  }

  /// The ids the user gave, as text: the ones a library attached (the group of all timers) are
  /// left out.
  static func exportedIDs(_ ids: [EffectID]) -> [String] {
    ids.compactMap { $0.isImplicit ? nil : $0.description }
  }

  /// Records an effect's lifecycle event.
  @usableFromInline
  func record(_ event: EffectEvent) {
    let now = MonotonicClock.now()
    let recorded: (JournalEffectEvent, SinkMetadata)? = storage.withLock { storage in
      let position = storage.content.entries.endIndex
      let phase: EventRecord.Phase
      var failure: UInt32 = 0
      switch event.phase {
      case .started: phase = .started
      case .finished: phase = .finished
      case .cancelled: phase = .cancelled
      case .failed(let message):
        phase = .failed
        failure = storage.content.strings.code(for: message, at: position)
        if let error = event.error { storage.content.keepFailure(error, of: event.effect) }
      }
      let record = EventRecord(
        effect: event.effect,
        parent: event.cause.parent ?? 0,
        time: now &- storage.content.originMonotonic,
        position: Int64(position),
        label: storage.content.strings.code(for: event.cause.label, at: position),
        ids: storage.content.idLists.code(for: Self.exportedIDs(event.ids), at: position),
        failure: failure,
        causeKind: event.cause.kind.code,
        phase: phase
      )
      storage.content.events.append(record)
      if storage.isOverCaps(maxEntries: configuration.maxEntries, maxBytes: configuration.maxBytes) {
        commitOverflow(&storage)
      }
      guard !sinks.isEmpty else { return nil }
      let metadata = storage.metadataForSinks(untilShapeKnown: false)
      return (storage.content.event(at: storage.content.events.endIndex - 1), metadata)
    }
    if let (event, metadata) = recorded {
      for sink in sinks { sink.record(event, metadata: metadata.metadata) }
    }
  }
}
