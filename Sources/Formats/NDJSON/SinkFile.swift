import ChronicleInspection
import ChronicleJSON
import ChronicleLocks
import ChronicleTracer
import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

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

  /// A file written with `write(2)`, or through `mapping` when there is one (for the
  /// descriptor's file).
  init(
    path: String, descriptor: Int32, mapping: sending MappedFile? = nil, redaction: Redaction,
    format: LineFormat<State, Action>
  ) {
    self.path = path
    self.format = format
    objects = JournalObjectWriter(redaction: redaction)
    state = SanitizerVisibleMutex(SinkFileState(descriptor: descriptor, mapping: mapping))
  }

  var linesWritten: Int { state.withLock { $0.lines } }
  var error: JournalExportError? { state.withLock { $0.error } }
  /// Read under the lock the lines are formatted under.
  var journalJSONMismatch: JournalJSONMismatch? { state.withLock { _ in objects.journalJSONMismatch } }

  func close() {
    state.withLock { state in
      if state.descriptor >= 0 {
        state.mapping?.close()
        state.mapping = nil
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

  /// Writes the buffer with one `write`, or copies it into the mapping (a kill loses at most the
  /// line it was in the middle of) and counts its lines; `false` after a write error, which
  /// stops the sink. A write that fails partway (a full disk, a file size limit) counts the lines
  /// that reached the file whole.
  private static func flush(_ state: inout SinkFileState, path: String, lines: inout Int) -> Bool {
    defer { state.buffer.removeAll() }
    guard state.buffer.count > 0 else { return true }
    if let mapping = state.mapping {
      var appended = 0
      var failure: Errno?
      state.buffer.withUnsafeBytes { bytes in
        do throws(Errno) {
          try mapping.append(bytes, lineCount: lines, lines: &appended)
        } catch {
          failure = error
        }
      }
      state.lines += appended
      lines = 0
      guard let failure else { return true }
      state.error = .writeFailed(path: path, errno: failure.code)
      return false
    }
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
  /// The mapping lines are copied into, for a mapped sink.
  var mapping: MappedFile?
  var wroteHeader = false
  var lines = 0
  var error: JournalExportError?
  /// The lines being written, the buffer kept from one batch to the next.
  var buffer = JSONWriter(capacity: 512)
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
