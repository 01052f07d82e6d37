/// Equality for any two values, `Equatable` or not, seeing through ``Redacted``.
///
/// The differ uses it where `==` is out of reach: to trim the common ends of arrays of
/// non-`Equatable` elements, and to tell whether a redacted value changed without descending into
/// it for the report. Values are equal when their own `==` says so, or, for types without one,
/// when they have the same type and equal parts; the same object is equal to itself, and a cycle
/// met again is taken as equal.
enum StructuralEquality {
  static func areEqual(_ a: Any, _ b: Any) -> Bool {
    var comparing: Set<ObjectPair> = []
    return areEqual(a, b, comparing: &comparing)
  }

  private static func areEqual(_ a: Any, _ b: Any, comparing: inout Set<ObjectPair>) -> Bool {
    let (a, facts) = revealed(a)
    let b = revealed(b).value
    if Reflection.areBitwiseIdentical(a, b) { return true }
    if let equal = facts.isEqual(a, b) { return equal }
    guard facts.type == type(of: b) else { return false }
    if let first = Reflection.objectIdentifier(of: a), let second = Reflection.objectIdentifier(of: b) {
      if first == second { return true }
      let pair = ObjectPair(first: first, second: second)
      guard comparing.insert(pair).inserted else { return true }
      defer { comparing.remove(pair) }
      return haveEqualParts(a, b, comparing: &comparing)
    }
    return haveEqualParts(a, b, comparing: &comparing)
  }

  private static func haveEqualParts(_ a: Any, _ b: Any, comparing: inout Set<ObjectPair>) -> Bool {
    let mirrorA = Mirror(reflecting: a)
    let mirrorB = Mirror(reflecting: b)
    if mirrorA.displayStyle == .enum,
      Reflection.enumCase(of: a, mirror: mirrorA).name != Reflection.enumCase(of: b, mirror: mirrorB).name
    {
      return false
    }
    if let dictionaryA = TypeFacts.of(a).inspectableDictionary(a),
      let dictionaryB = TypeFacts.of(b).inspectableDictionary(b)
    {
      let entries = dictionaryA.inspectedEntries
      guard entries.count == dictionaryB.inspectedEntries.count else { return false }
      return entries.allSatisfy { entry in
        dictionaryB.inspectedValue(forKey: entry.key).map { areEqual(entry.value, $0, comparing: &comparing) }
          ?? false
      }
    }
    let childrenA = Array(mirrorA.children)
    let childrenB = Array(mirrorB.children)
    guard childrenA.count == childrenB.count else { return false }
    guard !childrenA.isEmpty else { return String(describing: a) == String(describing: b) }
    for (childA, childB) in zip(childrenA, childrenB) {
      guard childA.label == childB.label, areEqual(childA.value, childB.value, comparing: &comparing) else {
        return false
      }
    }
    return true
  }

  /// The value a ``Redacted`` or an `AnyHashable` stands for, and its facts.
  private static func revealed(_ value: Any) -> (value: Any, facts: TypeFacts) {
    let facts = TypeFacts.of(value)
    if let redacted = facts.redacted(value) { return revealed(redacted.unredactedValue) }
    guard facts.isAnyHashable else { return (value, facts) }
    let base = Reflection.unboxed(value)
    return (base, TypeFacts.of(base))
  }
}

/// Two objects being compared, one from each side; meeting the pair again means a cycle.
struct ObjectPair: Hashable {
  var first: ObjectIdentifier
  var second: ObjectIdentifier
}
