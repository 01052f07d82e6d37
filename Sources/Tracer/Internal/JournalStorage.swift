import ChronicleStore

/// The journal's mutable state, guarded by its lock.
@usableFromInline
struct JournalStorage<State: Sendable, Action: Sendable>: Sendable {
  @usableFromInline var content: JournalContent<State, Action>
  /// The next entry must store the store's state: the journal was truncated, reset or restored.
  @usableFromInline var gap = false
  @usableFromInline var committedCount = 0
  /// The metadata handed to sinks, computed once the state's shape is known.
  @usableFromInline var sinkMetadata: SinkMetadata?
  /// The index of the last checkpoint when the byte cap was found out of reach with it (its state
  /// is half the cap or more): until another checkpoint is taken, committing cannot help, and the
  /// cap is not checked again (see `byteCapTarget(maxBytes:)`).
  @usableFromInline var byteCapOutOfReachAt: Int?
  /// The first time the byte cap could not be met: reported once, by ``Journal/byteCapOverrun``.
  var byteCapOverrun: ByteCapOverrun?
  /// Which actions the journal's own estimate walks, for the byte cap.
  @usableFromInline var actionSampler = ActionSizeSampler()

  /// The metadata to hand to sinks: ``sinkMetadata``, computed from the content when there is
  /// none yet, or again when `untilShapeKnown` and the one there was computed before the state's
  /// shape was known.
  ///
  /// Inlinable: the tracer asks for it on every entry it hands to sinks, where an unspecialized
  /// call would look up the storage's generic metadata each time.
  @inlinable
  mutating func metadataForSinks(untilShapeKnown: Bool) -> SinkMetadata {
    if let metadata = sinkMetadata, !untilShapeKnown || metadata.knowsShape { return metadata }
    return computeMetadataForSinks()
  }

  @usableFromInline
  mutating func computeMetadataForSinks() -> SinkMetadata {
    let metadata = SinkMetadata(content.metadata())
    sinkMetadata = metadata
    return metadata
  }

  @usableFromInline
  init(content: JournalContent<State, Action>) {
    self.content = content
  }

  /// Whether the journal holds more than its caps allow: checked after every append, so it is
  /// inlined; committing is not. Always inlined: called out of line, the whole storage (336 bytes
  /// for a small state) was copied to the stack and its references retained on every action.
  @inlinable @inline(__always)
  func isOverCaps(maxEntries: Int?, maxBytes: Int?) -> Bool {
    if let maxEntries, content.entries.count > maxEntries || content.events.count > maxEntries { return true }
    if let maxBytes, content.approximateBytes > maxBytes,
      byteCapOutOfReachAt == nil || byteCapOutOfReachAt != content.checkpoints.lastIndex
    {
      return true
    }
    return false
  }

  /// Counts the heap bytes `action`, the entry at `index`'s, carries, for the byte cap: `measure`'s
  /// count, or the journal's own estimate (``ActionSizeSampler``); nothing for an action type
  /// without references. Always inlined into the recording path, where that type check is a
  /// constant.
  @inlinable @inline(__always)
  mutating func countActionBytes(
    _ action: Action, at index: Int, maxBytes: Int, measure: (@Sendable (Action) -> Int)?
  ) {
    if let measure { return content.actionBytes.append(measure(action), at: index) }
    if _isPOD(Action.self) { return }
    content.actionBytes.append(actionSampler.bytes(of: action, maxBytes: maxBytes), at: index)
  }
}

extension JournalStorage {
  /// Commits the oldest entries while the journal is over its caps.
  @usableFromInline
  mutating func enforceCaps(
    configuration: Journal<State, Action>.Configuration, replay: ReplayLoop<State, Action>
  ) {
    let startIndex = content.entries.startIndex
    let endIndex = content.entries.endIndex
    var target = startIndex
    if let maxEntries = configuration.maxEntries, endIndex - startIndex > maxEntries {
      // Commit a sixteenth of the cap at a time, not one checkpoint interval: committing has a
      // fixed cost, which this spreads over many actions.
      target = endIndex - maxEntries + max(0, maxEntries / 16 - content.checkpointInterval)
    }
    if let maxBytes = configuration.maxBytes, content.approximateBytes > maxBytes,
      byteCapOutOfReachAt == nil || byteCapOutOfReachAt != content.checkpoints.lastIndex
    {
      target = max(target, byteCapTarget(maxBytes: maxBytes))
    }
    if let maxEntries = configuration.maxEntries, content.events.count > maxEntries {
      content.events.removeFirst(upTo: content.events.endIndex - maxEntries)
    }
    guard target > startIndex else { return }
    // Prefer ending on an existing checkpoint (no replay needed) when one is near.
    if let next = content.checkpoints.first(after: target - 1), next.index <= endIndex,
      next.index - target <= content.checkpointInterval
    {
      target = next.index
    }
    commit(upTo: target, configuration: configuration, replay: replay)
  }

