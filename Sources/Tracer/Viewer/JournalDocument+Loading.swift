import Foundation

extension JournalDocument {
  /// Reads the Journal JSON or NDJSON file at `url`, telling the two apart by their `format`.
  ///
  /// Throws the same ``JournalImportError``s as the typed importers, naming the entry and the
  /// field; an NDJSON stream's torn last line is left out and reported in ``tornLine``.
  public init(contentsOf url: URL, limits: JournalImportLimits = .default) throws(JournalImportError) {
    try self.init(data: FileInput.read(url, limit: limits.maxBytes), limits: limits)
  }

  /// Reads a Journal JSON document or an NDJSON stream held in `data`.
  public init(data: Data, limits: JournalImportLimits = .default) throws(JournalImportError) {
    let bytes = [UInt8](data)
    let firstLineEnd = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
    if let header = try? JSONParser.parse(Array(bytes[..<firstLineEnd]), limits: limits.parser),
      header["format"]?.stringValue == JournalWireFormat.streamFormat
    {
      try self.init(ndjson: bytes, header: header, headerEnd: firstLineEnd, limits: limits)
      return
    }
    let root: JSONValue
    do throws(JSONParser.Failure) {
      root = try JSONParser.parse(bytes, limits: limits.parser)
    } catch {
      throw JournalImportError(error)
    }
    let reader = try FieldReader(root, path: FieldPath())
    let format = reader.optional("format")?.stringValue
    guard format == JournalWireFormat.journalFormat else {
      throw .wrongFormat(expected: JournalWireFormat.journalFormat, found: format)
    }
    try Journal<Int, Int>.checkVersion(reader)
    try self.init(
      meta: reader.required("meta"), baseState: reader.optional("baseState") ?? .null,
      entries: reader.array("entries"), effects: reader.optional("effects").flatMap(\.arrayValue) ?? [])
  }

  private init(
    ndjson bytes: [UInt8], header: JSONValue, headerEnd: Int, limits: JournalImportLimits
  )
    throws(JournalImportError)
  {
    try Journal<Int, Int>.checkVersion(FieldReader(header, path: FieldPath()))
    var entries: [JSONValue] = []
    var effects: [JSONValue] = []
    var torn: TornLine?
    var start = headerEnd + 1
    var lineNumber = 1
    while start < bytes.count {
      lineNumber += 1
      let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
      let line = Array(bytes[start..<(end ?? bytes.count)])
      defer { start = (end ?? bytes.count) + 1 }
      if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) { continue }
      let value: JSONValue
      do throws(JSONParser.Failure) {
        value = try JSONParser.parse(line, limits: limits.parser, path: FieldPath([], entry: entries.count))
      } catch {
        if end == nil {
          torn = TornLine(lineNumber: lineNumber, byteOffset: start, byteCount: line.count)
          break
        }
        throw JournalImportError(error, byteOffset: start)
      }
      if let entry = value["entry"] {
        // A resync checkpoint with an earlier index starts a branch: it replaces the entries
        // from that index on, as the typed loader does.
        if let index = entry["index"]?.numberText.flatMap({ Int($0) }),
          let first = entries.first?["index"]?.numberText.flatMap({ Int($0) }),
          index >= first, index - first < entries.count
        {
          entries.removeSubrange((index - first)...)
        }
        entries.append(entry)
      } else if let effect = value["effect"] {
        effects.append(effect)
      } else {
        throw .invalidValue(
          entry: entries.count, field: "line \(lineNumber)", reason: "neither an entry nor an effect line")
      }
    }
    let base = entries.first?["checkpoint"]?["state"] ?? .null
    try self.init(meta: header["meta"] ?? .object([]), baseState: base, entries: entries, effects: effects)
    tornLine = torn
  }
}
