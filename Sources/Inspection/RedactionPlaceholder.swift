/// A type that can stand in for one of its values that was redacted at capture.
///
/// ``Redacted`` encodes `"<redacted>"` instead of its value. When such a journal is decoded, a
/// `Redacted<Value>` whose `Value` conforms to this protocol decodes as
/// ``redactedPlaceholder``, so loading a recorded state with secrets in it still succeeds;
/// without a conformance, decoding throws.
///
/// The standard library's strings, numbers, `Bool`, `Optional`, `Array`, `Dictionary` and `Set`
/// conform, each with its "empty" value.
public protocol RedactionPlaceholder {
  /// The value used in place of a redacted one: `""`, `0`, `false`, `nil` or an empty collection
  /// for the standard library's types.
  static var redactedPlaceholder: Self { get }
}

extension String: RedactionPlaceholder {
  /// The empty string.
  public static var redactedPlaceholder: String { "" }
}

extension Bool: RedactionPlaceholder {
  /// `false`.
  public static var redactedPlaceholder: Bool { false }
}

extension Optional: RedactionPlaceholder {
  /// `nil`.
  public static var redactedPlaceholder: Wrapped? { nil }
}

extension Array: RedactionPlaceholder {
  /// The empty array.
  public static var redactedPlaceholder: [Element] { [] }
}

extension Dictionary: RedactionPlaceholder {
  /// The empty dictionary.
  public static var redactedPlaceholder: [Key: Value] { [:] }
}

extension Set: RedactionPlaceholder {
  /// The empty set.
  public static var redactedPlaceholder: Set<Element> { [] }
}

extension RedactionPlaceholder where Self: Numeric {
  /// Zero.
  public static var redactedPlaceholder: Self { .zero }
}

extension Int: RedactionPlaceholder {}
extension Int8: RedactionPlaceholder {}
extension Int16: RedactionPlaceholder {}
extension Int32: RedactionPlaceholder {}
extension Int64: RedactionPlaceholder {}
extension Int128: RedactionPlaceholder {}
extension UInt: RedactionPlaceholder {}
extension UInt8: RedactionPlaceholder {}
extension UInt16: RedactionPlaceholder {}
extension UInt32: RedactionPlaceholder {}
extension UInt64: RedactionPlaceholder {}
extension UInt128: RedactionPlaceholder {}
extension Float: RedactionPlaceholder {}
extension Double: RedactionPlaceholder {}
