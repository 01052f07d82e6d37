/// Walks two values side by side and collects the ``StateDiff/Change``s between them, with the
/// rules that ``StateDiff`` documents.
struct StateDiffer {
  let redaction: Redaction
  private(set) var changes: [StateDiff.Change] = []
  /// The pairs of objects being compared above the current values: meeting one again is a cycle.
  private var comparing: Set<ObjectPair> = []
  /// Where the current values sit: a stack that each part pushes its component onto while it is
  /// compared, so that visiting a part costs no new path.
  private var path = ValuePath.root

  init(redaction: Redaction) {
    self.redaction = redaction
  }

  /// Compares two values at the current path.
  mutating func compare(_ old: Any, _ new: Any) {
    var oldFacts = TypeFacts.of(old)
    var newFacts = type(of: new) == oldFacts.type ? oldFacts : TypeFacts.of(new)
    if redaction.redacts(old, facts: oldFacts, at: path) || redaction.redacts(new, facts: newFacts, at: path)
    {
      // Compared, never descended into: the report shows that it changed, not how.
      if !StructuralEquality.areEqual(old, new) { record(.changed, old: old, new: new) }
      return
    }
    var old = old
    var new = new
    if oldFacts.isAnyHashable {
      old = Reflection.unboxed(old)
      oldFacts = TypeFacts.of(old)
    }
    if newFacts.isAnyHashable {
      new = Reflection.unboxed(new)
      newFacts = type(of: new) == oldFacts.type ? oldFacts : TypeFacts.of(new)
    }
    guard oldFacts.type == newFacts.type else {
      record(.changed, old: old, new: new)
      return
    }
    if Reflection.areBitwiseIdentical(old, new) { return }
    compare(old, new, ofOneType: oldFacts)
  }

  /// Compares two values of the type `facts` describes that are not bitwise identical.
  private mutating func compare(_ old: Any, _ new: Any, ofOneType facts: TypeFacts) {
    if compareStandardCollections(old, new, facts: facts) { return }
    let isEqual = facts.isEqual(old, new)
    if isEqual == true { return }
    guard !facts.isLeaf else {
      record(.changed, old: old, new: new, facts: facts)
      return
    }
    if let oldFields = facts.storedParts(of: old), let newFields = facts.storedParts(of: new) {
      compareParts(oldFields, newFields, old, new)
      return
    }
    compareReflected(old, new, isEqual: isEqual)
  }

  /// Compares two standard arrays, dictionaries or sets; returns `false`, comparing nothing, when
  /// the values are none of them.
  ///
  /// The standard collections find their differences directly, which also tells whether they
  /// changed: comparing them with `==` first would walk them twice.
  private mutating func compareStandardCollections(_ old: Any, _ new: Any, facts: TypeFacts) -> Bool {
    if let oldArray = facts.inspectableArray(old), let newArray = facts.inspectableArray(new) {
      let affixes = oldArray.commonAffixLengths(with: new)
      compareLists(ListAccess(oldArray), ListAccess(newArray), commonAffixLengths: affixes)
      return true
    }
    if let oldDictionary = facts.inspectableDictionary(old),
      let newDictionary = facts.inspectableDictionary(new),
      let keyChanges = oldDictionary.keyChanges(comparedTo: new)
    {
      compareDictionaries(oldDictionary, newDictionary, keyChanges: keyChanges)
      return true
    }
    if let oldSet = facts.inspectableSet(old), let (removed, added) = oldSet.elementChanges(comparedTo: new) {
      compareSets(removed: removed, added: added)
      return true
    }
    return false
  }

