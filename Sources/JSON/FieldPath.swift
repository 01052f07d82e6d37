/// Where a value sits in an imported document, for error messages: `entries[3].cause.kind`.
@usableFromInline
package struct FieldPath: Hashable, Sendable, CustomStringConvertible {
  @usableFromInline
  package enum Component: Hashable, Sendable {
    case key(String)
    case index(Int)
  }

  package var components: [Component] = []
  /// The entry the path is in, when the document does not call its entry list `entries`.
  package var entry: Int?

  @usableFromInline
  package init(_ components: [Component] = [], entry: Int? = nil) {
    self.components = components
    self.entry = entry
  }

  @usableFromInline
  package func appending(_ key: String) -> FieldPath {
    var path = self
    path.components.append(.key(key))
    return path
  }

  package func appending(index: Int) -> FieldPath {
    var path = self
    path.components.append(.index(index))
    return path
  }

  /// The position of the entry the path points into, when it starts with `entries[n]`.
  package var entryIndex: Int? {
    if let entry { return entry }
    guard components.count >= 2, components[0] == .key("entries"), case .index(let index) = components[1]
    else { return nil }
    return index
  }

  /// `entries[3].cause.kind`; keys that are not identifiers are quoted: `actionsById["1"]`.
  @usableFromInline
  package var description: String {
    var text = ""
    for component in components {
      switch component {
      case .key(let key):
        if !key.isEmpty,
          key.utf8.allSatisfy({
            $0 == UInt8(ascii: "_") || ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || $0 >= 0x30 && $0 <= 0x39
          })
        {
          if !text.isEmpty { text += "." }
          text += key
        } else {
          text += "[\(key.debugDescription)]"
        }
      case .index(let index):
        text += "[\(index)]"
      }
    }
    return text.isEmpty ? "(document)" : text
  }
}
