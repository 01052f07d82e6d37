import ChronicleInspection
import ChronicleJSON
import ChronicleLocks
import ChronicleStore
import ChronicleTracer
import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A journal sink that appends every recorded entry and effect event to a file, one JSON object
/// per line (NDJSON; see docs/formats/journal-ndjson.md), as the store processes actions.
///
/// ```swift
/// let sink = try NDJSONFileSink<AppState, AppAction>(url: logURL)
/// let journal = Journal(reducer: App(), configuration: .init(maxEntries: 1_000, sinks: [sink]))
/// ```
///
/// Memory stays bounded whatever the run's length: the sink keeps the file, one line's buffer
/// (and, writing in the background, at most `maxPendingLines` recorded lines), and the
/// journal's caps bound the journal.
///
/// What a crash can lose depends on ``Writing``:
/// - ``Writing/eachLine`` (the default): each line reaches the operating system with a single
///   `write` before `send` returns, so a process that crashes or is killed loses at most the line
///   being written. `send` pays for formatting the line and the `write` (a few microseconds).
/// - ``Writing/inBackground(maxPendingLines:)``: `send` hands the entry to a thread of the sink,
///   which formats and writes lines in batches. `send` pays for handing the entry over (a few
///   hundred nanoseconds on top of the tracer's own recording), not for formatting it; a crash
///   loses the lines recorded but not yet written: at most `maxPendingLines`, in practice those
///   of the last few milliseconds. Call ``flush()`` where a line must be on disk (before a
///   risky operation, at the end of a test); ``close()`` and the sink's release write every
///   pending line first.
///
/// Either way ``ChronicleTracer/Journal/loadNDJSON(contentsOf:reducer:configuration:limits:)``
/// reports a torn last line and keeps every line before it; lines are never reordered or skipped.
///
/// The first line is a header with the journal's metadata; the first entry line carries the
/// state before it as a checkpoint, so the file replays from its start. States and actions pass
/// through the options' redaction.
public final class NDJSONFileSink<State: Sendable, Action: Sendable>: JournalSink, Sendable {
  /// When lines reach the file.
  public enum Writing: Sendable, Equatable {
    /// Each line is written, with one `write`, before `send` returns: a crash loses at most the
    /// line being written.
    case eachLine
    /// Lines are written by a thread of the sink, in batches; `send` waits only when
    /// `maxPendingLines` lines are already waiting (queued, or in the batch being written). A
    /// crash loses the lines not yet written: at most `maxPendingLines`.
    case inBackground(maxPendingLines: Int = 8_192)
  }

  private let file: SinkFile<State, Action>
  private let background: BackgroundWriter<State, Action>?
  /// Hands an entry to ``background``: a closure formed where the sink is created, in the
  /// client, so that it is specialized for the client's types. Called from the sink's `record`,
  /// which the journal reaches through the `JournalSink` protocol, unspecialized: there, every
  /// generic value built or copied looked up its type's metadata (most of a background sink's
  /// cost on the sending thread).
  private let handOff: HandOff<State, Action>

  /// Creates (or truncates) the file at `url`.
  ///
  /// A symbolic link at `url` is refused with ``JournalExportError/symbolicLink(path:)`` unless
  /// `followingSymbolicLinks` is set: the sink appends to the file as the app runs, so a link
  /// planted there would send the journal (and truncate the file) wherever it points.
  ///
  /// - Parameters:
  ///   - url: Where to write.
  ///   - options: The redaction to apply (``ExportOptions/states`` does not apply: a stream
  ///     carries the journal's checkpoints).
  ///   - writing: When lines reach the file: ``Writing/eachLine`` (default) or in the background.
  ///   - followingSymbolicLinks: Whether a symbolic link at `url` is followed, writing to the
  ///     file it points to. Default `false`.
  // Inlinable so that the hand-off closures are formed, and specialized, in the client.
  @inlinable
  public convenience init(
    url: URL, options: ExportOptions = ExportOptions(), writing: Writing = .eachLine,
    followingSymbolicLinks: Bool = false
  ) throws(JournalExportError) {
    try self.init(
      url: url, options: options, writing: writing, followingSymbolicLinks: followingSymbolicLinks,
      napInterval: BackgroundWriter<State, Action>.napInterval, handOff: .queueing, format: .specialized)
  }

