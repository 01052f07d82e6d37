import ChronicleStore

/// A live action that reached the store while ``TimeTravel`` showed the past: held back under
/// ``LiveActionPolicy/locked``, or dropped under ``LiveActionPolicy/dropped``.
public struct LiveAction<Action: Sendable>: Sendable {
  /// The action.
  public let action: Action
  /// The context label it was sent with.
  public let context: String?
  /// Who sent it.
  public let cause: Cause
  /// The sequence number the store gave it when it arrived. A held action gets a new one when
  /// it is applied.
  public let sequence: UInt64
  /// Where it was sent (``/ChronicleStore/ActionMetadata/site``): kept for when a held action is
  /// applied.
  public var site: CallSite?
  /// Where the effect that sent it was created (``/ChronicleStore/ActionMetadata/effectSite``).
  public var effectSite: CallSite?
  /// The store's propagated task-locals as they were when it arrived: bound again when a held
  /// action is applied.
  package var taskLocals: TaskLocalSnapshot?

  /// Creates a record of a live action.
  public init(
    action: Action, context: String?, cause: Cause, sequence: UInt64, site: CallSite? = nil,
    effectSite: CallSite? = nil
  ) {
    self.action = action
    self.context = context
    self.cause = cause
    self.sequence = sequence
    self.site = site
    self.effectSite = effectSite
  }
}
