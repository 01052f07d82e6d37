import ChronicleJSON
import ChronicleTracer
import Foundation

/// Reads an NDJSON journal stream as it is appended: the bytes are handed over as they arrive,
/// in pieces of any size, and each line they complete is read as
/// ``JournalFile/init(contentsOf:limits:)`` reads it. What `chronicle follow` prints.
///
/// The first line must be the stream's header. A line still without its newline (one the sink
/// is writing) waits for the bytes that complete it. A mapped sink's file holds NUL bytes after
/// its lines, where the next ones will go: hand over the bytes before the first NUL, and read
/// again from there. Entries are returned in the order of their
/// lines: a branch's entries follow the ones they replace.
public struct JournalStreamReader: Sendable {
  private let limits: JournalImportLimits
  private var pending: [UInt8] = []
  private var meta: JSONValue?
  private var lineNumber = 0
  private var entryCount = 0
  private var effectCount = 0
  /// The bytes of the complete lines read so far.
  public private(set) var byteCount = 0

  /// A reader of a stream from its first byte.
  public init(limits: JournalImportLimits = .default) {
    self.limits = limits
  }

  /// Whether the header line was read.
  public var hasHeader: Bool { meta != nil }

  /// The header line's bytes, once read, with its newline.
  public private(set) var headerBytes: [UInt8] = []

  /// Takes `bytes`, the next ones of the stream, and returns the entries of the lines they
  /// complete, in order; throws the loader's error for a line it refuses.
  public mutating func append(_ bytes: [UInt8]) throws(JournalImportError) -> [JournalFileEntry] {
    pending += bytes
    var entries: [JournalFileEntry] = []
    var start = 0
    defer { pending.removeFirst(start) }
    while let end = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
      let line = Array(pending[start..<end])
      let offset = byteCount
      byteCount += end + 1 - start
      start = end + 1
      lineNumber += 1
      if let entry = try read(line, offset: offset) { entries.append(entry) }
    }
    if meta == nil, start == 0, !pending.isEmpty, pending.count <= limits.maxLineBytes {
      // No header line yet: a file of another format says so now (as the loader would), rather
      // than being waited for; the start of a header is waited for.
      do {
        _ = try JournalFile(data: Data(pending), limits: limits)
      } catch {
        if case .truncated = error {} else { throw error }
      }
    }
    return entries
  }

  private mutating func read(_ line: [UInt8], offset: Int) throws(JournalImportError) -> JournalFileEntry? {
    guard meta != nil else {
      let header = try line.withUnsafeBufferPointer { bytes throws(JournalImportError) in
        do throws(JSONParser.Failure) {
          return try JSONParser.parse(bytes, limits: limits.parser)
        } catch {
          throw JournalImportError(error)
        }
      }
      let root = try FieldReader(header, path: FieldPath())
      let format = root.optional("format")?.stringValue
      guard format == JournalWireFormat.streamFormat else {
        throw .wrongFormat(expected: JournalWireFormat.streamFormat, found: format)
      }
      try Journal<Int, Int>.checkVersion(root)
      _ = try MetaFields(root.object("meta"))
      self.meta = try root.required("meta")
      headerBytes = line + [UInt8(ascii: "\n")]
      return nil
    }
    let record = try line.withUnsafeBufferPointer { bytes throws(JournalImportError) -> NDJSONRecord? in
      guard try NDJSONRecord.hasContent(bytes, lineNumber: lineNumber, limits: limits) else { return nil }
      return try NDJSONRecord.read(
        bytes, lineNumber: lineNumber, byteOffset: offset, entries: entryCount, effects: effectCount,
        limits: limits)
    }
    switch record {
    case nil: return nil
    case .effect(let value):
      _ = try EventFields(FieldReader(value, path: FieldPath([.key("effects"), .index(effectCount)])))
      effectCount += 1
      return nil
    case .entry(let value):
      let path = FieldPath([.key("entries"), .index(entryCount)])
      let fields = try EntryFields(FieldReader(value, path: path))
      let entry = try JournalFileEntry(value, fields: fields, position: entryCount)
      entryCount += 1
      return entry
    }
  }
}
