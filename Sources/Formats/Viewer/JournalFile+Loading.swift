import ChronicleJSON
import ChronicleTracer
import Foundation

extension JournalFile {
  /// Reads the Journal JSON, NDJSON or Redux DevTools file at `url`, telling them apart by their
  /// content: the `format` of the first two, the members of the third (either form).
  ///
  /// Checks what the typed importers check, with the same code (everything but the app's types):
  /// the header, the order of the entries and the ranges of their numbers. Throws the same
  /// ``JournalImportError``s, naming the entry and the field; an NDJSON stream's torn last line
  /// is left out and reported in ``tornLine``.
  public init(contentsOf url: URL, limits: JournalImportLimits = .default) throws(JournalImportError) {
    try self.init(data: FileInput.read(url, limit: limits.maxBytes), limits: limits)
  }

  /// Reads a Journal JSON document or an NDJSON stream held in `data` (see
  /// ``init(contentsOf:limits:)``).
  public init(data: Data, limits: JournalImportLimits = .default) throws(JournalImportError) {
    guard data.count <= limits.maxBytes else {
      throw .tooLarge(entry: nil, field: "(document)", limit: limits.maxBytes)
    }
    // Parsed in place: no copy of the input.
    let result: Result<JournalFile, JournalImportError> = data.withUnsafeBytes { raw in
      do throws(JournalImportError) {
        return .success(try Self.load(raw.bindMemory(to: UInt8.self), limits: limits))
      } catch {
        return .failure(error)
      }
    }
    self = try result.get()
  }

  private static func load(
    _ bytes: UnsafeBufferPointer<UInt8>, limits: JournalImportLimits
  ) throws(JournalImportError) -> JournalFile {
    // A mapped sink's file before its first line (a process killed then): NUL bytes only, the
    // unwritten tail of a stream (see `UnwrittenTail`) with nothing before it. Any other byte
    // after them is a malformed file, as before.
    if bytes.first == 0, !bytes.contains(where: { $0 != 0 }) {
      throw .truncated(entry: nil, field: "(header)", byteOffset: 0)
    }
    let firstLineEnd = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
    if try isStream(bytes, firstLineEnd: firstLineEnd, limits: limits) {
      return try loadStream(bytes, headerEnd: firstLineEnd, limits: limits)
    }
    let root: JSONValue
    do throws(JSONParser.Failure) {
      root = try JSONParser.parse(bytes, limits: limits.parser)
    } catch {
      throw JournalImportError(error)
    }
    let reader = try FieldReader(root, path: FieldPath())
    // Redux DevTools files have no `format`: they are told apart by their members, as
    // `Journal(reduxDevTools:reducer:)` tells its two forms apart.
    if reader.optional("format") == nil, reader.contains("payload") || reader.contains("actionsById") {
      return try reduxDevTools(reader, limits: limits)
    }
    let format = reader.optional("format")?.stringValue
    guard format == JournalWireFormat.journalFormat else {
      throw .wrongFormat(expected: JournalWireFormat.journalFormat, found: format)
    }
    try Journal<Int, Int>.checkVersion(reader)
    let meta = try reader.object("meta")
    _ = try MetaFields(meta)
    let firstIndex = try meta.integer("firstIndex", in: JournalNumberRange.indices)
    let baseState = try reader.required("baseState")
    let entries = try reader.array("entries")
    guard entries.count <= limits.maxEntries else {
      throw .tooLarge(entry: limits.maxEntries, field: "entries", limit: limits.maxEntries)
    }
    var order = EntryOrder()
    order.expect(index: firstIndex)
    var fields: [EntryFields] = []
    fields.reserveCapacity(entries.count)
    for (ordinal, entry) in entries.enumerated() {
      let path = FieldPath([.key("entries"), .index(ordinal)])
      let entryFields = try EntryFields(FieldReader(entry, path: path))
      try order.check(entryFields, ordinal: ordinal, path: path)
      if ordinal == 0, baseState == .null, entryFields.checkpointIsResync == nil {
        throw .missingField(entry: nil, field: "baseState")
      }
      order.accept(entryFields)
      fields.append(entryFields)
    }
    let effects = try reader.array("effects")
    guard effects.count <= limits.maxEntries else {
      throw .tooLarge(entry: nil, field: "effects", limit: limits.maxEntries)
    }
    for (offset, effect) in effects.enumerated() {
      _ = try EventFields(FieldReader(effect, path: FieldPath([.key("effects"), .index(offset)])))
    }
    let declared = try meta.integer("entryCount", in: JournalNumberRange.indices)
    guard declared == entries.count else {
      throw .invalidValue(
        entry: nil, field: "meta.entryCount",
        reason: "says \(declared) entries, the file has \(entries.count)")
    }
    return try JournalFile(
      meta: reader.required("meta"), baseState: baseState, entries: entries, fields: fields, effects: effects)
  }

