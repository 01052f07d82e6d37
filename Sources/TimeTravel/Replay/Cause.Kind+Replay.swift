import ChronicleStore

extension Cause.Kind {
  /// Applied by replay or time travel.
  @inlinable public static var replay: Cause.Kind { Cause.Kind("replay") }
}
