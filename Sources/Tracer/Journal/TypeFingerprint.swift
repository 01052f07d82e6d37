/// What a journal file says about the state or action type it was recorded with, so that an
/// import into other types is refused with an error naming the difference.
///
/// The ``name`` is the module-qualified type name (`MyApp.Counter.State`; private and local types
/// lose the anonymous context the runtime adds, which changes between builds). The ``shape``,
/// recorded for states, lists the stored properties and their types (`count: Int, log: [String]`),
/// so a state that kept its name but changed its fields is refused as well.
public struct TypeFingerprint: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The module-qualified type name.
  public var name: String
  /// The stored properties and their types, from reflecting a value; `nil` when unknown.
  public var shape: String?

  /// Creates a fingerprint.
  public init(name: String, shape: String? = nil) {
    self.name = name
    self.shape = shape
  }

  /// The fingerprint of a type, without a shape.
  public static func of(_ type: Any.Type) -> TypeFingerprint {
    TypeFingerprint(name: qualifiedName(of: type))
  }

  /// The fingerprint of a value's type, with the shape of its stored properties.
  public static func of(value: Any) -> TypeFingerprint {
    TypeFingerprint(name: qualifiedName(of: type(of: value)), shape: shape(of: value))
  }

  /// `name`, and the shape in braces when there is one.
  public var description: String {
    guard let shape else { return name }
    return "\(name) {\(shape)}"
  }

  /// What differs between this fingerprint (expected) and `found`, in words; `nil` when they
  /// match. A missing shape on either side is not a difference.
  public func difference(from found: TypeFingerprint) -> String? {
    if name != found.name { return "expected type \(name), found \(found.name)" }
    guard let shape, let other = found.shape, shape != other else { return nil }
    let expectedFields = Self.fields(shape)
    let foundFields = Self.fields(other)
    var parts: [String] = []
    let missing = expectedFields.filter { !foundFields.contains($0) }
    let extra = foundFields.filter { !expectedFields.contains($0) }
    if !missing.isEmpty { parts.append("the file lacks \(missing.joined(separator: ", "))") }
    if !extra.isEmpty { parts.append("the file has \(extra.joined(separator: ", ")) that \(name) does not") }
    if parts.isEmpty { parts.append("the fields are in another order: {\(other)}") }
    return "\(name) changed: " + parts.joined(separator: "; ")
  }

  private static func fields(_ shape: String) -> [String] {
    var fields: [String] = []
    var depth = 0
    var current = ""
    for character in shape {
      switch character {
      case "<", "[", "(": depth += 1
      case ">", "]", ")": depth -= 1
      case "," where depth == 0:
        fields.append(current.trimmingSpaces())
        current = ""
        continue
      default: break
      }
      current.append(character)
    }
    if !current.trimmingSpaces().isEmpty { fields.append(current.trimmingSpaces()) }
    return fields
  }

  package static func qualifiedName(of type: Any.Type) -> String {
    var name = String(reflecting: type)
    // Private and local types: `Module.(unknown context at $10a3b4c).Name`.
    while let start = name.range(of: "(unknown context at "),
      let end = name[start.upperBound...].range(of: ").")
    {
      name.removeSubrange(start.lowerBound..<end.upperBound)
    }
    return name
  }

  package static func shape(of value: Any) -> String? {
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .struct?, .class?:
      return mirror.children.map { child in
        "\(child.label ?? "_"): \(String(describing: Swift.type(of: child.value)))"
      }.joined(separator: ", ")
    default:
      return nil
    }
  }
}

extension String {
  fileprivate func trimmingSpaces() -> String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