  /// Whether the input is an NDJSON stream: its `format`, read without parsing the rest of the
  /// input (both formats write it first), or else from its first line.
  private static func isStream(
    _ bytes: UnsafeBufferPointer<UInt8>, firstLineEnd: Int, limits: JournalImportLimits
  ) throws(JournalImportError) -> Bool {
    var parser = JSONParser(bytes: bytes, limits: limits.parser)
    if parser.peek(UInt8(ascii: "{")),
      (try? parser.beginObject()) != nil,
      (try? parser.nextMember(first: true)) == "format",
      case .string(let format)? = try? parser.parseValue()
    {
      return format == JournalWireFormat.streamFormat
    }
    guard firstLineEnd < bytes.count else { return false }
    let header = try? JSONParser.parse(
      UnsafeBufferPointer(rebasing: bytes[..<firstLineEnd]), limits: limits.parser)
    return header?["format"]?.stringValue == JournalWireFormat.streamFormat
  }

  /// Reads a stream as `Journal.loadNDJSON` does: a branch (a resync checkpoint with an earlier
  /// index) replaces the entries from that index on, a jump to another index drops what came
  /// before, and a last line without its newline is left out as torn.
  private static func loadStream(
    _ bytes: UnsafeBufferPointer<UInt8>, headerEnd: Int, limits: JournalImportLimits
  ) throws(JournalImportError) -> JournalFile {
    let header: JSONValue
    do throws(JSONParser.Failure) {
      header = try JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[..<headerEnd]), limits: limits.parser)
    } catch {
      throw JournalImportError(error)
    }
    let root = try FieldReader(header, path: FieldPath())
    try Journal<Int, Int>.checkVersion(root)
    let meta = try root.object("meta")
    _ = try MetaFields(meta)
    var entries: [JSONValue] = []
    var fields: [EntryFields] = []
    var effects: [(value: JSONValue, position: Int64)] = []
    var order = EntryOrder()
    var entryCount = 0
    var torn: TornLine?
    var start = headerEnd + 1
    var lineNumber = 1
    // A mapped sink's unwritten tail: from the first NUL after the last newline.
    let lastLine = (bytes.lastIndex(of: UInt8(ascii: "\n")) ?? headerEnd) + 1
    let written = UnwrittenTail.start(in: UnsafeBufferPointer(rebasing: bytes[lastLine...])).map {
      lastLine + $0
    }
    let streamEnd = written ?? bytes.count
    while start < streamEnd || (written != nil && torn == nil) {
      lineNumber += 1
      guard start < streamEnd, let end = bytes[start..<streamEnd].firstIndex(of: UInt8(ascii: "\n")) else {
        torn = TornLine(
          lineNumber: lineNumber, byteOffset: start, byteCount: streamEnd - start,
          unwrittenByteCount: bytes.count - streamEnd)
        break
      }
      defer { start = end + 1 }
      let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
      guard try NDJSONRecord.hasContent(line, lineNumber: lineNumber, limits: limits) else { continue }
      let record = try NDJSONRecord.read(
        line, lineNumber: lineNumber, byteOffset: start, entries: entryCount, effects: effects.count,
        limits: limits)
      switch record {
      case .entry(let value):
        guard entryCount < limits.maxEntries else {
          throw .tooLarge(entry: entryCount, field: "entries", limit: limits.maxEntries)
        }
        let path = FieldPath([.key("entries"), .index(entryCount)])
        let entry = try EntryFields(FieldReader(value, path: path))
        if let next = order.nextIndex, entry.index != next, entry.checkpointIsResync == true {
          if let first = fields.first?.index, entry.index >= first, entry.index < next {
            entries.removeSubrange((entry.index - first)...)
            fields.removeSubrange((entry.index - first)...)
            while let last = effects.last, last.position > Int64(entry.index) { effects.removeLast() }
          } else {
            entries.removeAll()
            fields.removeAll()
            effects.removeAll()
          }
          order.expect(index: entry.index)
        }
        try order.check(entry, ordinal: entryCount, path: path)
        if fields.isEmpty, entry.checkpointIsResync == nil {
          throw .missingField(entry: entryCount, field: path.appending("checkpoint").description)
        }
        order.accept(entry)
        entries.append(value)
        fields.append(entry)
        entryCount += 1
      case .effect(let value):
        guard effects.count < limits.maxEntries else {
          throw .tooLarge(entry: nil, field: "effects", limit: limits.maxEntries)
        }
        let event = try EventFields(
          FieldReader(value, path: FieldPath([.key("effects"), .index(effects.count)])))
        effects.append((value, event.position))
      }
    }
    let base = entries.first?["checkpoint"]?["state"] ?? .null
    var document = try JournalFile(
      meta: root.required("meta"), baseState: base, entries: entries, fields: fields,
      effects: effects.map(\.value))
    document.tornLine = torn
    return document
  }

}
