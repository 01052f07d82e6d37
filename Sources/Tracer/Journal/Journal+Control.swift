extension Journal {
  /// Folds the entries up to and including `index` into the base state, as Redux DevTools'
  /// commit does: the state after `index` becomes the base, and the entries before it are gone.
  ///
  /// - Parameter index: The last entry to commit; positions outside ``indices`` are clamped.
  public func commit(through index: Int) {
    storage.withLock { storage in
      // `index + 1` would overflow at `Int.max`, which is clamped like any other position.
      storage.commit(upTo: min(index, Int.max - 1) + 1, configuration: configuration, replay: replay)
    }
  }

  /// Removes the entries from `index` on, and the effect events recorded after the entry before
  /// it: what time travel does when a new action starts a branch from the past. Take a
  /// ``snapshot()`` first to keep the old future.
  ///
  /// The next entry recorded stores the store's state as a checkpoint, so the journal replays
  /// whatever state the store continues from.
  public func truncate(from index: Int) {
    storage.withLock { storage in
      let entries = storage.content.entries.indices
      let index = min(max(index, entries.lowerBound), entries.upperBound)
      storage.content.entries.removeLast(from: index)
      storage.content.actionBytes.removeAll(from: index)
      storage.byteCapOutOfReachAt = nil
      storage.content.checkpoints.removeAll(after: index)
      let events = storage.content.events.indices
      var firstDropped = events.upperBound
      while firstDropped > events.lowerBound, storage.content.events[firstDropped - 1].position > Int64(index)
      {
        firstDropped -= 1
      }
      storage.content.events.removeLast(from: firstDropped)
      storage.gap = true
      wantsCheckpoint.store(true, ordering: .relaxed)
    }
  }

  /// Removes every entry, event and checkpoint, and makes `state` the base state (or leaves the
  /// journal without one, until the tracer records its next action). Positions continue from
  /// the current end index.
  public func reset(to state: State? = nil) {
    storage.withLock { storage in
      let end = storage.content.entries.endIndex
      storage.committedCount += storage.content.entries.count
      storage.content.entries.reset(startingAt: end)
      storage.content.events.reset(startingAt: storage.content.events.endIndex)
      storage.content.checkpoints.removeAll()
      storage.content.actionBytes.removeAll()
      storage.byteCapOutOfReachAt = nil
      storage.content.releaseUnreferencedStrings()
      if let state {
        storage.content.checkpoints.append(
          JournalCheckpoint(index: end, kind: .resync, state: state), size: configuration.size(of: state))
      }
      storage.gap = true
      wantsCheckpoint.store(true, ordering: .relaxed)
    }
  }

  /// Replaces the journal's contents with those of `snapshot` (taken from this journal or from
  /// one of the same types), such as a branch kept by time travel.
  ///
  /// The next entry recorded stores the store's state as a checkpoint.
  public func restore(_ snapshot: JournalSnapshot<State, Action>) {
    storage.withLock { storage in
      storage.content = snapshot.content
      storage.sinkMetadata = nil
      storage.byteCapOutOfReachAt = nil
      storage.gap = true
      wantsCheckpoint.store(true, ordering: .relaxed)
    }
  }
}