  /// Compares two values that reflection alone can take apart, by their mirrors' display style.
  ///
  /// - Parameter isEqual: What the type's `==` said, `nil` when it has none.
  private mutating func compareReflected(_ old: Any, _ new: Any, isEqual: Bool?) {
    let oldMirror = Mirror(reflecting: old)
    let newMirror = Mirror(reflecting: new)
    switch oldMirror.displayStyle {
    case .optional:
      switch (oldMirror.children.first?.value, newMirror.children.first?.value) {
      case (nil, nil): return
      case (let oldValue?, let newValue?): compare(oldValue, newValue)
      default: record(.changed, old: old, new: new)
      }
    case .enum:
      compareEnumCases(old, oldMirror, new, newMirror)
    case .class:
      compareObjects(old, oldMirror, new, newMirror)
    case .struct:
      compareParts(Reflection.fields(of: oldMirror), Reflection.fields(of: newMirror), old, new)
    case .tuple:
      compareParts(Reflection.elements(ofTuple: oldMirror), Reflection.elements(ofTuple: newMirror), old, new)
    case .collection:
      compareLists(ListAccess(oldMirror), ListAccess(newMirror), commonAffixLengths: nil)
    case .dictionary:
      // An ordered type that reflects as a dictionary: compared entry by entry, in order.
      compareParts(orderedEntries(of: oldMirror), orderedEntries(of: newMirror), old, new)
    default:
      if oldMirror.children.isEmpty, newMirror.children.isEmpty {
        if isEqual == false || !StructuralEquality.areEqual(old, new) {
          record(.changed, old: old, new: new)
        }
      } else {
        compareParts(Reflection.fields(of: oldMirror), Reflection.fields(of: newMirror), old, new)
      }
    }
  }

  /// The entries of a value that reflects as a dictionary, labelled with their keys' text.
  private func orderedEntries(of mirror: Mirror) -> [Reflection.Part] {
    Reflection.entries(ofDictionary: mirror).map {
      Reflection.Part(label: keyText(of: $0.key), value: $0.value)
    }
  }

  private mutating func compare(_ old: Any, _ new: Any, at component: ValuePath.Component) {
    path.components.append(component)
    defer { path.components.removeLast() }
    compare(old, new)
  }

  /// Parts compared pairwise; parts that don't line up (custom mirrors) make it one change.
  private mutating func compareParts(
    _ oldParts: [Reflection.Part], _ newParts: [Reflection.Part], _ old: Any, _ new: Any
  ) {
    guard oldParts.count == newParts.count, zip(oldParts, newParts).allSatisfy({ $0.label == $1.label })
    else {
      record(.changed, old: old, new: new)
      return
    }
    for (offset, (oldPart, newPart)) in zip(oldParts, newParts).enumerated() {
      compare(oldPart.value, newPart.value, at: .property(oldPart.label ?? String(offset)))
    }
  }

  private mutating func compareEnumCases(
    _ old: Any, _ oldMirror: Mirror, _ new: Any, _ newMirror: Mirror
  ) {
    let oldCase = Reflection.enumCase(of: old, mirror: oldMirror)
    let newCase = Reflection.enumCase(of: new, mirror: newMirror)
    guard oldCase.name == newCase.name, oldCase.payload.count == newCase.payload.count else {
      record(.changed, old: old, new: new)
      return
    }
    path.components.append(.case(oldCase.name))
    defer { path.components.removeLast() }
    if let oldValue = oldCase.singleValue, let newValue = newCase.singleValue {
      compare(oldValue, newValue)
    } else if redaction.redactsKey(at: path) {
      // A key rule naming the case hides its whole payload: compared, never descended into.
      if !StructuralEquality.areEqual(old, new) { record(.changed, old: old, new: new) }
    } else {
      compareParts(oldCase.payload, newCase.payload, old, new)
    }
  }

  /// The same object has not changed; two objects are compared field by field, once per pair.
  private mutating func compareObjects(
    _ old: Any, _ oldMirror: Mirror, _ new: Any, _ newMirror: Mirror
  ) {
    let pair = ObjectPair(
      first: ObjectIdentifier(old as AnyObject),
      second: ObjectIdentifier(new as AnyObject)
    )
    guard pair.first != pair.second, comparing.insert(pair).inserted else { return }
    defer { comparing.remove(pair) }
    compareParts(Reflection.fields(of: oldMirror), Reflection.fields(of: newMirror), old, new)
  }

  /// Elements are compared after the common prefix and suffix are set aside: what remains in the
  /// middle is compared position by position, and the surplus of the longer side is reported as
  /// removed (old positions) or added (new positions).
  private mutating func compareLists(
    _ oldList: ListAccess, _ newList: ListAccess, commonAffixLengths: (prefix: Int, suffix: Int)?
  ) {
    let (prefix, suffix) = commonAffixLengths ?? ListAccess.structuralAffixLengths(oldList, newList)
    let oldMiddle = oldList.count - prefix - suffix
    let newMiddle = newList.count - prefix - suffix
    let paired = min(oldMiddle, newMiddle)
    for index in prefix..<(prefix + paired) {
      compare(oldList.element(index), newList.element(index), at: .index(index))
    }
    for index in (prefix + paired)..<(prefix + oldMiddle) {
      record(.removed, at: .index(index), old: oldList.element(index), new: nil)
    }
    for index in (prefix + paired)..<(prefix + newMiddle) {
      record(.added, at: .index(index), old: nil, new: newList.element(index))
    }
  }

