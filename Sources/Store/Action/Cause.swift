/// Why an action was processed: sent by the user, or by work that an earlier action started.
///
/// Every processed action carries its cause, so a journal can show which
/// action caused which. `parent` is the sequence number of the action whose processing started
/// the effect, thunk or timer that sent this one.
public struct Cause: Sendable, Hashable, Codable, CustomStringConvertible {
  /// What kind of sender an action had: an open set of names, so that each module declares the
  /// kinds of the work it starts.
  ///
  /// The store declares the kinds it starts itself (``user``, ``effect``, ``middleware``,
  /// ``stream``, and ``inspector`` for actions a live inspector dispatches); other modules add theirs (ChronicleMiddleware declares `thunk` and `timer`,
  /// ChronicleTimeTravel declares `replay`), and so can an app:
  ///
  /// ```swift
  /// extension Cause.Kind {
  ///   static let socket = Cause.Kind("socket")
  /// }
  /// ```
  ///
  /// A kind is its name: two kinds with the same raw value are equal, and a journal stores the
  /// name, so a journal read back keeps a kind its reader does not declare.
  public struct Kind: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The kind's name, as journals and exports write it.
    public let rawValue: String

    /// Creates the kind named `rawValue`.
    ///
    /// - Parameter rawValue: The name, such as `"socket"`.
    @inlinable
    public init(rawValue: String) {
      self.rawValue = rawValue
    }

    /// Creates the kind named `name`.
    ///
    /// - Parameter name: The name, such as `"socket"`.
    @inlinable
    public init(_ name: String) {
      self.rawValue = name
    }

    /// The kind's name.
    public var description: String { rawValue }

    /// Whether `other` is this kind in the same representation in memory, read without copying
    /// its string: `true` means the same kind; `false` does not tell (equal strings may be
    /// represented differently), nor does it on a platform where a string is not two words.
    @inlinable package func hasRepresentation(of other: inout Kind) -> Bool {
      guard MemoryLayout<Kind>.size == MemoryLayout<(UInt, UInt)>.size else { return false }
      return withUnsafeBytes(of: &other) { $0.load(as: (UInt, UInt).self) }
        == unsafeBitCast(self, to: (UInt, UInt).self)
    }

    // Computed and inlinable rather than stored: a stored static is initialized lazily and
    // checked on every read, and `.user` is read on every `send`.

    /// Sent with `Store.send` by application code.
    @inlinable public static var user: Kind { Kind("user") }
    /// Sent by an ``Effect`` returned from a reducer.
    @inlinable public static var effect: Kind { Kind("effect") }
    /// Sent by a middleware through ``MiddlewareContext/send(_:context:as:label:fileID:line:function:)``.
    @inlinable public static var middleware: Kind { Kind("middleware") }
    /// Sent by an external stream bound to the store.
    @inlinable public static var stream: Kind { Kind("stream") }
    /// Sent from a live inspector connected to the app (ChronicleLiveLink's `dispatch` command).
    @inlinable public static var inspector: Kind { Kind("inspector") }
  }

  /// The kind of sender.
  public var kind: Kind
  /// The sequence number of the action whose processing started the sender; `nil` for the user.
  public var parent: UInt64?
  /// The serial number of the effect instance that sent the action, if any (see ``EffectEvent``).
  public var effect: UInt64?
  /// A label for the sender: the effect's cancellation id, the thunk's name, the timer's id, or
  /// the name of the middleware that sent the action (``AnyMiddleware/name``).
  public var label: String?

  /// Creates a cause.
  @inlinable
  public init(kind: Kind, parent: UInt64? = nil, effect: UInt64? = nil, label: String? = nil) {
    self.kind = kind
    self.parent = parent
    self.effect = effect
    self.label = label
  }

  /// The cause of an action sent directly by application code.
  public static var user: Cause { Cause(kind: .user) }

  /// A short description such as `user` or `timer "tick" ← #12`.
  public var description: String {
    var text = kind.rawValue
    if let label { text += " \"\(label)\"" }
    if let parent { text += " ← #\(parent)" }
    return text
  }
}
