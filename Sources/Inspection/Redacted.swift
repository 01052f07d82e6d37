/// A value that is kept in memory but never shown: printing, dumping, reflecting, diffing or
/// encoding it yields the placeholder `<redacted>`.
///
/// Use it as a property wrapper in a state type, or as a plain value:
///
/// ```swift
/// struct Login: Equatable, Codable {
///   var user = ""
///   @Redacted var password = ""
/// }
///
/// let token = Redacted("hunter2")
/// print(token)            // <redacted>
/// token.wrappedValue      // "hunter2"
/// ```
///
/// Encoding writes the string `"<redacted>"`, so a JSON journal never holds the secret; the one
/// exception is `StatePersistence` (ChroniclePersistence), which keeps the real value in the app's
/// own state file so that a restart does not lose it. Decoding restores a real value when the
/// input holds one; when it finds the placeholder it produces ``RedactionPlaceholder/redactedPlaceholder`` if `Value` conforms to
/// ``RedactionPlaceholder``, and throws `DecodingError.dataCorrupted` otherwise. (A
/// `Redacted<String>` whose real value is the text `<redacted>` therefore decodes as `""`.)
@propertyWrapper
public struct Redacted<Value> {
  /// The secret itself. Reading it is the only way to see the value.
  public var wrappedValue: Value

  /// Wraps a value; this is the initializer `@Redacted var password = ""` calls.
  ///
  /// - Parameter wrappedValue: The secret to keep.
  public init(wrappedValue: Value) {
    self.wrappedValue = wrappedValue
  }

  /// Wraps a value, for use outside of a property declaration: `Redacted("hunter2")`.
  ///
  /// - Parameter value: The secret to keep.
  public init(_ value: Value) {
    self.wrappedValue = value
  }
}

extension Redacted: SensitiveValue {}

extension Redacted: RedactedStorage {
  var unredactedValue: Any { wrappedValue }
}

extension Redacted: Sendable where Value: Sendable {}

extension Redacted: Equatable where Value: Equatable {}

extension Redacted: Hashable where Value: Hashable {}

extension Redacted: CustomStringConvertible {
  /// Always `<redacted>`, whatever the value.
  public var description: String { Redaction.placeholder }
}

extension Redacted: CustomDebugStringConvertible {
  /// Always `<redacted>`, whatever the value; this is what `dump()` and `debugPrint()` show.
  public var debugDescription: String { Redaction.placeholder }
}

extension Redacted: CustomReflectable {
  /// A mirror without children, so that reflection-based printers (`dump()`, `print()` of an
  /// enclosing value, third-party dumpers) fall back to the `<redacted>` description.
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: [Any](), displayStyle: nil)
  }
}

extension Redacted: Encodable where Value: Encodable {
  /// Encodes the placeholder string `"<redacted>"`, never the value, except for
  /// `StatePersistence` (ChroniclePersistence), which writes the value itself.
  ///
  /// - Parameter encoder: The encoder to write to.
  public func encode(to encoder: any Encoder) throws {
    if encoder.userInfo[.keepsRedactedValues] as? Bool == true {
      try wrappedValue.encode(to: encoder)
      return
    }
    var container = encoder.singleValueContainer()
    try container.encode(Redaction.placeholder)
  }
}

extension Redacted: Decodable where Value: Decodable {
  /// Decodes a real value when the input holds one, or a stand-in when it holds the placeholder.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError.dataCorrupted` when the input holds the placeholder and `Value` does
  ///   not conform to ``RedactionPlaceholder``; any error of decoding `Value` otherwise.
  public init(from decoder: any Decoder) throws {
    if decoder.userInfo[.keepsRedactedValues] as? Bool == true {
      self.init(wrappedValue: try Value(from: decoder))
      return
    }
    let container = try decoder.singleValueContainer()
    guard (try? container.decode(String.self)) == Redaction.placeholder else {
      self.init(wrappedValue: try Value(from: decoder))
      return
    }
    guard
      let placeholderType = Value.self as? any RedactionPlaceholder.Type,
      let placeholder = placeholderType.redactedPlaceholder as? Value
    else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: """
            The \(Value.self) value was redacted at capture and cannot be restored; conform \
            \(Value.self) to RedactionPlaceholder to decode a stand-in value.
            """
        )
      )
    }
    self.init(wrappedValue: placeholder)
  }
}

extension CodingUserInfoKey {
  /// Set to `true` by `StatePersistence` (ChroniclePersistence): a ``Redacted`` value is encoded
  /// and decoded as its real value rather than as the placeholder, so that persisted state
  /// survives a restart.
  package static let keepsRedactedValues: CodingUserInfoKey = {
    guard let key = CodingUserInfoKey(rawValue: "chronicle.keepsRedactedValues") else {
      preconditionFailure(
        "CodingUserInfoKey(rawValue:) accepts every string; it is failable only for RawRepresentable")
    }
    return key
  }()
}
