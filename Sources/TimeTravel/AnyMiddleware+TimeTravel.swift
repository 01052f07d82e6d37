import ChronicleStore

extension AnyMiddleware {
  /// The middleware through which a ``TimeTravel`` controller applies its
  /// ``LiveActionPolicy`` while the store shows the past.
  ///
  /// Place it first, before ``/ChronicleTracer/ChronicleStore/AnyMiddleware/tracer(_:)``, so that
  /// held and dropped actions are not journaled until (and unless) they are applied:
  ///
  /// ```swift
  /// let journal = Journal(reducer: Counter())
  /// let travel = TimeTravel(journal: journal, policy: .locked)
  /// let store = Store(
  ///   initialState: Counter.State(), reducer: Counter(),
  ///   middleware: [.timeTravel(travel), .tracer(journal)])
  /// travel.attach(store)
  /// ```
  ///
  /// In the present it passes every action on, at the cost of one uncontended lock.
  // Inlinable so that its closure is formed, and its check specialized, in the client.
  @inlinable
  public static func timeTravel(_ travel: TimeTravel<State, Action>) -> AnyMiddleware {
    AnyMiddleware(name: "timeTravel") { action, context, next in
      travel.handleLive(action, context: context, next: next)
    }
  }
}
