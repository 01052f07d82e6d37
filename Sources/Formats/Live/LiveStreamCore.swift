import ChronicleInspection
import ChronicleJSON
import ChronicleStore
import ChronicleTracer
import Foundation

/// The buffer and the reader of a ``JournalLiveStream``, held by the stream and by its thread
/// (the stream's release stops the thread, which then releases this).
final class LiveStreamCore<State: Sendable, Action: Sendable>: @unchecked Sendable {
  // `@unchecked Sendable`: the buffer's `var`s are guarded by `condition`'s lock, the reader's
  // by `reading`'s; `reading` is taken first when both are.
  private let condition = NSCondition()
  private let reading = NSLock()

  // MARK: Guarded by `condition`
  private var lines: [LiveLine] = []
  /// The entries among the lines up to and including each line of ``lines``, counted from the
  /// stream's start.
  private var entriesThrough: [Int] = []
  private var head = 0
  private var lastNumber = 0
  private var entriesMade = 0
  private var acknowledged = 0
  private var heldEntries = 0
  private var heldBytes = 0
  private var droppedLines = 0
  private var droppedEntries = 0
  /// `(number, entries through it)` at the last acknowledgements, for a resume that goes back
  /// past the lines held.
  private var ackPoints: [(number: Int, entries: Int)] = [(0, 0)]
  private var stopping = false
  private var moved = false
  private var handler: (@Sendable () -> Void)?

  // MARK: Guarded by `reading`
  private let journal: Journal<State, Action>
  private let limits: JournalLiveStream<State, Action>.Limits
  private let format: LineFormat<State, Action>
  private let objects: JournalObjectWriter<State, Action>
  private var cursor: JournalReadCursor
  private var writer = JSONWriter(capacity: 1_024)
  /// The state after the last entry read, and its JSON; `nil` when unknown.
  private var current: (state: State, json: JSONValue)?
  private var sinceFull = 0
  /// The next entry needs a whole state and a checkpoint on its line: the first one, or after
  /// a gap or a rewind.
  private var resync = true
  private var forceFull = false
  private var pendingGap = (lines: 0, entries: 0)

  /// The most entries read from the journal at once.
  private static var batchEntries: Int { 256 }
  private static var shortestNap: TimeInterval { 0.001 }
  private static var longestNap: TimeInterval { 0.016 }

  init(
    journal: Journal<State, Action>, redaction: Redaction, limits: JournalLiveStream<State, Action>.Limits,
    format: LineFormat<State, Action>
  ) {
    self.journal = journal
    self.limits = limits
    self.format = format
    objects = JournalObjectWriter(redaction: redaction)
    cursor = journal.liveCursor()
  }

  func startThread() {
    let thread = Thread { [self] in run() }
    thread.name = "chronicle.live-stream"
    thread.start()
  }

  func stop() {
    condition.lock()
    stopping = true
    condition.broadcast()
    condition.unlock()
  }

  private func run() {
    var nap = Self.shortestNap
    while true {
      condition.lock()
      if stopping {
        condition.unlock()
        return
      }
      if isFull {
        // An acknowledgement wakes it; the time limit only guards against a missed one.
        _ = condition.wait(until: Date(timeIntervalSinceNow: Self.longestNap))
        condition.unlock()
        continue
      }
      condition.unlock()
      if readBatch() > 0 {
        nap = Self.shortestNap
        continue
      }
      condition.lock()
      if !stopping { _ = condition.wait(until: Date(timeIntervalSinceNow: nap)) }
      condition.unlock()
      nap = min(nap * 2, Self.longestNap)
    }
  }

  /// Called under `condition`'s lock.
  private var isFull: Bool { heldEntries >= limits.maxEntries || heldBytes >= limits.maxBytes }

  func catchUp() {
    while readBatch() > 0 {}
  }

  func noteMove() {
    condition.lock()
    moved = true
    condition.unlock()
    journal.requestCheckpoint()
  }

  func setHandler(_ handler: (@Sendable () -> Void)?) {
    condition.lock()
    self.handler = handler
    condition.unlock()
  }

  // MARK: Reading

