import ChronicleFormats
import ChronicleTracer
import Foundation

/// The Journal JSON of an explored run, made reproducible: the tracer stamps entries with the
/// machine's clocks, so every time is replaced by the run's `TestClock` time and every measured
/// duration by 0, and members are written in sorted order. The same seed then gives the same
/// bytes on every run and every machine.
enum ExplorationJournal {
  /// The document's JSON; `times` maps a sequence number to its action's test clock time.
  static func json<State: Sendable, Action: Sendable>(
    _ snapshot: JournalSnapshot<State, Action>, times: [UInt64: Duration]
  ) -> Data {
    let exported = snapshot.journalJSON()
    guard var document = (try? JSONSerialization.jsonObject(with: exported)) as? [String: Any] else {
      return exported
    }
    if var meta = document["meta"] as? [String: Any] {
      meta["origin"] = ["wallTime": 0, "iso8601": "1970-01-01T00:00:00.000Z"]
      document["meta"] = meta
    }
    var positions: [Int64] = []
    if let entries = document["entries"] as? [[String: Any]] {
      document["entries"] = entries.map { entry in
        var entry = entry
        let sequence = (entry["seq"] as? NSNumber)?.uint64Value ?? 0
        let time = times[sequence].map(DurationText.nanoseconds) ?? positions.last ?? 0
        positions.append(time)
        entry["time"] = time
        entry["wallTime"] = time
        if let durations = entry["durations"] as? [String: Any] {
          entry["durations"] = durations.mapValues { _ in 0 }
        }
        return entry
      }
    }
    if let effects = document["effects"] as? [[String: Any]] {
      document["effects"] = effects.map { event in
        var event = event
        let position = (event["position"] as? NSNumber)?.intValue ?? 0
        event["time"] = position > 0 && position <= positions.count ? positions[position - 1] : 0
        return event
      }
    }
    return
      (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes]))
      ?? exported
  }
}
