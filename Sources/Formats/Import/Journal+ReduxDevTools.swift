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
    var content = JournalContent<State, Action>(
      originWallNanos: 0, originMonotonic: 0, checkpointInterval: configuration.effectiveCheckpointInterval,
      chunkCapacity: 1024)
    // A lifted export of a journal without a base state (nothing recorded yet) has `null` for
    // it: unless `null` is a `State`, the journal imports without one too, its first checkpoint
    // the state after the first action.
    let liftedWithoutBase = file.isLifted && file.baseState == .null
    do throws(JournalImportError) {
      let base = try decoder.decode(State.self, from: file.baseState, path: file.baseStatePath)
      content.checkpoints.append(
        JournalCheckpoint(index: 0, kind: .resync, state: base), size: configuration.size(of: base))
      content.stateShape = TypeFingerprint.shape(of: base)
    } catch {
      guard liftedWithoutBase else { throw error }
    }
    while let action = try file.nextAction(rejectingUnreplayable: true) {
      if action.ordinal == 0, let wall = action.wallTime { content.originWallNanos = wall }
      // States computed by the extension become checkpoints, as a recorded journal keeps them.
      // computedStates[k] is the state after stagedActionIds[k]: the one before this action is
      // at `position - 1`.
      if action.ordinal > 0, action.ordinal % content.checkpointInterval == 0 || content.checkpoints.isEmpty,
        let position = action.stagedPosition,
        let computed = try file.computedState(at: position - 1, entry: action.ordinal)
      {
        let state = try decoder.decode(State.self, from: computed.value, path: computed.path)
        if content.checkpoints.isEmpty { content.stateShape = TypeFingerprint.shape(of: state) }
        content.checkpoints.append(
          JournalCheckpoint(
            index: action.ordinal, kind: content.checkpoints.isEmpty ? .resync : .interval, state: state),
          size: configuration.size(of: state))
      }
      try append(action, into: &content)
    }
    let now = MonotonicClock.now()
    let wallNow = Int64((Date().timeIntervalSince1970 * 1e9).rounded())
    content.originMonotonic = now &- (wallNow &- content.originWallNanos)
    return content
  }

  private func append(
    _ action: ReduxDevToolsAction, into content: inout JournalContent<State, Action>
  ) throws(JournalImportError) {
    let decoded = try decoder.decode(
      Action.self, from: action.payload(), path: action.flux.path.appending("payload"))
    let cause = action.cause
    let record = EntryRecord(
      sequence: action.sequence, time: 0,
      parent: cause.parent ?? 0, effect: cause.effect ?? 0, chainNanos: 0,
      reducerNanos: EntryRecord<Action>.unknownDuration,
      reducerOffsetNanos: EntryRecord<Action>.unknownDuration,
      context: content.strings.code(for: action.context, at: content.entries.endIndex),
      causeLabel: content.strings.code(for: cause.label, at: content.entries.endIndex),
      site: content.sites.code(for: action.site, effectSite: action.effectSite),
      causeKind: cause.kind.code, flags: action.stopped ? .stopped : [], action: decoded)
    content.appendImported(
      record, wallTime: (action.wallTime ?? content.originWallNanos) &- content.originWallNanos)
  }
}
