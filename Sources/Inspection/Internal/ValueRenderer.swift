/// Lays out any value as a ``DumpTree``, applying a ``Redaction`` policy on the way.
///
/// The layout follows the value's `Mirror`, with the rules that ``ValueDump`` documents; what
/// ``TypeFacts`` knows of the value's type spares the mirror where it can (leaves, plain structs,
/// enum cases without payload) and gives the same text. Each value's layout depends only on the
/// value and on the objects above it, never on its siblings, so that printing a part alone (as
/// ``StateDiff`` does) gives the text it has inside the whole.
struct ValueRenderer {
  let redaction: Redaction
  let maxDepth: Int
  /// Whether a root enum value is written with its type, `Status.idle`, rather than `.idle`.
  let qualifiesRootEnum: Bool
  /// The objects being laid out above the current value: meeting one again is a cycle.
  private var ancestors: Set<ObjectIdentifier> = []
  /// Where the current value sits: a stack that each part pushes its component onto while it is
  /// laid out, so that visiting a part costs no new path.
  private var path: ValuePath

  /// A renderer for a value placed at `path` inside the value being printed.
  init(redaction: Redaction, maxDepth: Int, qualifiesRootEnum: Bool, at path: ValuePath = .root) {
    self.redaction = redaction
    self.maxDepth = maxDepth
    self.qualifiesRootEnum = qualifiesRootEnum
    self.path = path
  }

  /// The inline text of `value` placed at `path`, its root enum written `.case`: how ``StateDiff``
  /// shows the two sides of a change.
  ///
  /// - Parameter facts: The facts of `value`'s type, when the caller has them.
  static func inlineText(
    of value: Any, at path: ValuePath, redaction: Redaction, facts: TypeFacts? = nil
  ) -> String {
    var renderer = ValueRenderer(
      redaction: redaction, maxDepth: ValueDump.defaultMaxDepth, qualifiesRootEnum: false, at: path)
    return renderer.tree(for: value, depth: 0, isRoot: true, facts: facts).inline()
  }

  /// The layout of `value`, which sits at the path the renderer was made with.
  mutating func tree(for value: Any) -> DumpTree {
    tree(for: value, depth: 0, isRoot: true)
  }

