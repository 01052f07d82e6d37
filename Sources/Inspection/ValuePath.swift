/// The location of a value inside another one: `todos[2].done`, `user.name`, `settings["theme"]`.
///
/// ``StateDiff`` reports each change at a path, and a ``Redaction`` rule receives the path of every
/// value it is asked about. A path is a list of ``Component``s read from the root:
///
/// | Component                  | Written as    | Stands for                                   |
/// |----------------------------|---------------|----------------------------------------------|
/// | `.property("name")`        | `.name`       | a stored property, or a tuple element (`.0`) |
/// | `.index(2)`                | `[2]`         | an element of an array or other collection   |
/// | `.key(#""theme""#)`        | `["theme"]`   | the value of a dictionary entry              |
/// | `.case("loaded")`          | `.loaded`     | the payload of an enum case                  |
///
/// A leading property is written without its dot (`user.name`), and the empty path, the root
/// value itself, is written `self`. An enum payload is addressed through its case, then through
/// the payload's labels when it has several values: `status.loaded` for `case loaded(Int)`,
/// `status.failed.code` for `case failed(code: Int, message: String)`.
public struct ValuePath: Sendable, Hashable, CustomStringConvertible, ExpressibleByArrayLiteral {
  /// One step from a value into one of its parts.
  public enum Component: Sendable, Hashable, CustomStringConvertible {
    /// A stored property by name, or a tuple element by label or position (`"0"`).
    case property(String)
    /// A position in an array or another ordered collection.
    case index(Int)
    /// A dictionary entry, held as its key rendered inline by ``ValueDump/renderInline(_:redaction:maxDepth:)``:
    /// `"theme"` (with its quotes) for the `String` key `theme`, `42` for the `Int` key `42`,
    /// `.dark` for an enum key. ``stringKey(_:)`` builds the component for a `String` key.
    case key(String)
    /// The payload of an enum case, by case name.
    case `case`(String)

    /// The component of the dictionary entry whose key is the string `key`.
    ///
    /// - Parameter key: The dictionary key, without quotes.
    /// - Returns: `.key` holding the quoted, escaped key: `.stringKey("theme") == .key(#""theme""#)`.
    public static func stringKey(_ key: String) -> Component {
      .key(key.debugDescription)
    }

    /// The component as it appears in a path: `.name`, `[2]`, `["theme"]` or `.loaded`.
    public var description: String {
      switch self {
      case .property(let name), .case(let name): "." + name
      case .index(let index): "[\(index)]"
      case .key(let key): "[\(key)]"
      }
    }
  }

  /// The components, from the root to the value.
  public var components: [Component]

  /// A path made of the given components.
  ///
  /// - Parameter components: The components from the root; none for the root itself.
  public init(_ components: [Component] = []) {
    self.components = components
  }

  /// A path written as an array literal: `[.property("todos"), .index(2)]`.
  ///
  /// - Parameter elements: The components from the root.
  public init(arrayLiteral elements: Component...) {
    self.init(elements)
  }

  /// The path of the root value: no components, written `self`.
  public static var root: ValuePath { ValuePath() }

  /// The path of a part of the value at this path.
  ///
  /// - Parameter component: The step from this value into its part.
  /// - Returns: This path followed by `component`.
  public func appending(_ component: Component) -> ValuePath {
    var path = self
    path.components.append(component)
    return path
  }

  /// The path in Swift-like notation: `todos[2].done`, `settings["theme"]`, `status.loaded.count`,
  /// or `self` for the root.
  public var description: String {
    guard let first = components.first else { return "self" }
    var text = ""
    if case .property(let name) = first {
      text = name
    } else {
      text = first.description
    }
    for component in components.dropFirst() {
      text += component.description
    }
    return text
  }
}