  /// Entries are matched by key and reported in display order of their keys.
  private mutating func compareDictionaries(
    _ oldDictionary: any InspectableDictionary, _ newDictionary: any InspectableDictionary,
    keyChanges: DictionaryKeyChanges
  ) {
    enum Kind { case removed, added, common }
    let keys =
      keyChanges.removed.map { ($0, Kind.removed) } + keyChanges.added.map { ($0, Kind.added) }
      + keyChanges.common.map { ($0, Kind.common) }
    let texts = keys.map { keyText(of: $0.0) }
    for index in Reflection.displayOrder(of: keys.map(\.0), texts: texts) {
      let (key, kind) = keys[index]
      let entry = ValuePath.Component.key(texts[index])
      switch kind {
      case .removed:
        record(.removed, at: entry, old: oldDictionary.inspectedValue(forKey: key), new: nil)
      case .added:
        record(.added, at: entry, old: nil, new: newDictionary.inspectedValue(forKey: key))
      case .common:
        if let oldValue = oldDictionary.inspectedValue(forKey: key),
          let newValue = newDictionary.inspectedValue(forKey: key)
        {
          compare(oldValue, newValue, at: entry)
        }
      }
    }
  }

  /// Elements only one side holds, at the path of the set, in display order.
  private mutating func compareSets(removed: [Any], added: [Any]) {
    let elements = removed.map { ($0, StateDiff.Change.Kind.removed) } + added.map { ($0, .added) }
    let texts = elements.map { ValueRenderer.inlineText(of: $0.0, at: path, redaction: redaction) }
    for index in Reflection.displayOrder(of: elements.map(\.0), texts: texts) {
      let kind = elements[index].1
      let text = texts[index]
      changes.append(
        StateDiff.Change(
          path: path, kind: kind, old: kind == .removed ? text : nil, new: kind == .added ? text : nil)
      )
    }
  }

  /// Records a change at a part of the current values, found at `component`.
  private mutating func record(
    _ kind: StateDiff.Change.Kind, at component: ValuePath.Component, old: Any?, new: Any?
  ) {
    path.components.append(component)
    defer { path.components.removeLast() }
    record(kind, old: old, new: new)
  }

  /// Records a change at the current path; `facts`, when given, are those of both values' type.
  private mutating func record(
    _ kind: StateDiff.Change.Kind, old: Any?, new: Any?, facts: TypeFacts? = nil
  ) {
    changes.append(
      StateDiff.Change(
        path: path,
        kind: kind,
        old: old.map { ValueRenderer.inlineText(of: $0, at: path, redaction: redaction, facts: facts) },
        new: new.map { ValueRenderer.inlineText(of: $0, at: path, redaction: redaction, facts: facts) }
      )
    )
  }

  private func keyText(of key: Any) -> String {
    ValueRenderer.inlineText(of: key, at: .root, redaction: .none)
  }
}

/// The elements of a list held as `Any`: read directly from a `Swift.Array`, through the mirror
/// for any other collection.
private struct ListAccess {
  let count: Int
  let element: (Int) -> Any

  init(_ array: any InspectableArray) {
    count = array.inspectedCount
    element = { array.inspectedElement(at: $0) }
  }

  init(_ mirror: Mirror) {
    let elements = mirror.children.map(\.value)
    count = elements.count
    element = { elements[$0] }
  }

  /// The common prefix and suffix of two lists whose elements have no `==` of their own.
  static func structuralAffixLengths(_ old: ListAccess, _ new: ListAccess) -> (prefix: Int, suffix: Int) {
    let limit = min(old.count, new.count)
    var prefix = 0
    while prefix < limit, StructuralEquality.areEqual(old.element(prefix), new.element(prefix)) {
      prefix += 1
    }
    var suffix = 0
    while suffix < limit - prefix,
      StructuralEquality.areEqual(old.element(old.count - 1 - suffix), new.element(new.count - 1 - suffix))
    {
      suffix += 1
    }
    return (prefix, suffix)
  }
}
