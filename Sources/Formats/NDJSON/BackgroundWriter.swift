import ChronicleTracer
import Foundation

/// The thread that writes a background sink's lines, and the queue the store's threads hand
/// them over with.
///
/// A record appends to the queue under `condition`'s lock and wakes the thread only when it is
/// asleep for good (not while it naps between batches), so a steady stream of records costs no
/// wake-up each. The thread takes the whole queue, writes it, naps for ``napInterval`` and takes
/// what came meanwhile; after a nap with nothing new it sleeps until the next record. A flush
/// wakes it from either.
///
/// The enqueueing methods are inlinable: the sink's hand-off closures, formed in the client,
/// run them specialized for its types.
@usableFromInline
final class BackgroundWriter<State: Sendable, Action: Sendable>: @unchecked Sendable {
  // `@unchecked Sendable`: every `var` below is guarded by `condition`'s lock. Their accesses
  // are not checked for exclusivity at run time: each happens under that lock, on one thread.
  @usableFromInline let condition = NSCondition()
  @usableFromInline @exclusivity(unchecked) var queue: [PendingLine<State, Action>] = []
  /// The lines of the batch the thread is writing: still pending (not yet written), so they
  /// count against `maxPendingLines` with the queue's.
  @usableFromInline @exclusivity(unchecked) var taken = 0
  @exclusivity(unchecked) private var written = 0
  @usableFromInline @exclusivity(unchecked) var recorded = 0
  /// The thread waits for a record, with no time limit.
  @usableFromInline @exclusivity(unchecked) var asleep = false
  /// The thread waits for a record or the end of its nap.
  @exclusivity(unchecked) private var napping = false
  /// A header line was queued: the first line is always one.
  @usableFromInline @exclusivity(unchecked) var queuedHeader = false
  @exclusivity(unchecked) private var stopping = false
  @usableFromInline @exclusivity(unchecked) var stopped = false
  @usableFromInline let maxPendingLines: Int
  private let file: SinkFile<State, Action>
  private let nap: TimeInterval
  /// How long the thread waits for more lines after a batch before it sleeps until woken.
  @usableFromInline static var napInterval: TimeInterval { 0.002 }

  init(file: SinkFile<State, Action>, maxPendingLines: Int, napInterval: TimeInterval) {
    self.file = file
    self.maxPendingLines = maxPendingLines
    nap = napInterval
    queue.reserveCapacity(min(maxPendingLines, 1_024))
    let thread = Thread { [self] in run() }
    thread.name = "chronicle.ndjson-sink"
    thread.start()
  }

  @inlinable
  func enqueue(
    entry: JournalEntry<Action>, checkpoint: JournalCheckpoint<State>?, metadata: JournalMetadata
  ) {
    condition.lock()
    defer { condition.unlock() }
    guard makeRoom(header: metadata) else { return }
    queue.append(.entry(entry, checkpoint))
    queued()
  }

  @inlinable
  func enqueue(event: JournalEffectEvent, metadata: JournalMetadata) {
    condition.lock()
    defer { condition.unlock() }
    guard makeRoom(header: metadata) else { return }
    queue.append(.event(event))
    queued()
  }

  /// Queues the header, unless one was queued already.
  func enqueueHeader(_ metadata: JournalMetadata) {
    condition.lock()
    defer { condition.unlock() }
    _ = makeRoom(header: metadata, lines: 0)
  }

  /// Waits until `lines` more lines (and the header, if none was queued) fit in
  /// `maxPendingLines` with those not yet written, queued or in the batch being written (so a
  /// crash loses at most `maxPendingLines`, and memory stays bounded), then queues the header if
  /// none was; `false` once the writer stopped. Called under the lock.
  @inlinable
  func makeRoom(header metadata: JournalMetadata, lines: Int = 1) -> Bool {
    let needed = lines + (queuedHeader ? 0 : 1)
    // Held until the thread has written enough; a line is always let in when nothing is
    // pending, so that a limit below `needed` cannot hold the sender for ever.
    while queue.count + taken > 0 && queue.count + taken + needed > maxPendingLines && !stopped {
      condition.wait()
    }
    guard !stopped else { return false }
    if !queuedHeader { queueHeader(metadata) }
    return true
  }

  @usableFromInline
  func queueHeader(_ metadata: JournalMetadata) {
    queuedHeader = true
    queue.append(.header(metadata))
    queued()
  }

  /// Counts a line queued, and wakes the thread if it sleeps for good. Called under the lock.
  @inlinable
  func queued() {
    recorded += 1
    if asleep {
      asleep = false
      condition.broadcast()
    }
  }

  /// Waits until every line enqueued before the call is written.
  func flush() {
    condition.lock()
    defer { condition.unlock() }
    let target = recorded
    if written < target && (asleep || napping) {
      // Its nap would otherwise end before the lines do: a flush waited for it.
      asleep = false
      napping = false
      condition.broadcast()
    }
    while written < target && !stopped { condition.wait() }
  }

  /// Writes what is queued, then ends the thread; later lines are ignored.
  func stop() {
    condition.lock()
    defer { condition.unlock() }
    stopping = true
    condition.broadcast()
    while !stopped { condition.wait() }
  }

  private func run() {
    var batch: [PendingLine<State, Action>] = []
    while true {
      condition.lock()
      if queue.isEmpty && !stopping {
        // Nap first: under a steady stream, records find the thread napping and wake no one.
        napping = true
        let deadline = Date(timeIntervalSinceNow: nap)
        while napping && queue.isEmpty && !stopping {
          if !condition.wait(until: deadline) { break }
        }
        napping = false
        while queue.isEmpty && !stopping {
          asleep = true
          condition.wait()
        }
        asleep = false
      }
      if queue.isEmpty && stopping {
        stopped = true
        condition.broadcast()
        condition.unlock()
        return
      }
      swap(&batch, &queue)
      taken = batch.count
      condition.unlock()

      file.write(&batch)
      batch.removeAll(keepingCapacity: true)

      condition.lock()
      written += taken
      taken = 0
      // Wakes flushes, and senders held until the lines were written.
      condition.broadcast()
      condition.unlock()
    }
  }
}
