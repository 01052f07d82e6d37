/// An object's key compared, and hashed, by its UTF-8 bytes, as JSON compares keys.
///
/// `String`'s own `==` compares by canonical equivalence: it holds `"é"` (U+00E9) and
/// `"e\u{301}"` (e and a combining acute accent) for one key, where JSON sees two. The parsers'
/// duplicate-key checks and the state diff compare keys with this.
package struct JSONKey: Hashable, Sendable {
  package let string: String

  package init(_ string: String) {
    self.string = string
  }

  package static func == (left: JSONKey, right: JSONKey) -> Bool {
    left.string.utf8.count == right.string.utf8.count && left.string.utf8.elementsEqual(right.string.utf8)
  }

  package func hash(into hasher: inout Hasher) {
    // A bridged string without contiguous bytes is copied into one that has them, so that equal
    // keys always hash the same bytes in the same way.
    let hashed: Void? = string.utf8.withContiguousStorageIfAvailable { bytes in
      hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
    }
    if hashed == nil {
      var copy = string
      copy.makeContiguousUTF8()
      copy.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
  }

  /// Whether `left` and `right` are one key to JSON: the same bytes.
  package static func same(_ left: String, _ right: String) -> Bool {
    JSONKey(left) == JSONKey(right)
  }
}
