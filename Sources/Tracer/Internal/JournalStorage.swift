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
    if let maxBytes, content.approximateBytes > maxBytes { return true }
    return false
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
    if let maxBytes = configuration.maxBytes, content.approximateBytes > maxBytes {
      // Drop whole checkpoint segments until the estimate fits.
      // The interned strings and id lists go with the entries that refer to them; with ever new
      // labels they are most of the bytes, so count each entry's share.
      let tableBytes = content.strings.byteCount + content.idLists.byteCount
      let entryBytes = MemoryLayout<EntryRecord<Action>>.stride + tableBytes / max(1, content.entries.count)
      var excess = content.approximateBytes - maxBytes
      var position = startIndex
      while excess > 0, position < endIndex {
        let next = min(content.checkpoints.first(after: position)?.index ?? endIndex, endIndex)
        excess -= (next - position) * entryBytes
        excess -= content.checkpoints.size(ofCheckpointAt: position)
        position = next
      }
      target = max(target, position)
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
    content.entries.removeFirst(upTo: index)
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