  /// Where to commit to for the byte cap, the journal being over it.
  ///
  /// Whole checkpoint segments go first, oldest first: committing to a checkpoint replays nothing.
  /// When only the last checkpoint's segment is left:
  /// - if its state is under half the cap, the entries after it hold the excess (their actions'
  ///   payloads): they are committed until the journal is down to three quarters of the cap, so
  ///   that the replay and the size estimate this commit costs are paid once per quarter of the
  ///   cap recorded, not on every action;
  /// - otherwise no commit can bring the journal much under the cap: the journal keeps that
  ///   checkpoint and the entries after it, and is not checked again until the next checkpoint
  ///   (an action then costs no replay and no estimate). When the state alone is over the cap,
  ///   the first time is reported in `byteCapOverrun`.
  mutating func byteCapTarget(maxBytes: Int) -> Int {
    let startIndex = content.entries.startIndex
    let endIndex = content.entries.endIndex
    let last = min(content.checkpoints.lastIndex ?? startIndex, endIndex)
    // The interned strings and id lists go with the entries that refer to them; with ever new
    // labels they are most of the bytes, so count each entry's share.
    let tableBytes = content.strings.byteCount + content.idLists.byteCount
    let entryBytes = MemoryLayout<EntryRecord<Action>>.stride + tableBytes / max(1, content.entries.count)
    var excess = content.approximateBytes - maxBytes
    var cursor = content.actionBytes.startPosition
    var position = startIndex
    while excess > 0, position < last {
      let next = min(content.checkpoints.first(after: position)?.index ?? last, last)
      excess -= (next - position) * entryBytes + content.actionBytes.bytes(in: position..<next, from: &cursor)
      excess -= content.checkpoints.size(ofCheckpointAt: position)
      position = next
    }
    guard excess > 0, position < endIndex else { return position }
    let stateBytes = content.checkpoints.size(ofCheckpointAt: position)
    if stateBytes >= maxBytes / 2 {
      byteCapOutOfReachAt = content.checkpoints.lastIndex
      if stateBytes >= maxBytes, byteCapOverrun == nil {
        byteCapOverrun = ByteCapOverrun(index: position, stateBytes: stateBytes, maxBytes: maxBytes)
      }
      return position
    }
    // The new base checkpoint replaces the last one, at about its size.
    excess += maxBytes / 4
    while excess > 0, position < endIndex {
      excess -= entryBytes + content.actionBytes.bytes(in: position..<(position + 1), from: &cursor)
      position += 1
    }
    return position
  }

  /// Folds the entries before `index` into the base state.
  mutating func commit(
    upTo index: Int, configuration: Journal<State, Action>.Configuration,
    replay: ReplayLoop<State, Action>
  ) {
    let index = min(max(index, content.entries.startIndex), content.entries.endIndex)
    guard index > content.entries.startIndex else { return }
    if content.checkpoints.nearest(atOrBefore: index)?.index != index,
      let state = content.state(before: index, replay: replay)
    {
      content.checkpoints.removeAll(before: index)
      content.checkpoints.prepend(
        JournalCheckpoint(index: index, kind: .interval, state: state), size: configuration.size(of: state))
    } else {
      content.checkpoints.removeAll(before: index)
    }
    committedCount += index - content.entries.startIndex
    content.entries.removeFirst(releasing: index)
    if !content.wallTimes.isEmpty { content.wallTimes = content.wallTimes.filter { $0.key >= index } }
    content.actionBytes.removeAll(before: index)
    var firstEvent = content.events.startIndex
    while firstEvent < content.events.endIndex, content.events[firstEvent].position < Int64(index) {
      firstEvent += 1
    }
    content.events.removeFirst(upTo: firstEvent)
    content.releaseUnreferencedStrings()
  }
}

/// The metadata a journal hands its sinks, shared by reference: copied into every entry's
/// hand-off, the struct retained and released each of its strings per entry.
@usableFromInline
final class SinkMetadata: Sendable {
  @usableFromInline let metadata: JournalMetadata
  /// Whether the state's shape was known when the metadata was made.
  @usableFromInline let knowsShape: Bool

  init(_ metadata: JournalMetadata) {
    self.metadata = metadata
    knowsShape = metadata.state.shape != nil
  }
}
