import ChronicleStore
import Synchronization

extension AnyMiddleware {
  /// A middleware that records every action it sees into `journal`, with its metadata, cause and
  /// timings, and the lifecycle of the effects, thunks and timers the store runs.
  ///
  /// Put it first in the chain, so that it sees every action, including those a later middleware
  /// stops or handles itself (a thunk middleware, say):
  ///
  /// ```swift
  /// let journal = Journal(reducer: App())
  /// let store = Store(
  ///   initialState: App.State(), reducer: App(),
  ///   middleware: [.tracer(journal), .thunks(), .tracerProbe(journal)])
  /// ```
  ///
  /// Add ``tracerProbe(_:)`` last for exact records: with it, the journal knows whether each
  /// action reached the reducer, which action did (after any middleware transformed it), and how
  /// long the reducer alone took. Without it, every action is assumed to reach the reducer
  /// unchanged.
  ///
  /// Recording skips actions while the journal ``Journal/isPaused``, actions sent with the
  /// context ``TraceFilter/untracedContext``, and those the journal's
  /// ``Journal/Configuration/filter`` leaves out.
  @inlinable
  public static func tracer(_ journal: Journal<State, Action>) -> AnyMiddleware {
    let tracer = TracerMiddleware(journal: journal)
    return AnyMiddleware(
      name: "tracer",
      handle: { action, context, next in tracer.handle(action, context: context, next: next) },
      event: { event, _ in tracer.handle(event) })
  }

  /// The end of the chain as the tracer sees it: place it last, after every middleware that may
  /// stop or transform actions, in a store that also has ``tracer(_:)`` for `journal`.
  ///
  /// It records which action reached the reducer and how long the reducer took; the tracer adds
  /// that to its entry, and marks actions that never got here as
  /// ``JournalEntry/Outcome/stopped``.
  @inlinable
  public static func tracerProbe(_ journal: Journal<State, Action>) -> AnyMiddleware {
    journal.hasProbe.store(true, ordering: .relaxed)
    let probe = TracerProbe(journal: journal)
    return AnyMiddleware(name: "tracerProbe") { action, context, next in
      probe.handle(action, context: context, next: next)
    }
  }
}
