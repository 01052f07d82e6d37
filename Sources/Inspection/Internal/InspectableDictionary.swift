/// Direct access to a `Swift.Dictionary` held as `Any`: its entries, lookups by key, and the keys
/// whose entries differ from another dictionary's, found without reflecting on every entry.
protocol InspectableDictionary: SendableMetatype {
  var inspectedEntries: [(key: Any, value: Any)] { get }
  func inspectedValue(forKey key: Any) -> Any?
  /// The keys only this dictionary has, the keys only `other` has, and the keys both have whose
  /// values may differ; `nil` when `other` isn't a dictionary of the same type.
  func keyChanges(comparedTo other: Any) -> DictionaryKeyChanges?
}

/// The keys of two dictionaries, by how their entries compare.
struct DictionaryKeyChanges {
  var removed: [Any] = []
  var added: [Any] = []
  /// Keys of both: when the values are `Equatable`, only those whose values differ.
  var common: [Any] = []
}

extension Dictionary: InspectableDictionary {
  var inspectedEntries: [(key: Any, value: Any)] {
    map { (key: $0.key, value: $0.value) }
  }

  func inspectedValue(forKey key: Any) -> Any? {
    guard let key = key as? Key else { return nil }
    return self[key]
  }

  func keyChanges(comparedTo other: Any) -> DictionaryKeyChanges? {
    if let comparing = self as? any EquatableValueDictionary {
      return comparing.equatableKeyChanges(comparedTo: other)
    }
    guard let other = other as? [Key: Value] else { return nil }
    var changes = DictionaryKeyChanges()
    for key in keys {
      if other[key] == nil { changes.removed.append(key) } else { changes.common.append(key) }
    }
    // Every key of this dictionary but the removed ones is in `other`; it has more only if larger.
    if other.count > count - changes.removed.count {
      for key in other.keys where self[key] == nil { changes.added.append(key) }
    }
    return changes
  }
}

/// A dictionary whose values can be compared with their own `==`, so that unchanged entries are
/// skipped in a loop the compiler specializes for the value type.
private protocol EquatableValueDictionary {
  func equatableKeyChanges(comparedTo other: Any) -> DictionaryKeyChanges?
}

extension Dictionary: EquatableValueDictionary where Value: Equatable {
  fileprivate func equatableKeyChanges(comparedTo other: Any) -> DictionaryKeyChanges? {
    guard let other = other as? [Key: Value] else { return nil }
    return changedValuesInPlace(comparedTo: other) ?? keyChangesByLookup(comparedTo: other)
  }

  // Both loops run unspecialized, where every call goes through a witness table and every
  // `(key, value)` tuple costs a metadata lookup; hence indices instead of tuples, and bytes
  // compared before `==` is called.

  /// The keys whose values differ, when `other` holds the same keys at the same positions, as a
  /// copy of this dictionary whose values were assigned does; `nil` as soon as a key differs.
  private func changedValuesInPlace(comparedTo other: [Key: Value]) -> DictionaryKeyChanges? {
    guard count == other.count else { return nil }
    var changes = DictionaryKeyChanges()
    let (keys, values, otherKeys, otherValues) = (keys, values, other.keys, other.values)
    var theirs = other.startIndex
    for mine in indices {
      let key = keys[mine]
      let otherKey = otherKeys[theirs]
      guard Reflection.areBitwiseIdentical(key, otherKey) || key == otherKey else { return nil }
      let value = values[mine]
      let otherValue = otherValues[theirs]
      if !Reflection.areBitwiseIdentical(value, otherValue), value != otherValue {
        changes.common.append(key)
      }
      other.formIndex(after: &theirs)
    }
    return changes
  }

  private func keyChangesByLookup(comparedTo other: [Key: Value]) -> DictionaryKeyChanges {
    var changes = DictionaryKeyChanges()
    for index in indices {
      let key = keys[index]
      if let otherIndex = other.index(forKey: key) {
        let value = values[index]
        let otherValue = other.values[otherIndex]
        if !Reflection.areBitwiseIdentical(value, otherValue), value != otherValue {
          changes.common.append(key)
        }
      } else {
        changes.removed.append(key)
      }
    }
    // Every key of this dictionary but the removed ones is in `other`; it has more only if larger.
    if other.count > count - changes.removed.count {
      for key in other.keys where index(forKey: key) == nil { changes.added.append(key) }
    }
    return changes
  }
}
