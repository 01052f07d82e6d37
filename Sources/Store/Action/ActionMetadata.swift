import Foundation

/// What the store knows about an action while it is processed.
///
/// Middlewares read it through ``MiddlewareContext/metadata``; the tracer journals it.
public struct ActionMetadata: Sendable, Hashable {
  /// The position of the action in the store's total order, starting at 1.
  public var sequence: UInt64
  /// The wall-clock time at which the store began processing the action.
  public var timestamp: Date
  /// The context label given to `send(_:context:)`, such as the screen or feature that sent it.
  public var context: String?
  /// Who sent the action.
  public var cause: Cause

  /// Creates metadata.
  public init(sequence: UInt64, timestamp: Date, context: String?, cause: Cause) {
    self.sequence = sequence
    self.timestamp = timestamp
    self.context = context
    self.cause = cause
  }
}
