import Foundation

/// The steps of the Redux DevTools extension that docs/formats/redux-devtools.md relies on
/// (what an instance holds after `connect`, `init` and `send`, and after an import), written
/// again from its source (reduxjs/redux-devtools at 4b1d1d6). Values are JSON as
/// `JSONSerialization` reads it, which is what `jsan.parse` reads of text without jsan's
/// references.
enum ReduxDevToolsExtension {
  struct NotAnObject: Error {}

  /// A lifted state: `actionsById`, `computedStates`, `stagedActionIds`, `skippedActionIds`,
  /// `committedState`, …
  typealias LiftedState = [String: Any]

  /// The instance a page's `connect(…)` makes, after its `init(state)` and `send(action, state)`
  /// calls (each `[name, arguments as JSON text…]`):
  /// - extension/src/pageScript/api/index.ts, `connect`: `init` posts `INIT` with the state;
  ///   `send` posts `ACTION` with the state and the action wrapped by `amendActionType` as
  ///   `{action, timestamp}` (no `latency`, filter or predicate in between when the page gives
  ///   none that drops it), and no `maxAge` when the page gives none;
  /// - packages/redux-devtools-app-core/src/reducers/instances.ts, `updateState`: `INIT` is
  ///   `recompute(state.default, payload, {action: {type: '@@INIT'}})`, `ACTION` is
  ///   `recompute(liftedState, payload, action, liftedState.nextActionId + 1, maxAge)`;
  /// - packages/redux-devtools-app-core/src/utils/updateState.ts, `recompute`: stages the action
  ///   as id `nextActionId - 1` and appends `{state: payload}` to `computedStates`, the state as
  ///   sent; without `maxAge` nothing is committed away. Actions are stamped `timestamp`
  ///   (`amendActionType`'s `Date.now()`).
  static func afterConnect(_ calls: [[String]], timestamp: Int = 1_700_000_000_000) throws -> LiftedState {
    var actionsById: [String: Any] = [:]
    var stagedActionIds: [Int] = []
    var computedStates: [[String: Any]] = []
    var nextActionId = 0
    func recompute(_ state: Any, _ action: Any, nextActionId next: Int) {
      actionsById[String(next - 1)] = ["type": "PERFORM_ACTION", "action": action, "timestamp": timestamp]
      stagedActionIds.append(next - 1)
      computedStates.append(["state": state])
      nextActionId = next
    }
    for call in calls {
      switch call.first {
      case "init": recompute(try value(call[1]), ["type": "@@INIT"], nextActionId: 1)
      case "send": recompute(try value(call[2]), try value(call[1]), nextActionId: nextActionId + 1)
      default: break
      }
    }
    return [
      "actionsById": actionsById, "stagedActionIds": stagedActionIds, "skippedActionIds": [Int](),
      "computedStates": computedStates, "nextActionId": nextActionId,
    ]
  }

  /// The file the extension's *Export* button saves for an instance whose `features.export` is
  /// `true`: packages/redux-devtools-app-core/src/middlewares/exportState.ts,
  /// `exportStateMiddleware`, downloads `stringifyJSON(instances.states[instanceId])`, the
  /// instance's lifted state (`jsan.stringify`, which writes plain data as `JSON.stringify` does).
  static func export(_ lifted: LiftedState) throws -> Data {
    try JSONSerialization.data(withJSONObject: lifted)
  }

  /// The file imported into an instance whose `features.import` is `true` (an instance made by
  /// `connect({features: {import: true}})`, as the viewer page's):
  /// packages/redux-devtools-app-core/src/reducers/instances.ts, `instances`, case
  /// `LIFTED_ACTION` with `message: 'IMPORT'`: when `state.options[id].features.import === true`
  /// the instance's lifted state becomes `parseJSON(action.state)`, the file as it is; no
  /// reducer runs.
  static func intoInstanceImporting(_ file: Data) throws -> LiftedState {
    try object(file)
  }