  /// Reads and formats one batch; returns the number of records read.
  private func readBatch() -> Int {
    reading.lock()
    defer { reading.unlock() }
    condition.lock()
    let room = isFull ? 0 : limits.maxEntries - heldEntries
    if moved {
      moved = false
      forceFull = true
    }
    condition.unlock()
    guard room > 0 else { return 0 }
    let read = journal.read(after: &cursor, limit: min(Self.batchEntries, room))
    if read.droppedEntries > 0 || read.droppedEvents > 0 {
      pendingGap.lines += 2 * read.droppedEntries + read.droppedEvents
      pendingGap.entries += read.droppedEntries
      resync = true
    }
    if read.rewound { resync = true }
    var made: [(bytes: [UInt8], kind: LiveLine.Kind)] = []
    made.reserveCapacity(read.items.count * 2)
    for item in read.items {
      switch item {
      case .event(let event):
        writer.removeAll()
        writer.raw(#"{"effect":"#)
        objects.writeEvent(event, into: &writer)
        writer.raw("}\n")
        made.append((writer.bytes, .effect))
      case .entry(let entry, let checkpoint):
        format(entry, checkpoint: checkpoint, into: &made)
      }
    }
    append(made)
    return read.items.count
  }

  /// Formats an entry's line and its state line.
  private func format(
    _ entry: JournalEntry<Action>, checkpoint: JournalCheckpoint<State>?,
    into made: inout [(bytes: [UInt8], kind: LiveLine.Kind)]
  ) {
    var base: State?
    var lineCheckpoint = checkpoint
    if let checkpoint {
      base = checkpoint.state
    } else if !resync, let current {
      base = current.state
    } else if let state = journal.snapshot().state(before: entry.index) {
      base = state
      lineCheckpoint = JournalCheckpoint(index: entry.index, kind: .resync, state: state)
    }
    if resync, let checkpoint, checkpoint.kind != .resync {
      lineCheckpoint = JournalCheckpoint(index: entry.index, kind: .resync, state: checkpoint.state)
    }
    writer.removeAll()
    format.entry(objects, entry, lineCheckpoint, &writer)
    made.append((writer.bytes, .entry))
    guard var state = base else {
      // Nothing tells the state here (the journal no longer holds what leads to it): the next
      // entry with a checkpoint starts again.
      current = nil
      resync = true
      return
    }
    if entry.outcome != .stopped { journal.reduce(&state, entry.action) }
    let json = objects.state(state)
    let whole =
      resync || forceFull || current == nil || checkpoint?.kind == .resync
      || sinceFull + 1 >= max(1, limits.fullStateInterval)
    writer.removeAll()
    writer.raw(#"{"state":{"index":"#)
    writer.integer(entry.index)
    if whole {
      writer.raw(#","full":"#)
      writer.write(json)
      sinceFull = 0
    } else if let previous = current?.json {
      writer.raw(#","patch":"#)
      writer.write(.array(StatePatch.between(previous, json).map(\.json)))
      sinceFull += 1
    }
    writer.raw("}}\n")
    made.append((writer.bytes, .state))
    current = (state, json)
    resync = false
    forceFull = false
  }

  /// Numbers and keeps `made`, after the gap marker of what was dropped before them.
  private func append(_ made: [(bytes: [UInt8], kind: LiveLine.Kind)]) {
    condition.lock()
    var count = made.count
    if pendingGap.lines > 0 {
      let gap = Self.gapLine(lines: pendingGap.lines, entries: pendingGap.entries)
      droppedLines += pendingGap.lines
      droppedEntries += pendingGap.entries
      pendingGap = (0, 0)
      keep(gap, kind: .gap)
      count += 1
    }
    for (bytes, kind) in made { keep(bytes, kind: kind) }
    let handler = count > 0 ? self.handler : nil
    condition.unlock()
    handler?()
  }

  /// Called under `condition`'s lock.
  private func keep(_ bytes: [UInt8], kind: LiveLine.Kind) {
    lastNumber += 1
    if kind == .entry {
      entriesMade += 1
      heldEntries += 1
    }
    heldBytes += bytes.count
    lines.append(LiveLine(number: lastNumber, bytes: bytes, kind: kind))
    entriesThrough.append(entriesMade)
  }

  static func gapLine(lines: Int, entries: Int) -> [UInt8] {
    Array(#"{"gap":{"dropped":\#(lines),"entries":\#(entries)}}"#.utf8) + [0x0A]
  }

  func metaJSON() -> String {
    reading.lock()
    defer { reading.unlock() }
    return String(decoding: JSONWriter.serialize(objects.meta(journal.metadata, counts: nil)), as: UTF8.self)
  }

  // MARK: The buffer

  func lines(after number: Int, maxLines: Int, maxBytes: Int) -> [LiveLine] {
    condition.lock()
    defer { condition.unlock() }
    guard head < lines.count else { return [] }
    var position = max(head, head + (number + 1 - lines[head].number))
    var result: [LiveLine] = []
    var bytes = 0
    while position < lines.count, result.count < maxLines {
      let line = lines[position]
      if !result.isEmpty && bytes + line.bytes.count > maxBytes { break }
      bytes += line.bytes.count
      result.append(line)
      position += 1
    }
    return result
  }

  func resume(after number: Int) -> LiveResume {
    condition.lock()
    defer { condition.unlock() }
    let first = head < lines.count ? lines[head].number : lastNumber + 1
    let asked = max(0, min(number, lastNumber))
    guard asked + 1 < first else { return LiveResume(next: asked + 1, gap: nil) }
    // The lines after `asked` up to `first - 1` were acknowledged and freed: the gap takes the
    // number of the last of them, so the numbers of the connection stay consecutive.
    let through = ackPoints.last { $0.number <= asked }?.entries ?? 0
    let freedThrough = ackPoints.last { $0.number <= first - 1 }?.entries ?? 0
    let gap = LiveLine(
      number: first - 1,
      bytes: Self.gapLine(lines: first - 1 - asked, entries: max(0, freedThrough - through)),
      kind: .gap)
    return LiveResume(next: first - 1, gap: gap)
  }

  func acknowledge(upTo number: Int) {
    condition.lock()
    defer { condition.unlock() }
    let number = min(number, lastNumber)
    guard number > acknowledged else { return }
    var entriesFreed = ackPoints.last?.entries ?? 0
    while head < lines.count, lines[head].number <= number {
      heldBytes -= lines[head].bytes.count
      if lines[head].kind == .entry { heldEntries -= 1 }
      entriesFreed = entriesThrough[head]
      head += 1
    }
    acknowledged = number
    ackPoints.append((number, entriesFreed))
    if ackPoints.count > 256 { ackPoints.removeFirst(128) }
    if head > 1_024 && head * 2 > lines.count {
      lines.removeFirst(head)
      entriesThrough.removeFirst(head)
      head = 0
    }
    condition.broadcast()
  }

  var statistics: LiveStreamStatistics {
    condition.lock()
    defer { condition.unlock() }
    return LiveStreamStatistics(
      lastNumber: lastNumber, acknowledged: acknowledged, heldLines: lines.count - head,
      heldEntries: heldEntries, heldBytes: heldBytes, droppedLines: droppedLines,
      droppedEntries: droppedEntries)
  }
}