  /// The public initializer, with the background thread's nap between batches given.
  @usableFromInline
  init(
    url: URL, options: ExportOptions, writing: Writing, followingSymbolicLinks: Bool,
    napInterval: TimeInterval, handOff: HandOff<State, Action>, format: LineFormat<State, Action>
  ) throws(JournalExportError) {
    let path = url.path
    let noFollow = followingSymbolicLinks ? 0 : O_NOFOLLOW
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC | noFollow, 0o644)
    guard descriptor >= 0 else {
      if errno == ELOOP && !followingSymbolicLinks { throw .symbolicLink(path: path) }
      throw .cannotOpen(path: path, errno: errno)
    }
    file = SinkFile(path: path, descriptor: descriptor, redaction: options.redaction, format: format)
    if case .inBackground(let maxPendingLines) = writing {
      background = BackgroundWriter(
        file: file, maxPendingLines: max(1, maxPendingLines), napInterval: napInterval)
    } else {
      background = nil
    }
    self.handOff = handOff
  }

  deinit {
    background?.stop()
    file.close()
  }

  /// The number of lines written, the header included; after a write error, the lines that
  /// reached the file whole (those of the write it cut short included).
  public var linesWritten: Int { file.linesWritten }

  /// The first write error, after which the sink stops writing; `nil` while all is well.
  public var error: JournalExportError? { file.error }

  /// Waits until every line recorded so far is written (at once when writing ``Writing/eachLine``).
  public func flush() {
    background?.flush()
  }

  /// Writes the pending lines, then closes the file; later records are ignored.
  public func close() {
    background?.stop()
    file.close()
  }

  /// Appends the entry's line (after the header, for the first one).
  public func record(
    _ entry: JournalEntry<Action>, checkpoint: JournalCheckpoint<State>?, metadata: JournalMetadata
  ) {
    if let background {
      handOff.entry(background, entry, checkpoint, metadata)
    } else {
      file.write(entry, checkpoint: checkpoint, header: metadata)
    }
  }

  /// Writes the header, if nothing was written yet, so that the first line costs what the others do.
  public func prepare(metadata: JournalMetadata) {
    if let background {
      background.enqueueHeader(metadata)
    } else {
      var none: [PendingLine<State, Action>] = []
      file.write(&none, header: metadata)
    }
  }

  /// Appends the event's line (after the header, if nothing was written yet).
  public func record(_ event: JournalEffectEvent, metadata: JournalMetadata) {
    if let background {
      handOff.event(background, event, metadata)
    } else {
      var lines: [PendingLine<State, Action>] = [.event(event)]
      file.write(&lines, header: metadata)
    }
  }
}

/// How a background sink hands over what it records (see `NDJSONFileSink.handOff`).
@usableFromInline
struct HandOff<State: Sendable, Action: Sendable>: Sendable {
  let entry:
    @Sendable (
      BackgroundWriter<State, Action>, JournalEntry<Action>, JournalCheckpoint<State>?, JournalMetadata
    ) -> Void
  let event: @Sendable (BackgroundWriter<State, Action>, JournalEffectEvent, JournalMetadata) -> Void

  @usableFromInline
  init(
    entry:
      @escaping @Sendable (
        BackgroundWriter<State, Action>, JournalEntry<Action>, JournalCheckpoint<State>?, JournalMetadata
      ) -> Void,
    event: @escaping @Sendable (BackgroundWriter<State, Action>, JournalEffectEvent, JournalMetadata) -> Void
  ) {
    self.entry = entry
    self.event = event
  }
}

extension HandOff {
  /// Queues lines for the background writer; formed in the client when the sink's inlinable
  /// initializer is.
  @inlinable
  static var queueing: HandOff {
    HandOff(
      entry: { $0.enqueue(entry: $1, checkpoint: $2, metadata: $3) },
      event: { $0.enqueue(event: $1, metadata: $2) })
  }
}

