/// The kind of type a metatype describes, as the Swift runtime records it: what a mirror's
/// `displayStyle` tells from a value, told from the type alone.
///
/// ``TypeFacts`` finds a type's facts before any value of it exists (see
/// ``TypeFacts/prepare(_:)``), and a mirror needs a value.
enum TypeKind: Equatable {
  case `struct`
  case `enum`
  case optional
  case metatype
  case existentialMetatype
  /// A class, tuple, function, existential or any other kind.
  case other

  /// The kind of `type`.
  ///
  /// The runtime's metadata of every type that is not a class starts with its kind, a
  /// pointer-sized integer (the Swift ABI's `MetadataKind`, in docs/ABI/TypeMetadata.rst); a
  /// class's starts with a pointer, or 0 on platforms without Objective-C, never one of the
  /// values below.
  init(of type: Any.Type) {
    let kind = unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self)
    switch kind {
    case 0x200: self = .struct
    case 0x201: self = .enum
    case 0x202: self = .optional
    case 0x304: self = .metatype
    case 0x306: self = .existentialMetatype
    default: self = .other
    }
  }
}
