import ChronicleLocks

/// What the printer and the differ know about a value from its type alone, found once per type and
/// kept for the life of the process.
///
/// Without it, every value visited paid for its type's name (demangled and reformatted), and for a
/// dynamic cast to each protocol the inspectors care about (`SensitiveValue`, `Equatable`, the
/// standard collections), most of which fail; a failed cast to a protocol costs more than printing
/// a number. Here each type is asked once; the facts answer the same questions with a lookup.
///
/// A cast sees through a few wrapper types to the value they hold: `Optional`, `AnyHashable`, and
/// the box a non-class value gets when it is held as `AnyObject` (`__SwiftValue`). For values of
/// those types, whose answers depend on the value, each question is answered by the same cast as
/// before, on the value.
///
/// Conformances are looked up on the type, which ignores their isolation: a type whose
/// `SensitiveValue` conformance is isolated to a global actor (SE-0470) is redacted wherever it is
/// printed, where a cast of the value would miss it outside that actor. `Equatable`, whose `==`
/// runs, is still cast on the value as before, but only for the types that conform: a failed cast
/// is the one that costs most.
final class TypeFacts: Sendable {
  /// The type these facts describe: the dynamic type of the value they were found for.
  let type: Any.Type
  /// The name printed for the type: `Outer.Box<[Todo]?>`.
  let name: String
  /// Whether a cast of a value of this type may see through it; see the type's documentation.
  private let isWrapper: Bool
  /// Whether the type is `AnyHashable`, whose base is the value that matters.
  let isAnyHashable: Bool
  private let leaf: (any LeafValue.Type)?
  private let isMetatype: Bool
  private let isSensitiveType: Bool
  private let isEquatable: Bool
  private let redactedStorage: (any RedactedStorage.Type)?
  /// The stored properties of a plain struct, read without a mirror; see ``StoredField``.
  private let storedFields: [StoredField]?
  private let array: (any InspectableArray.Type)?
  private let dictionary: (any InspectableDictionary.Type)?
  private let set: (any InspectableSet.Type)?
  /// Whether the type is an enum of at most 8 bytes without a custom mirror, whose cases without
  /// payload ``payloadFreeCases`` records.
  private let recordsCaseNames: Bool
  /// For an enum that ``recordsCaseNames``, the texts of its cases without payload met so far,
  /// by the bytes of the value: `.idle`, and `Status.idle` at the root of a value printed with
  /// ``ValueDump``.
  ///
  /// A mirror and the runtime's case name cost more than the rest of printing such a case, and
  /// the bytes of a case without payload are the same in every value, and differ from those of
  /// every other case. Garbage in unused bytes could only make a case miss its entry: the table
  /// stops growing at ``maximumCaseNames`` entries.
  private let payloadFreeCases = SanitizerVisibleMutex<[UInt64: (text: String, qualifiedText: String)]>([:])
  private static let maximumCaseNames = 256

  private init(of type: Any.Type) {
    self.type = type
    name = Self.name(of: type)
    let isWrapper =
      type is any OptionalMarker.Type || type == AnyHashable.self
      || _typeName(type, qualified: true).hasSuffix("__SwiftValue")
    self.isWrapper = isWrapper
    isAnyHashable = type == AnyHashable.self
    // A wrapper is never a leaf: an optional holds a value or `nil`.
    leaf = isWrapper ? nil : type as? any LeafValue.Type
    let kind = TypeKind(of: type)
    isMetatype = !isWrapper && (kind == .metatype || kind == .existentialMetatype)
    isSensitiveType = type is any SensitiveValue.Type
    isEquatable = type is any Equatable.Type
    redactedStorage = type as? any RedactedStorage.Type
    array = type as? any InspectableArray.Type
    dictionary = type as? any InspectableDictionary.Type
    set = type as? any InspectableSet.Type
    storedFields = isWrapper ? nil : StoredField.fields(of: type)
    let isPlainEnum = !isWrapper && !(type is any CustomReflectable.Type) && kind == .enum
    recordsCaseNames = isPlainEnum && Self.size(of: type) <= 8
  }

  // MARK: - Answers about a value of this type

