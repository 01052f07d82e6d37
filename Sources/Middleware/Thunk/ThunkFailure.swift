import ChronicleInspection

/// An error a thunk threw, as its `onError` handler receives it.
///
/// ```swift
/// .thunks(dependencies: api, onError: { failure in .failed("\(failure.thunk): \(failure.error)") }) {
///   $0 == .load ? .loadTodos : nil
/// }
/// ```
public struct ThunkFailure: Error, Sendable, CustomStringConvertible {
  /// The name of the thunk that threw.
  public var thunk: String
  /// The error it threw.
  public var error: any Error

  /// Creates a failure.
  public init(thunk: String, error: any Error) {
    self.thunk = thunk
    self.error = error
  }

  /// `thunk "NAME" failed: ERROR`, where `ERROR` is the error's description, or its dump with
  /// `<redacted>` parts when it holds a value marked as sensitive.
  ///
  /// A handler that logs or reports the failure under the app's policy writes
  /// ``description(redaction:)`` instead.
  public var description: String { description(redaction: .default) }

  /// `thunk "NAME" failed: ERROR`, where `ERROR` is the error's description, or its dump with
  /// `<redacted>` parts when it holds a value marked as sensitive or selected by `redaction`.
  ///
  /// - Parameter redaction: The policy of the app's logger and exports, such as
  ///   `Redaction(keys: ["token"])`.
  /// - Returns: The failure's text, without a value the policy hides.
  public func description(redaction: Redaction) -> String {
    "thunk \"\(thunk)\" failed: \(SafeDescription.of(error, redaction: redaction))"
  }
}
