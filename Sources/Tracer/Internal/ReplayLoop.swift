import ChronicleStore

/// Applies the actions of a range of a journal's entries to a state, in order, calling the reducer
/// for those that reached it: the loop every recomputation (``JournalSnapshot/state(after:)``, time
/// travel, commits) runs.
///
/// A journal created with a ``Reducer`` forms it in the client (``Journal/init(initialState:reducer:configuration:)``
/// is inlinable), specialized with the reducer inlined in it, as `Replay.verify`'s loop is: called
/// through the reducer closure instead, each step paid a closure call (`timetravel/jump-replay-step`).
@usableFromInline
package typealias ReplayLoop<State: Sendable, Action: Sendable> =
  @Sendable (_ state: inout State, _ content: JournalContent<State, Action>, _ range: Range<Int>) -> Void

extension JournalContent {
  /// The replay loop that calls `reduce`, for a journal created with a reducer closure.
  package static func replayLoop(
    calling reduce: @escaping @Sendable (inout State, Action) -> Effect<Action>
  )
    -> ReplayLoop<State, Action>
  {
    { state, content, range in
      content.entries.forEach(in: range) { record in
        // Replay is pure: the effect is dropped, never run.
        if !record.flags.contains(.stopped) { _ = reduce(&state, record.action) }
      }
    }
  }
}
