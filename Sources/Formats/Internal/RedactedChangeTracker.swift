import ChronicleInspection
import ChronicleJSON
import ChronicleStore
import ChronicleTracer

/// Finds, from one state to the next, the redacted values that changed, so that an export can say
/// so without writing either value: both sides are `"<redacted>"` in the JSON, where a diff of
/// the text alone would see no change (the logger writes `password: <redacted> → <redacted>`).
///
/// Only the redacted parts of the two states are compared, by their place in the JSON, with
/// ``/ChronicleInspection/StateDiff`` (which compares a sensitive value without showing it).
@usableFromInline
final class RedactedChangeTracker {
  private var previous: [[StatePatch.PathComponent]: Any] = [:]

  /// Records the redacted parts of the state before the first entry.
  func start(with parts: [RedactedPart]) {
    previous = Self.byPath(parts)
  }

  /// The places of the redacted values that differ from those of the previous state, in the
  /// order of the JSON; then `parts` become the previous state's.
  func changes(to parts: [RedactedPart]) -> [[StatePatch.PathComponent]] {
    var changed: [[StatePatch.PathComponent]] = []
    for part in parts {
      guard let old = previous[part.path] else { continue }
      if !StateDiff.changes(from: old, to: part.value).isEmpty { changed.append(part.path) }
    }
    previous = Self.byPath(parts)
    return changed
  }

  private static func byPath(_ parts: [RedactedPart]) -> [[StatePatch.PathComponent]: Any] {
    var values: [[StatePatch.PathComponent]: Any] = [:]
    for part in parts { values[part.path] = part.value }
    return values
  }
}
