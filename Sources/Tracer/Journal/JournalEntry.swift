import ChronicleStore
import Foundation

/// One action recorded by the tracer: when and why it was sent, what it was, and what happened to
/// it.
///
/// The state is not part of the entry; ask the journal or a snapshot for
/// ``JournalSnapshot/state(after:)``, which recomputes it from the nearest checkpoint.
public struct JournalEntry<Action: Sendable>: Sendable {
  /// What became of the action in the chain.
  public enum Outcome: String, Sendable, Hashable, Codable {
    /// The action reached the reducer.
    case reduced
    /// A middleware after the tracer did not call `next`: the reducer did not run and the state
    /// did not change. Detected when the chain ends with ``ChronicleStore/AnyMiddleware/tracerProbe(_:)``.
    case stopped
  }

  /// The entry's position in its journal. Positions start at 0 when the journal is created and
  /// never shift: committing entries raises the journal's first index instead.
  public let index: Int
  /// The store's sequence number for the action (``/ChronicleStore/ActionMetadata/sequence``).
  public let sequence: UInt64
  /// The wall-clock time at which the tracer received the action: the journal's origin wall time
  /// plus the monotonic time elapsed since, so it never goes back during a recording (it does not
  /// follow changes of the system clock made meanwhile).
  public let wallTime: Date
  /// Monotonic time since the journal's origin at which the tracer received the action.
  public let time: Duration
  /// The context label given to `send(_:context:)`, or inherited from the cause.
  public let context: String?
  /// Who sent the action: the user, or an effect, thunk, timer or middleware started by an
  /// earlier action (``/ChronicleStore/Cause/parent`` is that action's sequence number).
  public let cause: Cause
  /// The action that reached the reducer (as the probe saw it, when there is one), or the
  /// action the tracer passed on.
  public let action: Action
  /// Whether the reducer ran.
  public let outcome: Outcome
  /// The time spent in the rest of the chain after the tracer, the reducer included: from the
  /// tracer passing the action on to the chain returning to it.
  ///
  /// It holds what the middlewares after the tracer do for this action (a logger's rendering, the
  /// effects a thunk or timer starts and the events recorded for them) and the reducer's call; not
  /// the tracer's own recording, nor the one-time setup of the tracer and the logger, done before
  /// the first action's span. The Chrome trace's `dur` and `chronicle summary`'s slowest actions
  /// show this duration.
  public let chainDuration: Duration
  /// The time spent in the reducer alone; `nil` without ``ChronicleStore/AnyMiddleware/tracerProbe(_:)``.
  public let reducerDuration: Duration?
  /// The time from ``time`` to the start of the reducer; `nil` without a probe.
  public let reducerOffset: Duration?
  /// Where in the source the action was sent (``/ChronicleStore/ActionMetadata/site``); `nil`
  /// when the store did not capture call sites or the file it was read from has none.
  public let site: RecordedCallSite?
  /// Where the effect, thunk or timer that sent the action was created
  /// (``/ChronicleStore/ActionMetadata/effectSite``); `nil` for the user's actions.
  public let effectSite: RecordedCallSite?

  /// Creates an entry, for journals built by hand and for tests.
  public init(
    index: Int, sequence: UInt64, wallTime: Date, time: Duration, context: String?, cause: Cause,
    action: Action, outcome: Outcome = .reduced, chainDuration: Duration = .zero,
    reducerDuration: Duration? = nil, reducerOffset: Duration? = nil, site: RecordedCallSite? = nil,
    effectSite: RecordedCallSite? = nil
  ) {
    self.site = site
    self.effectSite = effectSite
    self.index = index
    self.sequence = sequence
    self.wallTime = wallTime
    self.time = time
    self.context = context
    self.cause = cause
    self.action = action
    self.outcome = outcome
    self.chainDuration = chainDuration
    self.reducerDuration = reducerDuration
    self.reducerOffset = reducerOffset
  }
}
