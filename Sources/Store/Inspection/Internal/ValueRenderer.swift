/// Lays out any value as a ``DumpTree``, applying a ``Redaction`` policy on the way.
///
/// The layout follows the value's `Mirror`, with the rules that ``ValueDump`` documents. Each
/// value's layout depends only on the value and on the objects above it, never on its siblings, so
/// that printing a part alone (as ``StateDiff`` does) gives the text it has inside the whole.
struct ValueRenderer {
  let redaction: Redaction
  let maxDepth: Int
  /// Whether a root enum value is written with its type, `Status.idle`, rather than `.idle`.
  let qualifiesRootEnum: Bool
  /// The objects being laid out above the current value: meeting one again is a cycle.
  private var ancestors: Set<ObjectIdentifier> = []
  private var typeNames: [ObjectIdentifier: String] = [:]

  init(redaction: Redaction, maxDepth: Int, qualifiesRootEnum: Bool) {
    self.redaction = redaction
    self.maxDepth = maxDepth
    self.qualifiesRootEnum = qualifiesRootEnum
  }

  /// The inline text of `value` placed at `path`, its root enum written `.case`: how ``StateDiff``
  /// shows the two sides of a change.
  static func inlineText(of value: Any, at path: ValuePath, redaction: Redaction) -> String {
    var renderer = ValueRenderer(
      redaction: redaction, maxDepth: ValueDump.defaultMaxDepth, qualifiesRootEnum: false)
    return renderer.tree(for: value, at: path).inline()
  }

  /// The layout of `value`, which sits at `path` inside the value being printed.
  mutating func tree(for value: Any, at path: ValuePath) -> DumpTree {
    tree(for: value, at: path, depth: 0, isRoot: true)
  }

