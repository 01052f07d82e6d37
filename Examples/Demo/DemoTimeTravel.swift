import Chronicle

/// Moves the demo's store through its history: undo, redo, a jump, back to the present.
func travelThroughTime(
  _ travel: TimeTravel<DemoApp.State, DemoApp.Action>, store: Store<DemoApp.State, DemoApp.Action>
) {
  travel.undo()
  print("undo: logged in \(store.state.isLoggedIn) (before entry \(travel.position))")
  travel.redo()
  print("redo: logged in \(store.state.isLoggedIn) (the present)")
  travel.jump(to: 4)
  print("jump to entry 4: stopwatch at \(store.state.stopwatch) ms, \(store.state.todos.count) todos")
  travel.returnToPresent()
  print("back to the present: stopwatch at \(store.state.stopwatch) ms")
}

/// Replays the journal into the reducer and says whether it reproduces every state the journal
/// recorded (a checkpoint every few entries) and the store's final state: the regression test of
/// a recorded run. The files would not do here: the password in them is `<redacted>`, so a replay
/// from them cannot log in.
func verifyReplay(
  of journal: Journal<DemoApp.State, DemoApp.Action>, store: Store<DemoApp.State, DemoApp.Action>
) {
  let report = Replay.verify(journal, reducer: DemoApp(), finalState: store.state)
  let verdict =
    switch report.outcome {
    case .matched: "every recorded state reproduced"
    case .diverged: "diverged: \(report.divergence.map { "\($0)" } ?? "at an unknown entry")"
    case .nothingCompared: "no recorded state to compare"
    }
  print("replay: \(report.replayedEntries) entries, \(report.verifiedStates) states checked — \(verdict)")
}