/// How the sink formats its lines: closures formed where the sink is created, in the client, as
/// ``HandOff`` is, so that an entry's line is written by code specialized for the client's types.
/// The sink's file reaches them from its own code, unspecialized, where every generic value the
/// formatting touched (the entry, its action, the pending line) looked up its type's metadata.
@usableFromInline
struct LineFormat<State: Sendable, Action: Sendable>: Sendable {
  /// Writes the entry's object.
  let entry:
    @Sendable (
      JournalObjectWriter<State, Action>, JournalEntry<Action>, JournalCheckpoint<State>?, inout JSONWriter
    ) -> Void
  /// Writes the line at a position of a batch, or returns the metadata of the header found there
  /// for the file to write (unless it wrote one already). The line is moved out of the batch,
  /// which keeps ``PendingLine/formatted`` in its place: copying it out retained what it holds.
  let line:
    @Sendable (
      JournalObjectWriter<State, Action>, inout [PendingLine<State, Action>], Int, inout JSONWriter
    ) -> JournalMetadata?

  @usableFromInline
  init(
    entry:
      @escaping @Sendable (
        JournalObjectWriter<State, Action>, JournalEntry<Action>, JournalCheckpoint<State>?, inout JSONWriter
      ) -> Void,
    line:
      @escaping @Sendable (
        JournalObjectWriter<State, Action>, inout [PendingLine<State, Action>], Int, inout JSONWriter
      ) -> JournalMetadata?
  ) {
    self.entry = entry
    self.line = line
  }
}

