import ChronicleJSON
import ChronicleTracer

/// One change between two JSON states: the value at `path` became `value` (`nil`: removed), or,
/// with `inserts`, `value` was inserted into the array at the path's last index.
///
/// The viewer stores one list of patches per entry instead of every state, and rebuilds a state
/// on demand from the nearest full state by applying them in order: a 100,000-entry journal stays
/// small. Each patch's path names the state as the patches before it left it.
struct StatePatch: Equatable, Sendable {
  /// Object keys (strings) and array indices (integers), from the root.
  var path: [PathComponent]
  /// The new value, or `nil` when the member was removed.
  var value: JSONValue?
  /// Whether `value` is inserted before the element at the path's last index (or appended, at the
  /// array's end) rather than replacing it.
  var inserts = false

  /// A step into an object or an array: a key or an index, as in a ``FieldPath``.
  typealias PathComponent = FieldPath.Component

  /// The changes that turn `old` into `new`, applied in order.
  ///
  /// Objects are compared member by member. Arrays are compared structurally: elements that are
  /// objects with an `id` member (as `Identifiable` values encode) are matched by identity, other
  /// elements by value, after the common prefix and suffix along a longest common subsequence of
  /// what is left; matched elements are compared in turn, unmatched ones are removed or inserted.
  /// So inserting or removing one element anywhere is one patch, not a rewrite of every element
  /// after it. Anything else that differs is replaced whole.
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
      // By their bytes, as JSON tells keys apart (``JSONKey``).
      var oldByKey: [JSONKey: JSONValue] = [:]
      for member in oldMembers { oldByKey[JSONKey(member.key)] = member.value }
      var seen = Set<JSONKey>()
      for member in newMembers {
        seen.insert(JSONKey(member.key))
        if let previous = oldByKey[JSONKey(member.key)] {
          collect(previous, member.value, path: path + [.key(member.key)], into: &patches)
        } else {
          patches.append(StatePatch(path: path + [.key(member.key)], value: member.value))
        }
      }
      for member in oldMembers where !seen.contains(JSONKey(member.key)) {
        patches.append(StatePatch(path: path + [.key(member.key)], value: nil))
      }
    case (.array(let oldElements), .array(let newElements)):
      ArrayAlignment(old: oldElements, new: newElements).emit(
        path: path, into: &patches, compare: collect(_:_:path:into:))
    default:
      patches.append(StatePatch(path: path, value: new))
    }
  }

  /// `patches`, then one patch for each place in `changed` (redacted values an entry changed,
  /// whose JSON is `"<redacted>"` on both sides) that is still in `after` and that no patch
  /// already shows, setting it to itself: the change is listed without showing a value.
  static func adding(
    redactedChanges changed: [[PathComponent]], in after: JSONValue, to patches: [StatePatch]
  ) -> [StatePatch] {
    var result = patches
    var patched = Set(patches.map(\.path))
    for path in changed where !patched.contains(path) {
      // A patch of a part above it already shows the change.
      if patches.contains(where: {
        $0.path.count < path.count && Array(path.prefix($0.path.count)) == $0.path
      }) {
        continue
      }
      guard let value = StatePatch(path: path, value: nil).oldValue(in: after) else { continue }
      result.append(StatePatch(path: path, value: value))
      patched.insert(path)
    }
    return result
  }

  /// `state` with this patch applied; `nil` when the path does not lead into it.
  func applied(to state: JSONValue) -> JSONValue? {
    guard let first = path.first else { return value ?? .null }
    return Self.apply(self, from: 0, to: state, at: first)
  }

  private static func apply(
    _ patch: StatePatch, from depth: Int, to state: JSONValue, at component: PathComponent
  ) -> JSONValue? {
    let isLast = depth == patch.path.count - 1
    switch (component, state) {
    case (.key(let key), .object(var members)):
      let position = members.firstIndex { JSONKey.same($0.key, key) }
      if isLast {
        switch (position, patch.value) {
        case (let position?, let value?): members[position].value = value
        case (let position?, nil): members.remove(at: position)
        case (nil, let value?): members.append(JSONMember(key, value))
        case (nil, nil): return nil
        }
      } else {
        guard let position,
          let inner = apply(patch, from: depth + 1, to: members[position].value, at: patch.path[depth + 1])
        else { return nil }
        members[position].value = inner
      }
      return .object(members)
    case (.index(let index), .array(var elements)):
      guard index >= 0, index <= elements.count else { return nil }
      if isLast {
        switch patch.value {
        case let value? where patch.inserts: elements.insert(value, at: index)
        case let value? where index == elements.count: elements.append(value)
        case let value?: elements[index] = value
        case nil:
          guard index < elements.count else { return nil }
          elements.remove(at: index)
        }
      } else {
        guard index < elements.count,
          let inner = apply(patch, from: depth + 1, to: elements[index], at: patch.path[depth + 1])
        else { return nil }
        elements[index] = inner
      }
      return .array(elements)
    default:
      return nil
    }
  }

  /// Each patch as `path: old → new`, the old value read from the state the patches before it
  /// left (so a path after an insertion names what is there then).
  static func descriptions(of patches: [StatePatch], from state: JSONValue) -> [String] {
    var current: JSONValue? = state
    return patches.map { patch in
      let text = current.map { patch.description(before: $0) } ?? patch.description(before: .null)
      current = current.flatMap { patch.applied(to: $0) }
      return text
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

  /// `path: old → new`, with `(none)` for a missing side (the old side of an insertion).
  func description(before state: JSONValue) -> String {
    let old = inserts ? "(none)" : oldValue(in: state).map(JSONText.compact) ?? "(none)"
    let new = value.map(JSONText.compact) ?? "(none)"
    return "\(pathDescription): \(old) → \(new)"
  }

  /// The patch as the viewer's script reads it: `[path, value]`, `[path]` for a removal, and
  /// `[path, value, 1]` for an insertion.
  var json: JSONValue {
    .array([pathJSON] + (value.map { [$0] } ?? []) + (inserts ? [.integer(1)] : []))
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
