import Foundation

/// Direct access to the elements of a `Swift.Array` held as `Any`, so that diffing a large array
/// boxes only the elements that differ instead of reflecting on all of them.
protocol InspectableArray: SendableMetatype {
  var inspectedCount: Int { get }
  func inspectedElement(at index: Int) -> Any
  /// How many leading and trailing elements this array and `other` have in common (never
  /// overlapping), or `nil` when `other` isn't an array of the same type or the elements aren't
  /// `Equatable`.
  func commonAffixLengths(with other: Any) -> (prefix: Int, suffix: Int)?
}

extension Array: InspectableArray {
  var inspectedCount: Int { count }

  func inspectedElement(at index: Int) -> Any { self[index] }

  func commonAffixLengths(with other: Any) -> (prefix: Int, suffix: Int)? {
    (self as? any EquatableElementArray)?.equatableAffixLengths(with: other)
  }
}

/// An array whose elements can be compared with their own `==`, in a loop the compiler
/// specializes for the element type.
private protocol EquatableElementArray {
  func equatableAffixLengths(with other: Any) -> (prefix: Int, suffix: Int)?
}

extension Array: EquatableElementArray where Element: Equatable {
  fileprivate func equatableAffixLengths(with other: Any) -> (prefix: Int, suffix: Int)? {
    guard let other = other as? [Element] else { return nil }
    return withUnsafeBufferPointer { old in
      other.withUnsafeBufferPointer { new in
        let limit = Swift.min(old.count, new.count)
        var prefix = 0
        while prefix < limit, Self.areEqual(old, prefix, new, prefix) { prefix += 1 }
        var suffix = 0
        while suffix < limit - prefix, Self.areEqual(old, old.count - 1 - suffix, new, new.count - 1 - suffix)
        {
          suffix += 1
        }
        return (prefix, suffix)
      }
    }
  }

  /// `old[i] == new[j]`, decided without calling `==` when both elements have the same bytes.
  ///
  /// This code runs unspecialized, where each `==` costs a call through the witness table; the
  /// unchanged elements of a copied array are bitwise copies of each other, and a value equals a
  /// copy of itself, so most elements are settled by comparing memory.
  private static func areEqual(
    _ old: UnsafeBufferPointer<Element>, _ i: Int, _ new: UnsafeBufferPointer<Element>, _ j: Int
  ) -> Bool {
    let size = MemoryLayout<Element>.size
    // Both buffers hold the element at `i` or `j`, so both have an address; the fallback is `==`.
    guard let oldStart = old.baseAddress, let newStart = new.baseAddress else { return old[i] == new[j] }
    if memcmp(oldStart + i, newStart + j, size) == 0 { return true }
    return old[i] == new[j]
  }
}