  private mutating func tree(for value: Any, at path: ValuePath, depth: Int, isRoot: Bool) -> DumpTree {
    if redaction.redacts(value, at: path) { return .text(Redaction.placeholder) }
    let value = Reflection.unboxed(value)
    if let text = Reflection.scalarText(of: value) { return .text(text) }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first?.value else { return .text("nil") }
      return tree(for: wrapped, at: path, depth: depth, isRoot: isRoot)
    case .struct:
      return record(
        named: typeName(of: mirror.subjectType), fields: Reflection.fields(of: mirror), at: path, depth: depth
      )
    case .class:
      return object(value, mirror: mirror, at: path, depth: depth)
    case .enum:
      return enumCase(value, mirror: mirror, at: path, depth: depth, isRoot: isRoot)
    case .tuple:
      return record(named: "", fields: Reflection.elements(ofTuple: mirror), at: path, depth: depth)
    case .collection:
      return list(mirror.children.map(\.value), at: path, depth: depth)
    case .dictionary:
      if let dictionary = value as? any InspectableDictionary {
        return dictionaryTree(dictionary.inspectedEntries, isOrdered: false, at: path, depth: depth)
      }
      return dictionaryTree(Reflection.entries(ofDictionary: mirror), isOrdered: true, at: path, depth: depth)
    case .set:
      return setTree(mirror.children.map(\.value), at: path, depth: depth)
    default:
      guard !mirror.children.isEmpty else { return .text(String(describing: value)) }
      return record(
        named: typeName(of: mirror.subjectType), fields: Reflection.fields(of: mirror), at: path, depth: depth
      )
    }
  }

  private mutating func record(
    named name: String, fields: [Reflection.Part], at path: ValuePath, depth: Int
  ) -> DumpTree {
    var group = DumpTree.Group(
      opening: name + "(", closing: ")", empty: name + "()", layout: .record, items: [])
    guard !fields.isEmpty, depth < maxDepth else {
      group.isElided = !fields.isEmpty
      return .group(group)
    }
    for (offset, field) in fields.enumerated() {
      let fieldPath = path.appending(.property(field.label ?? String(offset)))
      let tree = tree(for: field.value, at: fieldPath, depth: depth + 1, isRoot: false)
      group.items.append(DumpTree.Item(label: field.label.map { .name($0) } ?? .none, tree: tree))
    }
    return .group(group)
  }

  private mutating func object(_ value: Any, mirror: Mirror, at path: ValuePath, depth: Int) -> DumpTree {
    let name = typeName(of: mirror.subjectType)
    let identifier = ObjectIdentifier(value as AnyObject)
    guard ancestors.insert(identifier).inserted else { return .text(name + "(↩︎)") }
    defer { ancestors.remove(identifier) }
    return record(named: name, fields: Reflection.fields(of: mirror), at: path, depth: depth)
  }

  private mutating func enumCase(
    _ value: Any, mirror: Mirror, at path: ValuePath, depth: Int, isRoot: Bool
  ) -> DumpTree {
    let enumCase = Reflection.enumCase(of: value, mirror: mirror)
    let name = (isRoot && qualifiesRootEnum ? typeName(of: mirror.subjectType) : "") + "." + enumCase.name
    guard !enumCase.payload.isEmpty else { return .text(name) }
    let casePath = path.appending(.case(enumCase.name))
    if enumCase.payload.count == 1 {
      var group = DumpTree.Group(
        opening: name + "(", closing: ")", empty: name + "()", layout: .record, items: [])
      guard depth < maxDepth else {
        group.isElided = true
        return .group(group)
      }
      let tree = tree(for: enumCase.payload[0].value, at: casePath, depth: depth + 1, isRoot: false)
      group.items = [DumpTree.Item(label: .none, tree: tree)]
      return .group(group)
    }
    return record(named: name, fields: enumCase.payload, at: casePath, depth: depth)
  }

  private mutating func list(_ elements: [Any], at path: ValuePath, depth: Int) -> DumpTree {
    var group = DumpTree.Group(opening: "[", closing: "]", empty: "[]", layout: .list, items: [])
    guard !elements.isEmpty, depth < maxDepth else {
      group.isElided = !elements.isEmpty
      return .group(group)
    }
    for (index, element) in elements.enumerated() {
      let tree = tree(for: element, at: path.appending(.index(index)), depth: depth + 1, isRoot: false)
      group.items.append(DumpTree.Item(label: .index(index), tree: tree))
    }
    return .group(group)
  }

  /// A dictionary; a `Swift.Dictionary` is unordered, so its entries are put in display order.
  private mutating func dictionaryTree(
    _ entries: [(key: Any, value: Any)], isOrdered: Bool, at path: ValuePath, depth: Int
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
      let valuePath = path.appending(.key(keys[index]))
      let tree = tree(for: entries[index].value, at: valuePath, depth: depth + 1, isRoot: false)
      group.items.append(DumpTree.Item(label: .key(keys[index]), tree: tree))
    }
    return .group(group)
  }

  /// A set, its elements in display order. Elements have no name of their own: a rule sees each
  /// one at the path of the set.
  private mutating func setTree(_ elements: [Any], at path: ValuePath, depth: Int) -> DumpTree {
    var group = DumpTree.Group(opening: "Set([", closing: "])", empty: "Set([])", layout: .list, items: [])
    guard !elements.isEmpty, depth < maxDepth else {
      group.isElided = !elements.isEmpty
      return .group(group)
    }
    let elements = elements.map(Reflection.unboxed)
    let trees = elements.map { tree(for: $0, at: path, depth: depth + 1, isRoot: false) }
    let order = Reflection.displayOrder(of: elements, texts: trees.map { $0.inline() })
    group.items = order.map { DumpTree.Item(label: .none, tree: trees[$0]) }
    return .group(group)
  }

  /// A dictionary key, always on one line. Keys name entries rather than hold data, so only
  /// marked values among them are redacted.
  private func keyText(of key: Any) -> String {
    var renderer = ValueRenderer(redaction: .none, maxDepth: maxDepth, qualifiesRootEnum: false)
    return renderer.tree(for: key, at: .root).inline()
  }

  private mutating func typeName(of type: Any.Type) -> String {
    let key = ObjectIdentifier(type)
    if let name = typeNames[key] { return name }
    let name = TypeNameFormatter.name(of: type)
    typeNames[key] = name
    return name
  }
}
