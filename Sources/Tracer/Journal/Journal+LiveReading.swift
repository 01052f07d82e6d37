import ChronicleStore

/// Where a live reader of a journal stands: the next entry and effect event it has not read, and
/// what it read last, so that it notices when the journal went back (a truncation or a restore
/// by time travel) and reads the new line of events from where it starts.
///
/// A reader reads on its own thread and never slows the tracer: it takes the journal's lock for
/// one bounded batch at a time, and the tracer hands it nothing (no sink is involved).
package struct JournalReadCursor: Sendable {
  /// The next entry to read.
  package var nextEntry: Int
  /// The sequence number of the entry at `nextEntry - 1`, as read.
  package var lastSequence: UInt64?
  /// The next effect event to read.
  package var nextEvent: Int
  /// The time of the event at `nextEvent - 1`, as read.
  package var lastEventTime: Int64?
}

/// One record read from a journal, in the order the journal recorded them.
package enum JournalReadItem<State: Sendable, Action: Sendable>: Sendable {
  /// An entry, with the checkpoint the journal keeps before it (if any).
  case entry(JournalEntry<Action>, checkpoint: JournalCheckpoint<State>?)
  /// An effect event.
  case event(JournalEffectEvent)
}

/// What one read found.
package struct JournalRead<State: Sendable, Action: Sendable>: Sendable {
  /// The records, in order.
  package var items: [JournalReadItem<State, Action>] = []
  /// Entries the journal no longer held when the reader came to them (committed by its caps,
  /// or removed by a reset), before the first item.
  package var droppedEntries = 0
  /// Effect events the journal no longer held, likewise.
  package var droppedEvents = 0
  /// The journal went back (truncated or restored) since the last read: the items start the
  /// new line of events.
  package var rewound = false
}

extension Journal {
  /// A cursor at the journal's end: a reader starting there reads what is recorded from now on.
  package func liveCursor() -> JournalReadCursor {
    storage.withLock { storage in
      let content = storage.content
      let lastEntry = content.entries.endIndex - 1
      let lastEvent = content.events.endIndex - 1
      return JournalReadCursor(
        nextEntry: content.entries.endIndex,
        lastSequence: lastEntry >= content.entries.startIndex ? content.entries[lastEntry].sequence : nil,
        nextEvent: content.events.endIndex,
        lastEventTime: lastEvent >= content.events.startIndex ? content.events[lastEvent].time : nil)
    }
  }

  /// Reads at most `limit` entries (and the effect events among them) after `cursor`, and moves
  /// the cursor past them. Holds the journal's lock for the batch only.
  package func read(after cursor: inout JournalReadCursor, limit: Int) -> JournalRead<State, Action> {
    storage.withLock { storage in
      let content = storage.content
      var read = JournalRead<State, Action>()
      let entries = content.entries
      let events = content.events
      // Went back? The entry read last is no longer where it was.
      let last = cursor.nextEntry - 1
      if let sequence = cursor.lastSequence, last >= entries.startIndex,
        last >= entries.endIndex || entries[last].sequence != sequence
      {
        read.rewound = true
        if last < entries.endIndex && entries[last].sequence < sequence {
          // Restored to an older line: read it whole.
          cursor.nextEntry = entries.startIndex
          cursor.nextEvent = events.startIndex
        } else {
          // Truncated: the entries recorded since carry later sequence numbers.
          cursor.nextEntry = Self.first(in: entries.startIndex..<min(cursor.nextEntry, entries.endIndex)) {
            entries[$0].sequence > sequence
          }
          if let time = cursor.lastEventTime {
            cursor.nextEvent = Self.first(in: events.startIndex..<min(cursor.nextEvent, events.endIndex)) {
              events[$0].time > time
            }
          }
        }
      } else if let time = cursor.lastEventTime, cursor.nextEvent - 1 >= events.startIndex,
        cursor.nextEvent - 1 >= events.endIndex || events[cursor.nextEvent - 1].time != time
      {
        cursor.nextEvent = Self.first(in: events.startIndex..<min(cursor.nextEvent, events.endIndex)) {
          events[$0].time > time
        }
      }
      if cursor.nextEntry < entries.startIndex {
        read.droppedEntries = entries.startIndex - cursor.nextEntry
        cursor.nextEntry = entries.startIndex
      }
      if cursor.nextEvent < events.startIndex {
        read.droppedEvents = events.startIndex - cursor.nextEvent
        cursor.nextEvent = events.startIndex
      }
      cursor.nextEntry = min(cursor.nextEntry, entries.endIndex)
      cursor.nextEvent = min(cursor.nextEvent, events.endIndex)
      var taken = 0
      while true {
        let hasEntry = cursor.nextEntry < entries.endIndex && taken < limit
        let hasEvent = cursor.nextEvent < events.endIndex
        if hasEvent, !hasEntry || events[cursor.nextEvent].position <= Int64(cursor.nextEntry) {
          // Stop at the batch's end: an event after its last entry waits for the next read.
          if !hasEntry && taken >= limit { break }
          read.items.append(.event(content.event(at: cursor.nextEvent)))
          cursor.lastEventTime = events[cursor.nextEvent].time
          cursor.nextEvent += 1
        } else if hasEntry {
          let index = cursor.nextEntry
          let checkpoint = content.checkpoints.nearest(atOrBefore: index)
          read.items.append(
            .entry(content.entry(at: index), checkpoint: checkpoint?.index == index ? checkpoint : nil))
          cursor.lastSequence = entries[index].sequence
          cursor.nextEntry += 1
          taken += 1
        } else {
          break
        }
      }
      return read
    }
  }

  /// The first position in `range` where `isAfter` holds, for a predicate that is false then true.
  private static func first(in range: Range<Int>, where isAfter: (Int) -> Bool) -> Int {
    var low = range.lowerBound
    var high = range.upperBound
    while low < high {
      let middle = (low + high) / 2
      if isAfter(middle) { high = middle } else { low = middle + 1 }
    }
    return low
  }

  /// Asks the tracer to keep the store's state before the next entry as a checkpoint: for a
  /// reader that must know the store's state again (after a time-travel move, whose skipped
  /// entries make the journal's own replay differ from the store).
  package func requestCheckpoint() {
    wantsCheckpoint.store(true, ordering: .relaxed)
  }

  /// Applies `action` to `state` with the journal's reducer, dropping its effect: for a reader
  /// that follows the states entry by entry.
  package func reduce(_ state: inout State, _ action: Action) {
    _ = reducer(&state, action)
  }
}
