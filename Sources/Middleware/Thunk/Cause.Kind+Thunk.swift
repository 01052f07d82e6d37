import ChronicleStore

extension Cause.Kind {
  /// Sent by a thunk (``Thunk``).
  @inlinable public static var thunk: Cause.Kind { Cause.Kind("thunk") }
}
