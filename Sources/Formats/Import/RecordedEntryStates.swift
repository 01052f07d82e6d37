import ChronicleJSON
import ChronicleTracer
import Foundation

/// Reads the state after each entry that a Journal JSON export with
/// `ExportOptions(states: .everyEntry)` writes as `entries[n].state`: the typed importer keeps
/// checkpoints only, and replay verification compares against every recorded state.
///
/// The document is read as the importer reads it, one entry at a time, with the same parser,
/// limits and decoder, so a state that does not decode is the importer's error for its field.
package enum RecordedEntryStates {
  /// The states by entry index; empty when the document holds none.
  package static func read<State: Decodable>(
    journalJSON data: Data, as type: State.Type = State.self, limits: JournalImportLimits = .default
  ) throws(JournalImportError) -> [Int: State] {
    let result: Result<[Int: State], JournalImportError> = data.withUnsafeBytes { raw in
      do throws(JournalImportError) {
        return .success(try read(raw.bindMemory(to: UInt8.self), limits: limits))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  private static func read<State: Decodable>(
    _ bytes: UnsafeBufferPointer<UInt8>, limits: JournalImportLimits
  ) throws(JournalImportError) -> [Int: State] {
    var parser = JSONParser(bytes: bytes, limits: limits.parser)
    func step<T>(_ body: (inout JSONParser) throws(JSONParser.Failure) -> T) throws(JournalImportError) -> T {
      do throws(JSONParser.Failure) {
        return try body(&parser)
      } catch {
        throw JournalImportError(error)
      }
    }
    var states: [Int: State] = [:]
    let decoder = TypedDecoder()
    try step { parser throws(JSONParser.Failure) in try parser.beginObject() }
    var first = true
    while let key = try step({ parser throws(JSONParser.Failure) in try parser.nextMember(first: first) }) {
      first = false
      if key == "entries", try step({ parser throws(JSONParser.Failure) in parser.peek(UInt8(ascii: "[")) }) {
        try step { parser throws(JSONParser.Failure) in try parser.beginArray() }
        var ordinal = 0
        while try step({ parser throws(JSONParser.Failure) in try parser.nextElement(index: ordinal) }) {
          let path = FieldPath([.key("entries"), .index(ordinal)])
          let value = try step { parser throws(JSONParser.Failure) in try parser.parseValue() }
          parser.endMember()
          let entry = try FieldReader(value, path: path)
          if let state = entry.optional("state") {
            let index = try entry.integer("index", in: JournalNumberRange.indices)
            states[index] = try decoder.decode(State.self, from: state, path: path.appending("state"))
          }
          ordinal += 1
        }
      } else {
        _ = try step { parser throws(JSONParser.Failure) in try parser.parseValue() }
      }
      parser.endMember()
    }
    try step { parser throws(JSONParser.Failure) in try parser.finish() }
    return states
  }
}