  /// The file imported into the instance of a page's Redux store (whose `features.import` is
  /// `"custom"`): the extension hands the file to the page, where
  /// - extension/src/pageScript/api/importState.ts, `importState`: a file with a `payload`
  ///   member (the custom form) gives `nextLiftedState = parse(payload)`, the actions, and
  ///   `preloadedState = parse(preloadedState)`; any other file is the lifted state itself;
  /// - extension/src/pageScript/index.ts, `importPayloadFrom`: the store dispatches
  ///   `{type: 'IMPORT_STATE', ...nextLiftedState}`, with no `noRecompute`;
  /// - packages/redux-devtools-instrument/src/instrument.ts, `liftReducerWith`, case
  ///   `IMPORT_STATE`: an array of actions becomes `actionsById` `{0: @@INIT, 1: …}` staged
  ///   in order from `committedState = preloadedState`; a lifted state replaces everything, and
  ///   only `noRecompute` would set `minInvalidatedStateIndex` to `Infinity`; it stays 0; then
  ///   `recomputeStates` runs from it.
  static func intoPageStore(
    _ file: Data, reducer: (_ state: Any?, _ action: [String: Any]) -> Any?
  ) throws -> LiftedState {
    let parsed = try object(file)
    var lifted: LiftedState
    if let payload = parsed["payload"] as? String {
      let actions = try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [Any] ?? []
      var actionsById: [String: Any] = ["0": ["type": "PERFORM_ACTION", "action": ["type": "@@INIT"]]]
      var stagedActionIds = [0]
      for (offset, action) in actions.enumerated() {
        actionsById[String(offset + 1)] = ["type": "PERFORM_ACTION", "action": action]
        stagedActionIds.append(offset + 1)
      }
      lifted = [
        "actionsById": actionsById, "stagedActionIds": stagedActionIds, "skippedActionIds": [Int](),
        "nextActionId": actions.count + 1, "currentStateIndex": actions.count, "computedStates": [Any](),
      ]
      if let preloaded = parsed["preloadedState"] as? String {
        lifted["committedState"] = try JSONSerialization.jsonObject(
          with: Data(preloaded.utf8), options: .fragmentsAllowed)
      }
    } else {
      lifted = parsed
    }
    lifted["computedStates"] = recomputeStates(lifted, from: 0, reducer: reducer)
    return lifted
  }

  /// packages/redux-devtools-instrument/src/instrument.ts, `recomputeStates`: the states from
  /// `minInvalidatedStateIndex` on are the reducer's, each from the one before it (the first
  /// from `committedState`); a skipped action keeps the entry before it.
  static func recomputeStates(
    _ lifted: LiftedState, from minInvalidatedStateIndex: Int,
    reducer: (_ state: Any?, _ action: [String: Any]) -> Any?
  ) -> [[String: Any]] {
    let stagedActionIds = lifted["stagedActionIds"] as? [Int] ?? []
    let skippedActionIds = lifted["skippedActionIds"] as? [Int] ?? []
    let actionsById = lifted["actionsById"] as? [String: Any] ?? [:]
    var next = Array((lifted["computedStates"] as? [[String: Any]] ?? []).prefix(minInvalidatedStateIndex))
    for position in minInvalidatedStateIndex..<stagedActionIds.count {
      let actionId = stagedActionIds[position]
      let action = (actionsById[String(actionId)] as? [String: Any])?["action"] as? [String: Any] ?? [:]
      let previousEntry = position > 0 ? next[position - 1] : nil
      let previousState = previousEntry.map { $0["state"] } ?? lifted["committedState"]
      if skippedActionIds.contains(actionId) {
        next.append(previousEntry ?? [:])
      } else {
        next.append(["state": reducer(previousState, action) as Any])
      }
    }
    return next
  }

  /// What a monitor shows of a lifted state: for each staged action, its type and the state at
  /// its position in `computedStates`
  /// (packages/redux-devtools-inspector-monitor/src/DevtoolsInspector.tsx,
  /// `createIntermediateState`: `actions[currentActionId]` and
  /// `computedStates[stagedActionIds.indexOf(currentActionId)]`).
  static func shown(_ lifted: LiftedState) -> [(type: String, state: Any?)] {
    let stagedActionIds = lifted["stagedActionIds"] as? [Int] ?? []
    let actionsById = lifted["actionsById"] as? [String: Any] ?? [:]
    let computedStates = lifted["computedStates"] as? [[String: Any]] ?? []
    return stagedActionIds.enumerated().map { position, actionId in
      let action = (actionsById[String(actionId)] as? [String: Any])?["action"] as? [String: Any]
      let state = position < computedStates.count ? computedStates[position]["state"] : nil
      return (action?["type"] as? String ?? "?", state)
    }
  }

  private static func value(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
  }

  private static func object(_ file: Data) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: file) as? [String: Any] else {
      throw NotAnObject()
    }
    return object
  }
}
