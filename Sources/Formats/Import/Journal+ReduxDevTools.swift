import ChronicleJSON
import ChronicleStore
import ChronicleTracer
import Foundation

extension Journal where State: Decodable, Action: Decodable {
  /// Imports a Redux DevTools file in either form written by
  /// ``JournalSnapshot/reduxDevTools(_:options:)`` (see docs/formats/redux-devtools.md).
  ///
  /// Each action's `payload` is decoded as an `Action` and the base state (`preloadedState`, or
  /// `committedState`) as a `State`; the `meta` of each action, when present, restores its
  /// sequence number, context and cause. In the lifted form, skipped actions are imported as
  /// ``/ChronicleTracer/JournalEntry/Outcome/stopped`` and the computed states become checkpoints.
  /// Times are not part of these files: entries get their timestamp (lifted form) or none.
  public convenience init<R: Reducer>(
    reduxDevTools data: Data, reducer: R,
    configuration: Configuration = Configuration(maxEntries: nil, maxBytes: nil),
    limits: JournalImportLimits = .default
  ) throws(JournalImportError) where R.State == State, R.Action == Action {
    let importer = ReduxDevToolsImporter<State, Action>(limits: limits, configuration: configuration)
    let content = try importer.content(from: data)
    self.init(content: content, configuration: configuration) { reducer.reduce(into: &$0, action: $1) }
  }
}

/// Reads both Redux DevTools forms into journal content.
struct ReduxDevToolsImporter<State: Decodable & Sendable, Action: Decodable & Sendable> {
  let limits: JournalImportLimits
  let configuration: Journal<State, Action>.Configuration
  private let decoder = TypedDecoder()

  init(limits: JournalImportLimits, configuration: Journal<State, Action>.Configuration) {
    self.limits = limits
    self.configuration = configuration
  }

  func content(from data: Data) throws(JournalImportError) -> JournalContent<State, Action> {
    guard data.count <= limits.maxBytes else {
      throw .tooLarge(entry: nil, field: FieldPath().description, limit: limits.maxBytes)
    }
    let root: JSONValue
    do throws(JSONParser.Failure) {
      root = try JSONParser.parse(Array(data), limits: limits.parser, path: FieldPath())
    } catch {
      throw JournalImportError(error)
    }
    var file = try ReduxDevToolsFile(FieldReader(root, path: FieldPath()), limits: limits)
    let checkpointInterval = configuration.effectiveCheckpointInterval
    var content = JournalContent<State, Action>(
      originWallNanos: 0, originMonotonic: 0, checkpointInterval: checkpointInterval, chunkCapacity: 1024)
    content.setOrigin(wallNanos: 0)
    // A lifted export of a journal without a base state (nothing recorded yet) has `null` for
    // it: unless `null` is a `State`, the journal imports without one too, its first checkpoint
    // the state after the first action.
    let liftedWithoutBase = file.isLifted && file.baseState == .null
    do throws(JournalImportError) {
      let base = try decoder.decode(State.self, from: file.baseState, path: file.baseStatePath)
      content.appendCheckpoint(
        JournalCheckpoint(index: 0, kind: .resync, state: base), size: configuration.size(of: base))
      content.noteStateShape(of: base)
    } catch {
      guard liftedWithoutBase else { throw error }
    }
    while let action = try file.nextAction(rejectingUnreplayable: true) {
      if action.ordinal == 0, let wall = action.wallTime { content.setOrigin(wallNanos: wall) }
      // States computed by the extension become checkpoints, as a recorded journal keeps them.
      // computedStates[k] is the state after stagedActionIds[k]: the one before this action is
      // at `position - 1`.
      if action.ordinal > 0, action.ordinal % checkpointInterval == 0 || content.lastCheckpointIndex == nil,
        let position = action.stagedPosition,
        let computed = try file.computedState(at: position - 1, entry: action.ordinal)
      {
        let state = try decoder.decode(State.self, from: computed.value, path: computed.path)
        let isFirst = content.lastCheckpointIndex == nil
        if isFirst { content.noteStateShape(of: state) }
        content.appendCheckpoint(
          JournalCheckpoint(index: action.ordinal, kind: isFirst ? .resync : .interval, state: state),
          size: configuration.size(of: state))
      }
      try append(action, into: &content)
    }
    return content
  }

  private func append(
    _ action: ReduxDevToolsAction, into content: inout JournalContent<State, Action>
  ) throws(JournalImportError) {
    let decoded = try decoder.decode(
      Action.self, from: action.payload(), path: action.flux.path.appending("payload"))
    content.appendImportedEntry(
      sequence: action.sequence, time: 0, wallNanos: action.wallTime, context: action.context,
      cause: action.cause, site: action.site, effectSite: action.effectSite, stopped: action.stopped,
      chainNanos: 0, reducerNanos: EntryNumbers.unknownDuration,
      reducerOffsetNanos: EntryNumbers.unknownDuration,
      action: decoded)
  }
}
