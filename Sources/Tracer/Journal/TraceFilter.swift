import ChronicleStore

/// Decides which actions a journal records.
///
/// An action is recorded when every rule agrees:
/// - its context label is not ``untracedContext`` (the per-send opt-out:
///   `store.send(.tick, context: TraceFilter.untracedContext)`), and the action does not opt out
///   through ``TraceableAction/shouldTrace``;
/// - its context label is in ``allowedContexts`` (when set) and not in ``deniedContexts``;
/// - its case name (`increment` for `.increment`, `add` for `.add(5)`) is in ``allowedActions``
///   (when set) and not in ``deniedActions``;
/// - its cause's kind is in ``allowedCauses`` (when set) and not in ``deniedCauses``;
/// - ``predicate``, when set, returns `true`.
///
/// Actions left out still reach the reducer. The journal keeps replaying correctly: the first
/// entry recorded after any left-out action stores the store's state as a
/// ``JournalCheckpoint/Kind/resync`` checkpoint — one state copy per gap, so prefer recording
/// to filtering out frequent actions when the state is large.
///
/// ```swift
/// var filter = TraceFilter<AppAction>.all
/// filter.deniedActions = ["tick"]
/// filter.deniedContexts = ["Diagnostics"]
/// ```
public struct TraceFilter<Action: Sendable>: Sendable {
  /// The context label that keeps a send, and the actions its effects send, out of the journal.
  public static var untracedContext: String { "untraced" }

  /// Records every action (except those that opt out per send).
  public static var all: TraceFilter { TraceFilter() }

  /// Context labels to record; `nil` records every label, and actions without one.
  public var allowedContexts: Set<String>?
  /// Context labels never to record.
  public var deniedContexts: Set<String> = []
  /// Case names to record; `nil` records all.
  public var allowedActions: Set<String>?
  /// Case names never to record.
  public var deniedActions: Set<String> = []
  /// Cause kinds to record; `nil` records all.
  public var allowedCauses: Set<Cause.Kind>?
  /// Cause kinds never to record.
  public var deniedCauses: Set<Cause.Kind> = []
  /// A last say, given the action and its metadata: return `false` to leave it out.
  public var predicate: (@Sendable (_ action: Action, _ metadata: ActionMetadata) -> Bool)?

  /// A filter that records every action, refined by setting its properties.
  public init() {}

  /// A filter that records the actions for which `predicate` returns `true`.
  public init(_ predicate: @escaping @Sendable (_ action: Action, _ metadata: ActionMetadata) -> Bool) {
    self.predicate = predicate
  }

  /// Whether the journal records `action`.
  public func shouldRecord(_ action: Action, metadata: ActionMetadata) -> Bool {
    if let context = metadata.context {
      if context == Self.untracedContext || deniedContexts.contains(context) { return false }
      if let allowedContexts, !allowedContexts.contains(context) { return false }
    } else if allowedContexts != nil {
      return false
    }
    if let traceable = action as? any TraceableAction, !traceable.shouldTrace { return false }
    if allowedActions != nil || !deniedActions.isEmpty {
      let name = ActionName.of(action)
      if deniedActions.contains(name) { return false }
      if let allowedActions, !allowedActions.contains(name) { return false }
    }
    if deniedCauses.contains(metadata.cause.kind) { return false }
    if let allowedCauses, !allowedCauses.contains(metadata.cause.kind) { return false }
    if let predicate, !predicate(action, metadata) { return false }
    return true
  }

  /// Whether every action passes without looking at it, except for the context opt-out, which
  /// the tracer checks itself; lets the tracer skip the filter's cost per action.
  var recordsEverything: Bool {
    allowedContexts == nil && deniedContexts.isEmpty && allowedActions == nil && deniedActions.isEmpty
      && allowedCauses == nil && deniedCauses.isEmpty && predicate == nil
  }
}
