import ChronicleJSON
import ChronicleTracer
import Foundation

extension JournalFile {
  /// What ``scan(contentsOf:limits:visiting:)`` reads of a file besides the entries it visits.
  public struct Scan: Sendable {
    /// The file's metadata, as a document without entries: its ``JournalFile/stateType``,
    /// ``JournalFile/actionType`` and ``JournalFile/originISO8601``.
    public var header: JournalFile
    /// The number of entries: the ``JournalFile/count`` of the file read whole.
    public var entryCount: Int
    /// The number of effect events: the ``JournalFile/effectCount`` of the file read whole.
    public var effectCount: Int
    /// The torn last line of an NDJSON stream, if any: the ``JournalFile/tornLine`` of the file
    /// read whole.
    public var tornLine: TornLine?
  }

  /// Reads the file at `url` as ``init(contentsOf:limits:)`` does, with the same checks and
  /// errors, and calls `visit` with each entry in order, until it returns `false`; an NDJSON
  /// stream is read line by line, so memory does not grow with the number of entries.
  ///
  /// `visit` gets a document and the entry's position in it: for a stream, a document of the
  /// entry and its neighbours (the entries before and after it), so that its state before and
  /// after (``stateChanges(from:to:)``, ``stateText(after:)``, ``stateJSON(after:)``) and its
  /// action (``actionText(at:)``) read as in the whole file. Other formats are one JSON
  /// document: they are read whole, and `visit` gets that document.
  ///
  /// A stream is read twice: once to check every line (nothing is visited when a line is bad)
  /// and to find the entries a branch replaced, then to visit the entries that remain.
  public static func scan(
    contentsOf url: URL, limits: JournalImportLimits = .default,
    visiting visit: (_ document: JournalFile, _ position: Int) -> Bool
  ) throws(JournalImportError) -> Scan {
    let checked: StreamCheck?
    do {
      checked = try StreamCheck(url, limits: limits)
    } catch {
      // The loader reads the file whole and throws its own error, which the scan must throw
      // too (a check here that it does not make would let it through).
      checked = nil
    }
    guard let checked else {
      let document = try JournalFile(contentsOf: url, limits: limits)
      for position in document.entries.indices where !visit(document, position) { break }
      return Scan(
        header: JournalFile(emptyWithMeta: document.meta), entryCount: document.count,
        effectCount: document.effectCount, tornLine: document.tornLine)
    }
    try checked.visit(url, limits: limits, visit)
    return Scan(
      header: JournalFile(emptyWithMeta: checked.meta), entryCount: checked.entryCount,
      effectCount: checked.effectCount, tornLine: checked.tornLine)
  }

  /// A document of consecutive entries of a stream (a scan's window), already read and checked.
  init(meta: JSONValue, window: [(object: JSONValue, entry: JournalFileEntry)]) {
    self.meta = meta
    baseState = .null
    entryObjects = window.map(\.object)
    effectObjects = []
    entries = window.map(\.entry)
  }
}

/// The first reading of a stream by ``JournalFile/scan(contentsOf:limits:visiting:)``: every line
/// checked as the loader checks it, and the branches found, without keeping the entries.
private struct StreamCheck {
  var meta: JSONValue = .null
  var entryCount = 0
  var effectCount = 0
  var tornLine: TornLine?
  /// The bytes of the complete lines.
  var end = 0
  /// Where a branch or a reset dropped entries: the byte offset of its line, and the first index
  /// it dropped (`Int.min`: all).
  var cuts: [(offset: Int, index: Int)] = []

  /// Not a stream, or a line the loader may judge otherwise: the caller lets the loader read the file.
  struct NotChecked: Error {}

