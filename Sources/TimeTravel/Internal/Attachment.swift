import ChronicleStore

/// The store a controller is attached to, and the state ``TimeTravel/reset()`` returns to.
struct Attachment<State: Sendable, Action: Sendable>: Sendable {
  weak var store: Store<State, Action>?
  var initialState: State?

  init(store: Store<State, Action>? = nil, initialState: State? = nil) {
    self.store = store
    self.initialState = initialState
  }
}
