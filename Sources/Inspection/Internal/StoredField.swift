@_spi(Reflection) import Swift

/// A stored property of a plain struct, read straight from the struct's memory.
///
/// A `Mirror` finds a struct's properties again for every value, looking each property's type up
/// by its mangled name, and boxes them into a lazy collection: reflecting on a one-property struct
/// costs more than a microsecond. The layout of a struct is the same for all its values, so
/// ``TypeFacts`` finds it once, and the printer and the differ read the parts of a value from it.
///
/// Only the structs whose parts a mirror reads plainly qualify: no custom mirror, and every
/// property a strong reference or a value of a concrete type. A struct with a `weak`, `unowned`,
/// function, metatype or existential (`Any`, `any P`) property is read through its mirror, as
/// before.
struct StoredField: Sendable {
  /// The name of the part, as ``Reflection/fields(of:)`` names it.
  let label: String
  /// Where the property starts in the struct.
  let offset: Int
  /// The declared type of the property.
  let type: Any.Type

  /// The stored properties of a value of `type` that ``Reflection/fields(of:)`` reports, in
  /// declaration order, or `nil` when `type` is not a plain struct whose properties can all be
  /// read directly.
  static func fields(of type: Any.Type) -> [StoredField]? {
    guard !(type is any CustomReflectable.Type), TypeKind(of: type) == .struct else { return nil }
    return fields(ofStruct: type)
  }

  private static func fields<Value>(ofStruct type: Value.Type) -> [StoredField]? {
    // A mirror copies a value of size zero from wherever it is; a raw pointer to one may be nil.
    guard MemoryLayout<Value>.size > 0 else { return nil }
    // The standard library builds key paths only for strong properties of the kinds it can read
    // plainly, and fails for the others; its answer is what keeps weak and unowned ones out.
    guard _forEachFieldWithKeyPath(of: type, body: { _, _ in true }) else { return nil }
    var fields: [StoredField] = []
    let isComplete = _forEachField(of: type) { name, offset, fieldType, kind in
      switch kind {
      case .struct, .enum, .optional, .tuple, .class: break
      default: return false
      }
      if let label = Reflection.label(ofField: String(cString: name), type: fieldType) {
        fields.append(StoredField(label: label, offset: offset, type: fieldType))
      }
      return true
    }
    return isComplete ? fields : nil
  }

  /// The parts of `value`, a struct of type `type` whose stored fields are `fields`.
  static func parts(of value: Any, as type: Any.Type, fields: [StoredField]) -> [Reflection.Part] {
    func read<Value>(_: Value.Type) -> [Reflection.Part] {
      withUnsafeBytes(of: Reflection.value(value, as: Value.self)) { bytes in
        guard let start = bytes.baseAddress else {
          preconditionFailure(
            "withUnsafeBytes(of:) passes the address of its value, even of a value of size zero")
        }
        return fields.map { field in
          Reflection.Part(label: field.label, value: load(field.type, from: start + field.offset))
        }
      }
    }
    return read(type)
  }

  private static func load<Field>(_: Field.Type, from pointer: UnsafeRawPointer) -> Any {
    pointer.load(as: Field.self)
  }
}
