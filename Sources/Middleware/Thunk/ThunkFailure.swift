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

  /// `thunk "NAME" failed: ERROR`.
  public var description: String { "thunk \"\(thunk)\" failed: \(error)" }
}
