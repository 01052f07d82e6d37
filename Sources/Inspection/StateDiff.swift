/// What changed between two values, part by part: the "diff" a logger prints after each action.
///
/// ```swift
/// StateDiff.render(from: before, to: after)
/// // todos[2].done: false → true
/// // todos[3]: added Todo(title: "Eggs", done: false)
/// ```
///
/// ## Rules
///
/// - Two parts are compared with their own `==` when they are `Equatable` values of one type;
///   an equal part is skipped whole, which is what makes diffing a large state cheap.
/// - Structs, tuples and classes are compared field by field, in declaration order. The same
///   object on both sides has not changed; two objects are compared by their fields, and a cycle
///   is followed only once.
/// - Enums: a different case is one change at the enum's path; the same case is compared through
///   its payload, at `path.case` (`status.loaded`) or, for a payload of several values,
///   `path.case.label` (`status.failed.code`, `status.pair.0`).
/// - Optionals: `nil` against a value is one change; two values are compared as such.
/// - Arrays: the common prefix and suffix are set aside; the elements left in the middle are
///   compared position by position, and the surplus of the longer side is reported as removed (at
///   old positions) or added (at new positions). One element inserted into 10,000 is one change.
/// - Dictionaries: entries are matched by key, reported as removed, added or compared, ordered by
///   key as ``ValueDump`` orders them.
/// - Sets: the elements only one side holds, removed or added, at the path of the set, in the
///   order ``ValueDump`` uses.
/// - Values of different types, and values without parts (numbers, strings, dates), are one change.
/// - A value marked as sensitive or selected by the `redaction` policy is compared but never
///   descended into: if it changed, the report reads `password: <redacted> → <redacted>`.
///
/// Both sides of a change are rendered with ``ValueDump/renderInline(_:redaction:maxDepth:)``,
/// except that an enum at the changed path is written `.case` without its type.
public enum StateDiff {
  /// One difference between two values.
  public struct Change: Sendable, Hashable, CustomStringConvertible {
    /// How a part differs.
    public enum Kind: Sendable, Hashable {
      /// The part exists on both sides with different values.
      case changed
      /// The part exists only in the new value: an array element, a dictionary entry or a set
      /// element.
      case added
      /// The part exists only in the old value.
      case removed
    }

    /// Where the part is: `todos[2].done`.
    public var path: ValuePath
    /// How it differs.
    public var kind: Kind
    /// The old value rendered inline and redacted; `nil` for ``Kind/added``.
    public var old: String?
    /// The new value rendered inline and redacted; `nil` for ``Kind/removed``.
    public var new: String?

    /// A change as reported by ``StateDiff/changes(from:to:redaction:)``.
    ///
    /// - Parameters:
    ///   - path: Where the part is.
    ///   - kind: How it differs.
    ///   - old: The old value as text; `nil` for an added part.
    ///   - new: The new value as text; `nil` for a removed part.
    public init(path: ValuePath, kind: Kind, old: String?, new: String?) {
      self.path = path
      self.kind = kind
      self.old = old
      self.new = new
    }

    /// One line: `todos[2].done: false → true`, `todos[3]: added Todo(…)` or
    /// `todos[1]: removed Todo(…)`.
    public var description: String {
      switch kind {
      case .changed: "\(path): \(old ?? "nil") → \(new ?? "nil")"
      case .added: "\(path): added \(new ?? "nil")"
      case .removed: "\(path): removed \(old ?? "nil")"
      }
    }
  }

  /// The changes that turn `old` into `new`, in a stable order: fields in declaration order,
  /// collections by position or by key.
  ///
  /// - Parameters:
  ///   - old: The value before, typically the state before an action.
  ///   - new: The value after.
  ///   - redaction: Which values to hide, besides those marked as sensitive.
  /// - Returns: The changes; empty when the values are equal.
  public static func changes<Value>(
    from old: Value, to new: Value, redaction: Redaction = .default
  ) -> [Change] {
    var differ = StateDiffer(redaction: redaction)
    differ.compare(old, new)
    return differ.changes
  }

  /// The changes that turn `old` into `new`, one ``Change/description`` per line.
  ///
  /// - Parameters:
  ///   - old: The value before.
  ///   - new: The value after.
  ///   - redaction: Which values to hide, besides those marked as sensitive.
  /// - Returns: The lines joined by `\n`, without a trailing newline; empty when nothing changed.
  public static func render<Value>(from old: Value, to new: Value, redaction: Redaction = .default) -> String
  {
    changes(from: old, to: new, redaction: redaction).map(\.description).joined(separator: "\n")
  }
}