  /// `value is any SensitiveValue`, for a value of this type.
  func isSensitive(_ value: Any) -> Bool {
    isWrapper ? value is any SensitiveValue : isSensitiveType
  }

  /// `a == b` when `a` (of this type) is `Equatable` and `b` is of the same type; `nil` when that
  /// can't be decided.
  func isEqual(_ a: Any, _ b: Any) -> Bool? {
    if let leaf { return leaf.areEqual(a, b) }
    guard isWrapper || isEquatable, let a = a as? any Equatable else { return nil }
    return a.isEqual(toAny: b)
  }

  /// `value as? any InspectableArray`, for a value of this type.
  func inspectableArray(_ value: Any) -> (any InspectableArray)? {
    isWrapper ? value as? any InspectableArray : array?.opening(value)
  }

  /// `value as? any InspectableDictionary`, for a value of this type.
  func inspectableDictionary(_ value: Any) -> (any InspectableDictionary)? {
    isWrapper ? value as? any InspectableDictionary : dictionary?.opening(value)
  }

  /// `value as? any InspectableSet`, for a value of this type.
  func inspectableSet(_ value: Any) -> (any InspectableSet)? {
    isWrapper ? value as? any InspectableSet : set?.opening(value)
  }

  /// `value as? any RedactedStorage`, for a value of this type.
  func redacted(_ value: Any) -> (any RedactedStorage)? {
    isWrapper ? value as? any RedactedStorage : redactedStorage?.opening(value)
  }

  /// The parts of `value`, a plain struct of this type, read without a mirror (see
  /// ``StoredField``); `nil` for a value of any other type.
  func storedParts(of value: Any) -> [Reflection.Part]? {
    storedFields.map { StoredField.parts(of: value, as: type, fields: $0) }
  }

  /// Whether a value of this type is printed as one token: a ``LeafValue`` or a metatype.
  var isLeaf: Bool { leaf != nil || isMetatype }

  /// The text of a value printed as one token, `nil` for any other value.
  func leafText(of value: Any) -> String? {
    if let leaf { return leaf.text(of: value) }
    guard isMetatype, let type = value as? Any.Type else { return nil }
    return Self.name(of: type) + ".self"
  }

  /// The text of `value`, an enum of this type, when it is a case without payload that
  /// ``rememberPayloadFreeCase(_:of:)`` was told about: `.idle`, or `Status.idle` when
  /// `qualified`; `nil` otherwise.
  func payloadFreeCaseText(of value: Any, qualified: Bool) -> String? {
    guard recordsCaseNames, let key = Self.bytes(of: value, as: type) else { return nil }
    guard let texts = payloadFreeCases.withLock({ $0[key] }) else { return nil }
    return qualified ? texts.qualifiedText : texts.text
  }

  /// Records that `value`, an enum of this type, is the case `name`, which has no payload.
  func rememberPayloadFreeCase(_ name: String, of value: Any) {
    guard recordsCaseNames, let key = Self.bytes(of: value, as: type) else { return }
    let texts = (text: "." + name, qualifiedText: self.name + "." + name)
    payloadFreeCases.withLock { cases in
      if cases.count < Self.maximumCaseNames { cases[key] = texts }
    }
  }

  /// The size of a value of `type`, in bytes.
  private static func size(of type: Any.Type) -> Int {
    func size<Value>(_: Value.Type) -> Int { MemoryLayout<Value>.size }
    return size(type)
  }

  /// The bytes of `value`, of type `type`, as an integer, when it has at most 8.
  private static func bytes(of value: Any, as type: Any.Type) -> UInt64? {
    func read<Value>(_: Value.Type) -> UInt64? {
      withUnsafeBytes(of: Reflection.value(value, as: Value.self)) { bytes in
        guard bytes.count <= 8 else { return nil }
        var integer: UInt64 = 0
        for (offset, byte) in bytes.enumerated() { integer |= UInt64(byte) << (8 * offset) }
        return integer
      }
    }
    return read(type)
  }

  // MARK: - The cache

  private struct Cache {
    var facts: [ObjectIdentifier: TypeFacts] = [:]
    var names: [ObjectIdentifier: String] = [:]
  }

  private static let cache = SanitizerVisibleMutex(Cache())

