/// One change between two JSON states: the value at `path` became `value` (`nil`: removed).
///
/// The viewer stores one list of patches per entry instead of every state, and rebuilds a state
/// on demand from the nearest full state by applying them: a 100,000-entry journal stays small.
struct StatePatch: Equatable, Sendable {
  /// Object keys (strings) and array indices (integers), from the root.
  var path: [PathComponent]
  /// The new value, or `nil` when the member was removed.
  var value: JSONValue?

  /// A step into an object or an array.
  enum PathComponent: Hashable, Sendable {
    case key(String)
    case index(Int)
  }

  /// The changes that turn `old` into `new`: objects are compared member by member, arrays
  /// element by element (with elements added or removed at the end); anything else that differs
  /// is replaced whole.
  static func between(_ old: JSONValue, _ new: JSONValue) -> [StatePatch] {
    var patches: [StatePatch] = []
    collect(old, new, path: [], into: &patches)
    return patches
  }

  private static func collect(
    _ old: JSONValue, _ new: JSONValue, path: [PathComponent], into patches: inout [StatePatch]
  ) {
    if old == new { return }
    switch (old, new) {
    case (.object(let oldMembers), .object(let newMembers)):
      var oldByKey: [String: JSONValue] = [:]
      for member in oldMembers { oldByKey[member.key] = member.value }
      var seen = Set<String>()
      for member in newMembers {
        seen.insert(member.key)
        if let previous = oldByKey[member.key] {
          collect(previous, member.value, path: path + [.key(member.key)], into: &patches)
        } else {
          patches.append(StatePatch(path: path + [.key(member.key)], value: member.value))
        }
      }
      for member in oldMembers where !seen.contains(member.key) {
        patches.append(StatePatch(path: path + [.key(member.key)], value: nil))
      }
    case (.array(let oldElements), .array(let newElements)):
      for (offset, pair) in zip(oldElements, newElements).enumerated() {
        collect(pair.0, pair.1, path: path + [.index(offset)], into: &patches)
      }
      // Elements added at the end, in order; elements removed from the end, last first, so that
      // applying the patches one by one never moves an element another patch names.
      for offset in oldElements.count..<max(oldElements.count, newElements.count) {
        patches.append(StatePatch(path: path + [.index(offset)], value: newElements[offset]))
      }
      for offset in (newElements.count..<max(newElements.count, oldElements.count)).reversed() {
        patches.append(StatePatch(path: path + [.index(offset)], value: nil))
      }
    default:
      patches.append(StatePatch(path: path, value: new))
    }
  }

  /// The path as people read it: `todos[2].done` (`state` for the root).
  var pathDescription: String {
    var text = ""
    for component in path {
      switch component {
      case .key(let key): text += text.isEmpty ? key : ".\(key)"
      case .index(let index): text += "[\(index)]"
      }
    }
    return text.isEmpty ? "state" : text
  }

  /// The value at this patch's path in `state`, if there is one.
  func oldValue(in state: JSONValue) -> JSONValue? {
    var current: JSONValue? = state
    for component in path {
      switch (component, current) {
      case (.key(let key), .some(.object)): current = current?[key]
      case (.index(let index), .some(.array(let elements))):
        current = elements.indices.contains(index) ? elements[index] : nil
      default: return nil
      }
    }
    return current
  }

  /// `path: old → new`, with `(none)` for a missing side.
  func description(before state: JSONValue) -> String {
    let old = oldValue(in: state).map(JSONText.compact) ?? "(none)"
    let new = value.map(JSONText.compact) ?? "(none)"
    return "\(pathDescription): \(old) → \(new)"
  }

  /// The patch as the viewer's script reads it: `[path, value]`, or `[path]` for a removal.
  var json: JSONValue {
    .array([pathJSON] + (value.map { [$0] } ?? []))
  }

  /// The path as JSON: keys as strings, indices as integers, `["todos", 2, "done"]`.
  var pathJSON: JSONValue {
    .array(
      path.map {
        switch $0 {
        case .key(let key): .string(key)
        case .index(let index): .integer(index)
        }
      })
  }

  /// The path that `pathJSON` wrote, `nil` for anything else.
  static func path(fromJSON json: JSONValue) -> [PathComponent]? {
    guard case .array(let elements) = json else { return nil }
    var path: [PathComponent] = []
    for element in elements {
      switch element {
      case .string(let key): path.append(.key(key))
      case .number(let text):
        guard let index = Int(text) else { return nil }
        path.append(.index(index))
      default: return nil
      }
    }
    return path
  }
}
