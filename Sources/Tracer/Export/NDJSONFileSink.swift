import ChronicleStore
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
/// Memory stays bounded whatever the run's length: the sink keeps nothing but the file and one
/// line's buffer, and the journal's caps bound the journal. Each line reaches the operating
/// system with a single `write` before `send` returns, so a process that crashes or is killed
/// loses at most the line being written; ``Journal/loadNDJSON(contentsOf:reducer:configuration:limits:)``
/// reports such a torn last line and keeps every line before it.
///
/// The first line is a header with the journal's metadata; the first entry line carries the
/// state before it as a checkpoint, so the file replays from its start. States and actions pass
/// through the options' redaction.
public final class NDJSONFileSink<State: Sendable, Action: Sendable>: JournalSink, Sendable {
  private let path: String
  private let redaction: Redaction
  private let file: SanitizerVisibleMutex<FileState>

  private struct FileState {
    var descriptor: Int32
    var wroteHeader = false
    var lines = 0
    var error: JournalExportError?
    /// Formats the lines, under the lock: what it learns about the action and state types (their
    /// conformances, the JSON of small actions) is kept from one line to the next.
    let objects: JournalObjectWriter<State, Action>
    /// The line being written, its buffer kept from one line to the next.
    var line = JSONWriter(capacity: 512)
  }

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
  ///   - followingSymbolicLinks: Whether a symbolic link at `url` is followed, writing to the
  ///     file it points to. Default `false`.
  public init(
    url: URL, options: ExportOptions = ExportOptions(), followingSymbolicLinks: Bool = false
  ) throws(JournalExportError) {
    path = url.path
    redaction = options.redaction
    let noFollow = followingSymbolicLinks ? 0 : O_NOFOLLOW
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC | noFollow, 0o644)
    guard descriptor >= 0 else {
      if errno == ELOOP && !followingSymbolicLinks { throw .symbolicLink(path: path) }
      throw .cannotOpen(path: path, errno: errno)
    }
    file = SanitizerVisibleMutex(
      FileState(descriptor: descriptor, objects: JournalObjectWriter(redaction: options.redaction)))
  }

  deinit {
    file.withLock { state in
      if state.descriptor >= 0 { _ = closeDescriptor(state.descriptor) }
    }
  }

  /// The number of lines written, the header included.
  public var linesWritten: Int { file.withLock { $0.lines } }

  /// The first write error, after which the sink stops writing; `nil` while all is well.
  public var error: JournalExportError? { file.withLock { $0.error } }

  /// Closes the file; later records are ignored.
  public func close() {
    file.withLock { state in
      if state.descriptor >= 0 {
        _ = closeDescriptor(state.descriptor)
        state.descriptor = -1
      }
    }
  }

  /// Appends the entry's line (after the header, for the first one).
  public func record(
    _ entry: JournalEntry<Action>, checkpoint: JournalCheckpoint<State>?, metadata: JournalMetadata
  ) {
    write(metadata: metadata) { objects, line in
      line.raw(#"{"entry":"#)
      objects.writeEntry(entry, checkpoint: checkpoint, stateAfter: nil, into: &line)
      line.raw("}\n")
    }
  }

  /// Writes the header, if nothing was written yet, so that the first line costs what the others do.
  public func prepare(metadata: JournalMetadata) {
    write(metadata: metadata) { _, _ in }
  }

  /// Appends the event's line (after the header, if nothing was written yet).
  public func record(_ event: JournalEffectEvent, metadata: JournalMetadata) {
    write(metadata: metadata) { objects, line in
      line.write(.object([JSONMember("effect", objects.event(event))]))
      line.raw("\n")
    }
  }

  /// Formats a line with `format` (nothing, for none) and writes it, after the header if nothing
  /// was written yet.
  private func write(
    metadata: JournalMetadata, format: (JournalObjectWriter<State, Action>, inout JSONWriter) -> Void
  ) {
    file.withLock { state in
      guard state.descriptor >= 0, state.error == nil else { return }
      state.line.bytes.removeAll(keepingCapacity: true)
      if !state.wroteHeader {
        state.line.write(
          .object([
            JSONMember("format", .string(JournalWireFormat.streamFormat)),
            JSONMember("version", .integer(JournalWireFormat.version)),
            JSONMember("meta", state.objects.meta(metadata, counts: nil)),
          ]))
        state.line.raw("\n")
      }
      let headerCount = state.line.bytes.count
      format(state.objects, &state.line)
      let wroteLine = state.line.bytes.count > headerCount
      guard !state.line.bytes.isEmpty else { return }
      do throws(JournalExportError) {
        // One `write` for the line (and the header before the first one): a kill loses at
        // most this line.
        try ExportStream.write(state.line.bytes, to: state.descriptor, path: path)
        state.lines += (state.wroteHeader ? 0 : 1) + (wroteLine ? 1 : 0)
        state.wroteHeader = true
      } catch {
        state.error = error
      }
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