  /// The facts of the dynamic type of `value`.
  static func of(_ value: Any) -> TypeFacts {
    of(type: Swift.type(of: value))
  }

  /// The facts of `type`.
  static func of(type: Any.Type) -> TypeFacts {
    let key = ObjectIdentifier(type)
    if let facts = cache.withLock({ $0.facts[key] }) { return facts }
    // Found outside the lock, which finding the type's name takes again.
    let facts = TypeFacts(of: type)
    return cache.withLock { cache in
      if let existing = cache.facts[key] { return existing }
      cache.facts[key] = facts
      return facts
    }
  }

  /// Whether the facts of `type` have been found.
  static func areKnown(for type: Any.Type) -> Bool {
    cache.withLock { $0.facts[ObjectIdentifier(type)] != nil }
  }

  /// Finds the facts of `type` and of the types its values hold, as far as the type tells them:
  /// the stored properties of a plain struct, and the elements of an optional, array, set or
  /// dictionary, at any depth. An enum's payloads and a class's properties are not followed:
  /// their types are found from a value, the first time one is printed.
  ///
  /// The first value of a type printed otherwise pays for these facts (a few hundred
  /// microseconds for a state of a few types, a few milliseconds in a debug build: the runtime
  /// looks each conformance up in every image the first time it is asked about it).
  static func prepare(_ type: Any.Type) {
    var pending = [type]
    var seen: Set<ObjectIdentifier> = []
    while let type = pending.popLast() {
      guard seen.insert(ObjectIdentifier(type)).inserted else { continue }
      let facts = of(type: type)
      pending += facts.storedFields?.map(\.type) ?? []
      if let container = type as? any ContainerMarker.Type { pending += container.elementTypes }
    }
  }

  /// The name printed for `type`, as ``TypeNameFormatter`` writes it.
  static func name(of type: Any.Type) -> String {
    let key = ObjectIdentifier(type)
    if let name = cache.withLock({ $0.names[key] }) { return name }
    let name = TypeNameFormatter.name(of: type)
    cache.withLock { $0.names[key] = name }
    return name
  }
}

/// Marks `Optional`, whatever it wraps, so that ``TypeFacts`` can tell an optional type.
private protocol OptionalMarker {}

extension Optional: OptionalMarker {}

/// The types whose values a container's values hold, for ``TypeFacts/prepare(_:)``.
private protocol ContainerMarker {
  static var elementTypes: [Any.Type] { get }
}

extension Optional: ContainerMarker {
  static var elementTypes: [Any.Type] { [Wrapped.self] }
}

extension Array: ContainerMarker {
  static var elementTypes: [Any.Type] { [Element.self] }
}

extension Set: ContainerMarker {
  static var elementTypes: [Any.Type] { [Element.self] }
}

extension Dictionary: ContainerMarker {
  static var elementTypes: [Any.Type] { [Key.self, Value.self] }
}

extension ValueDump {
  /// Finds, ahead of the first value printed, what printing and diffing values of `type` need to
  /// know about the types involved, so that the first value costs what the others do.
  ///
  /// The logger calls it for its `State` and `Action` types when it is created: otherwise this
  /// one-time work fell in the first action's measured duration.
  package static func prepare(for type: Any.Type) {
    TypeFacts.prepare(type)
  }
}

extension Equatable {
  /// Opens the existential for ``TypeFacts/isEqual(_:_:)``: `nil` when `other` is of another type.
  fileprivate func isEqual(toAny other: Any) -> Bool? {
    if type(of: other) == Self.self { return self == Reflection.value(other, as: Self.self) }
    // A cast also finds a value of this type in an optional or an `AnyHashable`.
    guard let other = other as? Self else { return nil }
    return self == other
  }
}

extension InspectableArray {
  fileprivate static func opening(_ value: Any) -> (any InspectableArray)? { value as? Self }
}

extension InspectableDictionary {
  fileprivate static func opening(_ value: Any) -> (any InspectableDictionary)? { value as? Self }
}

extension InspectableSet {
  fileprivate static func opening(_ value: Any) -> (any InspectableSet)? { value as? Self }
}

extension RedactedStorage {
  fileprivate static func opening(_ value: Any) -> (any RedactedStorage)? { value as? Self }
}
