import ChronicleStore

/// What the formats' writers read of a snapshot besides its public API, as plain values.
extension JournalSnapshot {
  /// The Unix time of the journal's time zero, in nanoseconds.
  package var originWallNanos: Int64 { content.originWallNanos }

  /// The numbers of the entry at `index`.
  ///
  /// Always inlined: a Chrome trace reads two or three entries' numbers per entry, and each
  /// call into the tracer's unspecialized code looked up the metadata of its storage types (4%
  /// more instructions for the whole export).
  ///
  /// - Precondition: `index` lies within ``indices``.
  @inlinable @inline(__always)
  package func entryNumbers(at index: Int) -> EntryNumbers {
    let record = content.entries[index]
    return EntryNumbers(
      sequence: record.sequence, time: record.time, chainNanos: record.chainNanos,
      reducerNanos: record.reducerNanos, reducerOffsetNanos: record.reducerOffsetNanos,
      parent: record.parent, effect: record.effect)
  }

  /// The Unix time of the entry at `index`, in nanoseconds.
  ///
  /// - Precondition: `index` lies within ``indices``.
  package func wallNanos(at index: Int) -> Int64 {
    content.originWallNanos + content.wallNanos(of: content.entries[index], at: index)
  }

  /// Where the action of the entry at `index` was sent, and where the effect that sent it was
  /// created.
  ///
  /// - Precondition: `index` lies within ``indices``.
  package func callSites(at index: Int) -> (site: RecordedCallSite?, effectSite: RecordedCallSite?) {
    let code = content.entries[index].site
    return (content.sites.site(for: code), content.sites.effectSite(for: code))
  }

  /// The entry at `index`, as ``entries`` has it: for an export's loop, always inlined in it (a
  /// call of its own cost a look-up of the snapshot's metadata per entry in unspecialized code).
  ///
  /// - Precondition: `index` lies within ``indices``.
  @inlinable @inline(__always)
  package func exportedEntry(at index: Int) -> JournalEntry<Action> {
    content.entry(at: index)
  }

  /// The first checkpoint after `index`: where an export that walks the entries meets the next
  /// one.
  @inlinable
  package func checkpoint(after index: Int) -> JournalCheckpoint<State>? {
    content.checkpoints.first(after: index)
  }
}
