import ChronicleTracer
import Foundation

/// Reads the state after each entry that a Journal JSON export with
/// `ExportOptions(states: .everyEntry)` writes as `entries[n].state`; the Tracer's importer
/// keeps checkpoints only.
enum RecordedStates<State: Decodable> {
  /// The states by entry index; empty when the file holds none. Call it on a document the
  /// Tracer's importer accepted.
  static func read(journalJSON data: Data) throws(JournalImportError) -> [Int: State] {
    guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let entries = root["entries"] as? [[String: Any]]
    else { return [:] }
    var states: [Int: State] = [:]
    let decoder = JSONDecoder()
    for (ordinal, entry) in entries.enumerated() {
      guard let value = entry["state"], let index = (entry["index"] as? NSNumber)?.intValue else { continue }
      do {
        let encoded = try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
        states[index] = try decoder.decode(State.self, from: encoded)
      } catch {
        throw .wrongType(
          entry: ordinal, field: "entries[\(ordinal)].state", expected: "\(State.self)",
          found: "a value it cannot decode (\(error))")
      }
    }
    return states
  }
}