  init(_ url: URL, limits: JournalImportLimits) throws {
    let file = try FileInput(url)
    try file.check(limit: limits.maxBytes)
    var lines = LineReader(file: file, limit: limits.maxLineBytes)
    guard case .complete(let headerLine, _)? = try lines.next() else { throw NotChecked() }
    let header = try headerLine.withUnsafeBufferPointer { bytes throws(JSONParser.Failure) in
      try JSONParser.parse(bytes, limits: limits.parser)
    }
    guard header["format"]?.stringValue == JournalWireFormat.streamFormat else { throw NotChecked() }
    let root = try FieldReader(header, path: FieldPath())
    try Journal<Int, Int>.checkVersion(root)
    _ = try MetaFields(root.object("meta"))
    meta = try root.required("meta")

    var order = EntryOrder()
    var lineNumber = 1
    var ordinal = 0
    var first: Int?
    var kept = 0
    // The positions of the effect events kept, for a branch to drop those after it: as many as
    // the file has events (not entries), as the loader keeps them.
    var effects: [Int64] = []
    var scratch = JSONParser.Scratch()
    while let line = try lines.next() {
      lineNumber += 1
      guard case .complete(let bytes, let offset) = line else {
        if case .torn(let offset, let count, let unwritten) = line {
          tornLine = TornLine(
            lineNumber: lineNumber, byteOffset: offset, byteCount: count, unwrittenByteCount: unwritten)
        }
        break
      }
      end = offset + bytes.count + 1
      let record: NDJSONRecord? = try bytes.withUnsafeBufferPointer { line throws(JournalImportError) in
        guard try NDJSONRecord.hasContent(line, lineNumber: lineNumber, limits: limits) else { return nil }
        return try NDJSONRecord.read(
          line, lineNumber: lineNumber, byteOffset: offset, entries: ordinal, effects: effects.count,
          limits: limits, scratch: &scratch)
      }
      switch record {
      case nil: continue
      case .entry(let value):
        guard ordinal < limits.maxEntries else { throw NotChecked() }
        let path = FieldPath([.key("entries"), .index(ordinal)])
        let entry = try EntryFields(FieldReader(value, path: path))
        if let next = order.nextIndex, entry.index != next, entry.checkpointIsResync == true {
          if let first, entry.index >= first, entry.index < next {
            kept = entry.index - first
            while let last = effects.last, last > Int64(entry.index) { effects.removeLast() }
            cuts.append((offset, entry.index))
          } else {
            kept = 0
            effects.removeAll()
            cuts.append((offset, Int.min))
          }
          if kept == 0 { first = nil }
          order.expect(index: entry.index)
        }
        try order.check(entry, ordinal: ordinal, path: path)
        if kept == 0, entry.checkpointIsResync == nil { throw NotChecked() }
        order.accept(entry)
        // What the document makes of the entry, checked now so that visiting cannot fail.
        _ = try JournalFileEntry(value, fields: entry, position: kept)
        if kept == 0 { first = entry.index }
        kept += 1
        ordinal += 1
      case .effect(let value):
        guard effects.count < limits.maxEntries else { throw NotChecked() }
        let event = try EventFields(
          FieldReader(value, path: FieldPath([.key("effects"), .index(effects.count)])))
        effects.append(event.position)
      }
    }
    entryCount = kept
    effectCount = effects.count
  }

  /// Reads the checked lines again and visits the entries no later branch dropped.
  func visit(
    _ url: URL, limits: JournalImportLimits, _ visit: (JournalFile, Int) -> Bool
  ) throws(JournalImportError) {
    // The smallest index dropped by the cuts from each one on: an entry is kept when every cut
    // after its line drops indices above it.
    var dropsFrom = [Int](repeating: .max, count: cuts.count + 1)
    for position in cuts.indices.reversed() {
      dropsFrom[position] = min(cuts[position].index, dropsFrom[position + 1])
    }
    let file = try FileInput(url)
    var lines = LineReader(file: file, limit: limits.maxLineBytes)
    _ = try lines.next()
    var nextCut = 0
    var ordinal = 0
    var window: [(object: JSONValue, entry: JournalFileEntry)] = []
    var visitedFirst = false
    var scratch = JSONParser.Scratch()
    var lineNumber = 1
    while let line = try lines.next(), case .complete(let bytes, let offset) = line, offset < end {
      lineNumber += 1
      let record: NDJSONRecord? = try bytes.withUnsafeBufferPointer { line throws(JournalImportError) in
        guard try NDJSONRecord.hasContent(line, lineNumber: lineNumber, limits: limits) else { return nil }
        return try NDJSONRecord.read(
          line, lineNumber: lineNumber, byteOffset: offset, entries: ordinal, effects: 0, limits: limits,
          scratch: &scratch)
      }
      guard case .entry(let value) = record else { continue }
      while nextCut < cuts.count, cuts[nextCut].offset <= offset { nextCut += 1 }
      let fields = try EntryFields(
        FieldReader(value, path: FieldPath([.key("entries"), .index(ordinal)])))
      ordinal += 1
      guard fields.index < dropsFrom[nextCut] else { continue }
      window.append((value, try JournalFileEntry(value, fields: fields, position: ordinal - 1)))
      // Each entry is visited once the one after it is known (its state after may be that
      // one's checkpoint), between the one before and the one after.
      if window.count == 3 {
        if !visit(JournalFile(meta: meta, window: window), 1) { return }
        window.removeFirst()
      } else if window.count == 2, !visitedFirst {
        visitedFirst = true
        if !visit(JournalFile(meta: meta, window: window), 0) { return }
      }
    }
    if let last = window.indices.last {
      _ = visit(JournalFile(meta: meta, window: window), last)
    }
  }
}

