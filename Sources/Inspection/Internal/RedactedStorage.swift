/// What the inspectors need from ``Redacted`` without knowing its `Value`: the value, to decide
/// whether two redacted values differ without ever printing them, and the knowledge that a stored
/// property holding it is a property wrapper's storage (`_password` stands for `password`).
protocol RedactedStorage: SendableMetatype {
  /// The wrapped value. Only compared, never rendered.
  var unredactedValue: Any { get }
}
