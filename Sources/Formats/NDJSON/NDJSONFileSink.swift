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
/// - ``Writing/mapped(chunkBytes:)``: each line is copied into a `MAP_SHARED` mapping of the
///   file before `send` returns, with no system call but when the file grows (a chunk at a
///   time, its blocks allocated then) and, on Linux, when the sink's queue is woken to make the
///   next pages writable (about once per 256 KiB of lines): a process that crashes or is
///   killed loses at most the line being written, as with ``Writing/eachLine``, since the page
///   cache holds the copied lines. From the sink's creation (which adds and maps the file's
///   first chunk, so that the first `send` does not) until it is closed or released, the file
///   ends with NUL bytes where the next lines go; the loaders stop at them, and report them with
///   a torn line in a file left by a killed process (`chronicle repair` cuts them). Not the
///   default: a reader that reads the file to its end while the sink is open (`tail -f`, `jq`)
///   sees those NUL bytes, and `tail -f` misses the lines copied into bytes it had read. A FIFO
///   or a device is written line by line. See docs/formats/journal-ndjson.md, "Mapped writing".
///
/// Either way ``ChronicleTracer/Journal/loadNDJSON(contentsOf:reducer:configuration:limits:)``
/// reports a torn last line and keeps every line before it; lines are never reordered or skipped.
/// No mode promises anything on power loss or an operating system crash: the sink does not call
/// `fsync`, and the kernel writes the page cache to the disk when it chooses.
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
    /// Each line is copied into a `MAP_SHARED` mapping of the file before `send` returns, with
    /// no system call: a crash loses at most the line being written, as with ``eachLine``. The
    /// file is grown `chunkBytes` at a time (its blocks allocated then), the first time when the
    /// sink is created: until the sink is closed, it ends with NUL bytes where lines will go
    /// (see ``NDJSONFileSink``).
    case mapped(chunkBytes: Int = 1 << 20)
  }

  let file: SinkFile<State, Action>
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
  ///   - writing: When lines reach the file: ``Writing/eachLine`` (default), in the background,
  ///     or copied into a mapping of the file.
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
      napInterval: BackgroundWriter<State, Action>.napInterval, handOff: .specialized, format: .specialized)
  }

  /// The public initializer, with the background thread's nap between batches given.
  @usableFromInline
  init(
    url: URL, options: ExportOptions, writing: Writing, followingSymbolicLinks: Bool,
    napInterval: TimeInterval, handOff: HandOff<State, Action>, format: LineFormat<State, Action>,
    writingZeros: Bool = false
  ) throws(JournalExportError) {
    let path = url.path
    let noFollow = followingSymbolicLinks ? 0 : O_NOFOLLOW
    var flags = O_CREAT | O_TRUNC | O_CLOEXEC | noFollow
    if case .mapped = writing { flags |= O_RDWR } else { flags |= O_WRONLY | O_APPEND }
    let descriptor = open(path, flags, 0o644)
    guard descriptor >= 0 else {
      if errno == ELOOP && !followingSymbolicLinks { throw .symbolicLink(path: path) }
      throw .cannotOpen(path: path, errno: errno)
    }
    var mapping: MappedFile?
    var status = stat()
    // Only a regular file can be mapped: a FIFO or a device is written line by line.
    if case .mapped(let chunkBytes) = writing, fstat(descriptor, &status) == 0,
      status.st_mode & S_IFMT == S_IFREG
    {
      let file = MappedFile(
        descriptor: descriptor, chunkBytes: chunkBytes, growth: writingZeros ? .writingZeros : .allocating)
      // The file's first chunk, its mapping and first pages, here rather than in the first `send`.
      file.prepare()
      mapping = file
    }
    file = SinkFile(
      path: path, descriptor: descriptor, mapping: mapping, redaction: options.redaction, format: format)
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

  /// The number of lines written (or copied into the mapping), the header included; after a
  /// write error, the lines that reached the file whole (those of the write it cut short
  /// included).
  public var linesWritten: Int { file.linesWritten }

  /// The first write error, after which the sink stops writing; `nil` while all is well.
  public var error: JournalExportError? { file.error }

  /// The first difference the sink found between an action's (or state's) own JSON
  /// (``JournalJSONWritable``) and its `Encodable` conformance's; `nil` while there is none. The
  /// value it was found on was written as `Encodable` writes it, and so is every value of that
  /// type since: the sink no longer uses its writer.
  public var journalJSONMismatch: JournalJSONMismatch? { file.journalJSONMismatch }

  /// Waits until every line recorded so far is written (at once when writing ``Writing/eachLine``
  /// or ``Writing/mapped(chunkBytes:)``).
  public func flush() {
    background?.flush()
  }

  /// Writes the pending lines, then closes the file (a mapped one cut at its lines); later
  /// records are ignored.
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