/// The lines of a file, read in chunks: memory holds a chunk and the longest line, not the file.
private struct LineReader: ~Copyable {
  enum Line {
    /// A line and the byte offset of its start; without its newline.
    case complete([UInt8], offset: Int)
    /// The last line, without a newline: its offset and length, and the bytes of a mapped
    /// sink's unwritten tail after it.
    case torn(offset: Int, count: Int, unwritten: Int)
  }

  private let file: FileInput
  private let limit: Int
  private var buffer: [UInt8] = []
  /// Where the next line starts in ``buffer``, and ``buffer``'s offset in the file.
  private var start = 0
  private var bufferOffset = 0
  private var ended = false
  /// The bytes of the unwritten tail (see ``UnwrittenTail``), once found: cut from ``buffer``.
  private var unwritten = 0
  /// The complete lines returned.
  private var lineCount = 0
  private static var chunk: Int { 1 << 20 }

  init(file: consuming FileInput, limit: Int) {
    self.file = file
    self.limit = limit
  }

  /// The next line; `nil` after the last.
  mutating func next() throws(JournalImportError) -> Line? {
    var searched = start
    while true {
      if let end = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
        let line = Array(buffer[start..<end])
        let offset = bufferOffset + start
        start = end + 1
        lineCount += 1
        return .complete(line, offset: offset)
      }
      if ended {
        guard start < buffer.count || unwritten > 0 else { return nil }
        let torn = Line.torn(offset: bufferOffset + start, count: buffer.count - start, unwritten: unwritten)
        start = buffer.count
        unwritten = 0
        return torn
      }
      if let tail = buffer.withUnsafeBufferPointer({
        UnwrittenTail.start(in: UnsafeBufferPointer(rebasing: $0[searched...]))
      }) {
        try skipTail(from: searched + tail)
        continue
      }
      // A line longer than the loader accepts: let the loader say so.
      if buffer.count - start > limit { throw .tooLarge(entry: nil, field: "line", limit: limit) }
      searched = buffer.count
      if start > 0 {
        buffer.removeFirst(start)
        bufferOffset += start
        searched -= start
        start = 0
      }
      let more = try file.read(upTo: Self.chunk)
      if more.isEmpty { ended = true } else { buffer += more }
    }
  }

  /// Reads the rest of the file as the unwritten tail, which starts at `tail` in ``buffer``;
  /// throws if a line ends in it.
  private mutating func skipTail(from tail: Int) throws(JournalImportError) {
    unwritten = buffer.count - tail
    buffer.removeSubrange(tail...)
    ended = true
    while true {
      let more = try file.read(upTo: Self.chunk)
      if more.isEmpty { return }
      if more.withUnsafeBufferPointer(UnwrittenTail.hasNewline) {
        throw UnwrittenTail.lineAfterTail(lineNumber: lineCount + 1, byteOffset: bufferOffset + tail)
      }
      unwritten += more.count
    }
  }
}
