import ChronicleJSON
import ChronicleTracer

/// One line of an NDJSON journal stream after its header: an entry or an effect event, still
/// as JSON (see docs/formats/journal-ndjson.md).
///
/// The one reader of a line's structure, shared by `Journal.loadNDJSON` and `JournalFile` so
/// that both throw the same errors with the same paths.
enum NDJSONRecord {
  case entry(JSONValue)
  case effect(JSONValue)

  /// Whether `line` holds a record: `false` for a blank line, which the stream may contain.
  /// Throws when the line is longer than the limit.
  static func hasContent(
    _ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, limits: JournalImportLimits
  ) throws(JournalImportError) -> Bool {
    guard line.count <= limits.maxLineBytes else {
      throw .tooLarge(entry: nil, field: "line \(lineNumber)", limit: limits.maxLineBytes)
    }
    return !line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
  }

  /// Reads the non-blank `line`, numbered `lineNumber` and starting at `byteOffset` in the stream.
  /// `entries` and `effects` count the records before it, so that a parse failure names the entry
  /// or effect the line holds rather than the line.
  static func read(
    _ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, byteOffset: Int, entries: Int, effects: Int,
    limits: JournalImportLimits
  ) throws(JournalImportError) -> NDJSONRecord {
    var scratch = JSONParser.Scratch()
    return try read(
      line, lineNumber: lineNumber, byteOffset: byteOffset, entries: entries, effects: effects,
      limits: limits,
      scratch: &scratch)
  }

  /// Reads a line (see ``read(_:lineNumber:byteOffset:entries:effects:limits:)``) with the
  /// parser's scratch space of the lines before.
  static func read(
    _ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, byteOffset: Int, entries: Int, effects: Int,
    limits: JournalImportLimits, scratch: inout JSONParser.Scratch
  ) throws(JournalImportError) -> NDJSONRecord {
    let value: JSONValue
    do throws(JSONParser.Failure) {
      value = try JSONParser.parse(line, limits: limits.parser, scratch: &scratch)
    } catch {
      var failure = error
      failure.path = placed(failure.path, entries: entries, effects: effects, line: lineNumber)
      throw JournalImportError(failure, byteOffset: byteOffset)
    }
    guard case .object(let members) = value, members.count == 1 else {
      throw .invalidValue(
        entry: nil, field: "line \(lineNumber)",
        reason: "expected an object with one member, \"entry\" or \"effect\"")
    }
    switch members[0].key {
    case "entry": return .entry(members[0].value)
    case "effect": return .effect(members[0].value)
    default:
      throw .invalidValue(
        entry: nil, field: "line \(lineNumber)", reason: "unknown record \(members[0].key.debugDescription)")
    }
  }

  /// Rewrites a parser path `entry.action…` of a line to `entries[n].action…`.
  private static func placed(_ path: FieldPath, entries: Int, effects: Int, line: Int) -> FieldPath {
    guard let first = path.components.first else { return FieldPath([.key("line \(line)")]) }
    var components = Array(path.components.dropFirst())
    switch first {
    case .key("entry"): components.insert(contentsOf: [.key("entries"), .index(entries)], at: 0)
    case .key("effect"): components.insert(contentsOf: [.key("effects"), .index(effects)], at: 0)
    default: components = [.key("line \(line)")] + path.components
    }
    return FieldPath(components)
  }
}