  private mutating func tree(for value: Any, depth: Int, isRoot: Bool, facts: TypeFacts? = nil) -> DumpTree {
    var facts = facts ?? TypeFacts.of(value)
    if redaction.redacts(value, facts: facts, at: path) { return .text(Redaction.placeholder) }
    var value = value
    if facts.isAnyHashable {
      value = Reflection.unboxed(value)
      facts = TypeFacts.of(value)
    }
    if let text = facts.leafText(of: value) { return .text(text) }
    if let fields = facts.storedParts(of: value) {
      return record(named: facts.name, fields: fields, depth: depth)
    }
    if let text = facts.payloadFreeCaseText(of: value, qualified: isRoot && qualifiesRootEnum) {
      return .text(text)
    }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first?.value else { return .text("nil") }
      return tree(for: wrapped, depth: depth, isRoot: isRoot)
    case .struct:
      return record(
        named: typeName(of: mirror, facts: facts), fields: Reflection.fields(of: mirror), depth: depth)
    case .class:
      return object(value, mirror: mirror, facts: facts, depth: depth)
    case .enum:
      return enumCase(value, mirror: mirror, facts: facts, depth: depth, isRoot: isRoot)
    case .tuple:
      return record(named: "", fields: Reflection.elements(ofTuple: mirror), depth: depth)
    case .collection:
      return list(mirror.children.map(\.value), depth: depth)
    case .dictionary:
      if let dictionary = facts.inspectableDictionary(value) {
        return dictionaryTree(dictionary.inspectedEntries, isOrdered: false, depth: depth)
      }
      return dictionaryTree(Reflection.entries(ofDictionary: mirror), isOrdered: true, depth: depth)
    case .set:
      return setTree(mirror.children.map(\.value), depth: depth)
    default:
      guard !mirror.children.isEmpty else { return .text(String(describing: value)) }
      return record(
        named: typeName(of: mirror, facts: facts), fields: Reflection.fields(of: mirror), depth: depth)
    }
  }

  /// The layout of a part of the current value, found at `component`.
  private mutating func part(_ value: Any, at component: ValuePath.Component, depth: Int) -> DumpTree {
    path.components.append(component)
    defer { path.components.removeLast() }
    return tree(for: value, depth: depth, isRoot: false)
  }

  private mutating func record(named name: String, fields: [Reflection.Part], depth: Int) -> DumpTree {
    var group = DumpTree.Group(
      opening: name + "(", closing: ")", empty: name + "()", layout: .record, items: [])
    guard !fields.isEmpty, depth < maxDepth else {
      group.isElided = !fields.isEmpty
      return .group(group)
    }
    for (offset, field) in fields.enumerated() {
      let tree = part(field.value, at: .property(field.label ?? String(offset)), depth: depth + 1)
      group.items.append(DumpTree.Item(label: field.label.map { .name($0) } ?? .none, tree: tree))
    }
    return .group(group)
  }

  private mutating func object(_ value: Any, mirror: Mirror, facts: TypeFacts, depth: Int) -> DumpTree {
    let name = typeName(of: mirror, facts: facts)
    let identifier = ObjectIdentifier(value as AnyObject)
    guard ancestors.insert(identifier).inserted else { return .text(name + "(↩︎)") }
    defer { ancestors.remove(identifier) }
    return record(named: name, fields: Reflection.fields(of: mirror), depth: depth)
  }

  private mutating func enumCase(
    _ value: Any, mirror: Mirror, facts: TypeFacts, depth: Int, isRoot: Bool
  ) -> DumpTree {
    let enumCase = Reflection.enumCase(of: value, mirror: mirror)
    let name = (isRoot && qualifiesRootEnum ? typeName(of: mirror, facts: facts) : "") + "." + enumCase.name
    guard !enumCase.payload.isEmpty else {
      facts.rememberPayloadFreeCase(enumCase.name, of: value)
      return .text(name)
    }
    var group = DumpTree.Group(
      opening: name + "(", closing: ")", empty: name + "()", layout: .record, items: [])
    if let value = enumCase.singleValue {
      guard depth < maxDepth else {
        group.isElided = true
        return .group(group)
      }
      let tree = part(value, at: .case(enumCase.name), depth: depth + 1)
      group.items = [DumpTree.Item(label: .none, tree: tree)]
      return .group(group)
    }
    path.components.append(.case(enumCase.name))
    defer { path.components.removeLast() }
    // A key rule naming the case hides its whole payload, as it hides a single unlabelled one.
    if redaction.redactsKey(at: path) {
      group.items = [DumpTree.Item(label: .none, tree: .text(Redaction.placeholder))]
      return .group(group)
    }
    return record(named: name, fields: enumCase.payload, depth: depth)
  }

  private mutating func list(_ elements: [Any], depth: Int) -> DumpTree {
    var group = DumpTree.Group(opening: "[", closing: "]", empty: "[]", layout: .list, items: [])
    guard !elements.isEmpty, depth < maxDepth else {
      group.isElided = !elements.isEmpty
      return .group(group)
    }
    for (index, element) in elements.enumerated() {
      let tree = part(element, at: .index(index), depth: depth + 1)
      group.items.append(DumpTree.Item(label: .index(index), tree: tree))
    }
    return .group(group)
  }

  /// A dictionary; a `Swift.Dictionary` is unordered, so its entries are put in display order.
  private mutating func dictionaryTree(
    _ entries: [(key: Any, value: Any)], isOrdered: Bool, depth: Int
  ) -> DumpTree {
    var group = DumpTree.Group(opening: "[", closing: "]", empty: "[:]", layout: .list, items: [])
    guard !entries.isEmpty, depth < maxDepth else {
      group.isElided = !entries.isEmpty
      return .group(group)
    }
    let keys = entries.map { keyText(of: $0.key) }
    let order =
      isOrdered ? Array(entries.indices) : Reflection.displayOrder(of: entries.map(\.key), texts: keys)
    for index in order {
      let tree = part(entries[index].value, at: .key(keys[index]), depth: depth + 1)
      group.items.append(DumpTree.Item(label: .key(keys[index]), tree: tree))
    }
    return .group(group)
  }

  /// A set, its elements in display order. Elements have no name of their own: a rule sees each
  /// one at the path of the set.
  private mutating func setTree(_ elements: [Any], depth: Int) -> DumpTree {
    var group = DumpTree.Group(opening: "Set([", closing: "])", empty: "Set([])", layout: .list, items: [])
    guard !elements.isEmpty, depth < maxDepth else {
      group.isElided = !elements.isEmpty
      return .group(group)
    }
    let elements = elements.map(Reflection.unboxed)
    let trees = elements.map { tree(for: $0, depth: depth + 1, isRoot: false) }
    let order = Reflection.displayOrder(of: elements, texts: trees.map { $0.inline() })
    group.items = order.map { DumpTree.Item(label: .none, tree: trees[$0]) }
    return .group(group)
  }

  /// A dictionary key, always on one line. Keys name entries rather than hold data, so only
  /// marked values among them are redacted.
  private func keyText(of key: Any) -> String {
    var renderer = ValueRenderer(redaction: .none, maxDepth: maxDepth, qualifiesRootEnum: false)
    return renderer.tree(for: key).inline()
  }

  /// The name of the type a mirror reflects: nearly always the value's own, whose facts know it.
  private func typeName(of mirror: Mirror, facts: TypeFacts) -> String {
    mirror.subjectType == facts.type ? facts.name : TypeFacts.name(of: mirror.subjectType)
  }
}