extension LineFormat {
  /// The entry and event lines; formed in the client when the sink's inlinable initializer is.
  @inlinable
  static var specialized: LineFormat {
    LineFormat(
      entry: { objects, entry, checkpoint, writer in
        writeEntryLine(objects, entry, checkpoint, into: &writer)
      },
      line: { objects, lines, index, writer in
        var line = PendingLine<State, Action>.formatted
        swap(&line, &lines[index])
        switch consume line {
        case .entry(let entry, let checkpoint):
          writeEntryLine(objects, entry, checkpoint, into: &writer)
        case .event(let event):
          writer.raw(#"{"effect":"#)
          objects.writeEvent(event, into: &writer)
          writer.raw("}\n")
        case .header(let metadata):
          return metadata
        case .formatted:
          break
        }
        return nil
      })
  }

  /// Writes an entry's line.
  @inlinable
  static func writeEntryLine(
    _ objects: JournalObjectWriter<State, Action>, _ entry: JournalEntry<Action>,
    _ checkpoint: JournalCheckpoint<State>?, into writer: inout JSONWriter
  ) {
    writer.raw(#"{"entry":"#)
    objects.writeEntry(entry, checkpoint: checkpoint, stateAfter: nil, into: &writer)
    writer.raw("}\n")
  }
}

/// A line recorded and not yet formatted: what it is made of.
///
/// Entry and event lines do not carry the journal's metadata: only the header needs it, and
/// copying it into every line retained and released its strings each time.
@usableFromInline
enum PendingLine<State: Sendable, Action: Sendable>: Sendable {
  case entry(JournalEntry<Action>, JournalCheckpoint<State>?)
  case event(JournalEffectEvent)
  /// The header, written if nothing was written yet.
  case header(JournalMetadata)
  /// What a batch keeps in the place of a line once it is formatted.
  case formatted
}

/// The sink's file and the formatter of its lines, shared by the sink and its background writer.
final class SinkFile<State: Sendable, Action: Sendable>: Sendable {
  let path: String
  private let state: SanitizerVisibleMutex<SinkFileState>
  private let format: LineFormat<State, Action>
  /// Formats the lines: what it learns about the action and state types (their conformances,
  /// the JSON of small actions) is kept from one line to the next.
  // Used only under `state`'s lock, by one thread at a time. Kept out of the locked value so
  // that the value's type is not generic: the lock taken for each line of an each-line sink,
  // in code not specialized for the sink's types, looked up a generic value's metadata.
  private nonisolated(unsafe) let objects: JournalObjectWriter<State, Action>
  /// The most bytes gathered before a batch is written out.
  private static var batchBytes: Int { 1 << 16 }

  init(path: String, descriptor: Int32, redaction: Redaction, format: LineFormat<State, Action>) {
    self.path = path
    self.format = format
    objects = JournalObjectWriter(redaction: redaction)
    state = SanitizerVisibleMutex(SinkFileState(descriptor: descriptor))
  }

  var linesWritten: Int { state.withLock { $0.lines } }
  var error: JournalExportError? { state.withLock { $0.error } }

  func close() {
    state.withLock { state in
      if state.descriptor >= 0 {
        _ = closeDescriptor(state.descriptor)
        state.descriptor = -1
      }
    }
  }

  /// Formats the entry's line (after the header made of `header`, if nothing was written yet)
  /// and writes it with one `write`.
  func write(_ entry: JournalEntry<Action>, checkpoint: JournalCheckpoint<State>?, header: JournalMetadata) {
    state.withLock { state in
      guard state.descriptor >= 0, state.error == nil else { return }
      state.buffer.removeAll()
      var count = 1
      if !state.wroteHeader {
        writeHeader(header, into: &state)
        count += 1
      }
      format.entry(objects, entry, checkpoint, &state.buffer)
      _ = Self.flush(&state, path: path, lines: &count)
    }
  }

  /// Formats `lines` (after the header made of `header`, if nothing was written yet) and writes
  /// them, in as few `write`s as their size allows; lines are only ever written whole, in order.
  func write(_ lines: inout [PendingLine<State, Action>], header: JournalMetadata? = nil) {
    state.withLock { state in
      guard state.descriptor >= 0, state.error == nil else { return }
      state.buffer.removeAll()
      var count = 0
      if !state.wroteHeader, let header {
        writeHeader(header, into: &state)
        count += 1
      }
      for index in 0..<lines.count {
        if let metadata = format.line(objects, &lines, index, &state.buffer) {
          if !state.wroteHeader {
            writeHeader(metadata, into: &state)
            count += 1
          }
        } else {
          count += 1
        }
        if state.buffer.count >= Self.batchBytes {
          guard Self.flush(&state, path: path, lines: &count) else { return }
        }
      }
      _ = Self.flush(&state, path: path, lines: &count)
    }
  }

  private func writeHeader(_ metadata: JournalMetadata, into state: inout SinkFileState) {
    state.buffer.write(
      .object([
        JSONMember("format", .string(JournalWireFormat.streamFormat)),
        JSONMember("version", .integer(JournalWireFormat.version)),
        JSONMember("meta", objects.meta(metadata, counts: nil)),
      ]))
    state.buffer.raw("\n")
    state.wroteHeader = true
  }

  /// Writes the buffer with one `write` (a kill loses at most the line it was in the middle of)
  /// and counts its lines; `false` after a write error, which stops the sink. A write that fails
  /// partway (a full disk, a file size limit) counts the lines that reached the file whole.
  private static func flush(_ state: inout SinkFileState, path: String, lines: inout Int) -> Bool {
    defer { state.buffer.removeAll() }
    guard state.buffer.count > 0 else { return true }
    var written = 0
    do throws(JournalExportError) {
      try ExportStream.write(state.buffer, to: state.descriptor, path: path, written: &written)
      state.lines += lines
      lines = 0
      return true
    } catch {
      state.lines += state.buffer.withUnsafeBytes { bytes in
        bytes.prefix(written).reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
      }
      state.error = error
      return false
    }
  }
}

/// What ``SinkFile`` changes as it writes, under its lock.
private struct SinkFileState {
  var descriptor: Int32
  var wroteHeader = false
  var lines = 0
  var error: JournalExportError?
  /// The lines being written, the buffer kept from one batch to the next.
  var buffer = JSONWriter(capacity: 512)
}

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

/// `close(2)`, under a name that does not clash with the method called `close`.
func closeDescriptor(_ descriptor: Int32) -> Int32 {
  #if canImport(Darwin)
    Darwin.close(descriptor)
  #elseif canImport(Glibc)
    Glibc.close(descriptor)
  #else
    Musl.close(descriptor)
  #endif
}
