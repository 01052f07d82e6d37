import ChronicleJSON
import ChronicleStore
import ChronicleTracer

/// The time-travel controls a live link's commands reach, as closures: ChronicleTimeTravel's
/// `TimeTravel` provides them (`ChronicleLiveLink` builds this from one), and a test or another
/// controller can too.
public struct LiveTimeTravel: Sendable {
  /// The position the store shows, `nil` when it is in the present.
  public var position: @Sendable () -> Int?
  /// Moves to a position; returns whether the store moved.
  public var jump: @Sendable (_ position: Int) -> Bool
  /// One entry earlier; returns whether the store moved.
  public var undo: @Sendable () -> Bool
  /// One entry later; returns whether the store moved.
  public var redo: @Sendable () -> Bool
  /// Back to the present; returns whether the store moved.
  public var returnToPresent: @Sendable () -> Bool
  /// Toggles skipping an entry; returns whether the index is an entry.
  public var toggleSkip: @Sendable (_ index: Int) -> Bool
  /// Makes the state shown the base state.
  public var commit: @Sendable () -> Void
  /// Returns to the state time travel started from.
  public var reset: @Sendable () -> Void

  /// Creates the controls from closures.
  public init(
    position: @escaping @Sendable () -> Int?, jump: @escaping @Sendable (Int) -> Bool,
    undo: @escaping @Sendable () -> Bool, redo: @escaping @Sendable () -> Bool,
    returnToPresent: @escaping @Sendable () -> Bool, toggleSkip: @escaping @Sendable (Int) -> Bool,
    commit: @escaping @Sendable () -> Void, reset: @escaping @Sendable () -> Void
  ) {
    self.position = position
    self.jump = jump
    self.undo = undo
    self.redo = redo
    self.returnToPresent = returnToPresent
    self.toggleSkip = toggleSkip
    self.commit = commit
    self.reset = reset
  }
}

/// Applies the commands of a live link to an app: time travel, recording and dispatch, each
/// only when the app allowed it (nothing is allowed by default: the link is read-only).
///
/// ```swift
/// let handler = LiveCommandHandler(journal: journal, store: store, allowed: [.pause, .resume, .dispatch])
/// let result = handler.handle(command)            // applied, or refused with a reason
/// let line = LiveProtocol.result(result)          // {"result":{"id":7,"ok":true,"position":null}}
/// ```
///
/// A command that is not allowed, that names what is not there, or whose action does not
/// decode, changes nothing and is answered with the reason.
public final class LiveCommandHandler<State: Sendable, Action: Sendable>: Sendable {
  /// The journal `pause` and `resume` reach.
  public let journal: Journal<State, Action>
  /// The commands honoured.
  public let allowed: Set<LiveCommand.Name>
  private let store: Store<State, Action>?
  private let timeTravel: LiveTimeTravel?
  private let stream: JournalLiveStream<State, Action>?
  private let decode: (@Sendable (JSONValue) throws(JournalImportError) -> Action)?

  /// Creates a handler for an app whose actions are not `Decodable`: `dispatch` is unavailable.
  ///
  /// - Parameters:
  ///   - journal: The store's journal.
  ///   - store: The store `dispatch` sends to.
  ///   - timeTravel: The store's time-travel controls, if it has any.
  ///   - stream: The live stream to tell about moves (its next state is then whole).
  ///   - allowed: The commands honoured. Default: none.
  public init(
    journal: Journal<State, Action>, store: Store<State, Action>? = nil, timeTravel: LiveTimeTravel? = nil,
    stream: JournalLiveStream<State, Action>? = nil, allowed: Set<LiveCommand.Name> = []
  ) {
    self.journal = journal
    self.store = store
    self.timeTravel = timeTravel
    self.stream = stream
    self.allowed = allowed
    decode = nil
  }

  /// Creates a handler whose `dispatch` decodes actions as the importers do.
  ///
  /// - Parameters:
  ///   - journal: The store's journal.
  ///   - store: The store `dispatch` sends to.
  ///   - timeTravel: The store's time-travel controls, if it has any.
  ///   - stream: The live stream to tell about moves (its next state is then whole).
  ///   - allowed: The commands honoured. Default: none.
  public init(
    journal: Journal<State, Action>, store: Store<State, Action>? = nil, timeTravel: LiveTimeTravel? = nil,
    stream: JournalLiveStream<State, Action>? = nil, allowed: Set<LiveCommand.Name> = []
  ) where Action: Decodable {
    self.journal = journal
    self.store = store
    self.timeTravel = timeTravel
    self.stream = stream
    self.allowed = allowed
    decode = { value throws(JournalImportError) in
      try TypedDecoder().decode(Action.self, from: value, path: FieldPath([.key("command"), .key("action")]))
    }
  }

  /// The commands the hello lists: the allowed ones the app can carry out.
  public var allows: [LiveCommand.Name] {
    LiveCommand.Name.allCases.filter { allowed.contains($0) && isAvailable($0) }
  }

  private func isAvailable(_ name: LiveCommand.Name) -> Bool {
    if LiveCommand.Name.timeTravel.contains(name) { return timeTravel != nil }
    if name == .dispatch { return decode != nil && store != nil }
    return true
  }

  /// Applies `command` if it is allowed and valid, and says what became of it.
  public func handle(_ command: LiveCommand) -> LiveCommand.Result {
    func refused(_ refusal: LiveCommand.Result.Refusal, _ message: String) -> LiveCommand.Result {
      LiveCommand.Result(id: command.id, outcome: .refused(refusal, message: message))
    }
    guard allowed.contains(command.name) else {
      return refused(.notAllowed, "the app does not allow \(command.name.rawValue)")
    }
    guard isAvailable(command.name) else {
      let missing = command.name == .dispatch ? "a store with Decodable actions" : "time travel"
      return refused(.unavailable, "\(command.name.rawValue) needs \(missing)")
    }
    switch command.name {
    case .pause: journal.pause()
    case .resume: journal.resume()
    case .dispatch:
      guard let decode, let store, let json = command.action else { return refused(.unavailable, "no store") }
      let action: Action
      do throws(JournalImportError) {
        action = try decode(json)
      } catch {
        return refused(.undecodable, error.description)
      }
      store.send(action, context: command.context, cause: Cause(kind: .inspector))
    default:
      guard let timeTravel else { return refused(.unavailable, "no time travel") }
      if case .skip = command.name, let index = command.index, !timeTravel.toggleSkip(index) {
        return refused(.invalid, "no entry at index \(index)")
      }
      switch command.name {
      case .jump: _ = timeTravel.jump(command.position ?? 0)
      case .undo: _ = timeTravel.undo()
      case .redo: _ = timeTravel.redo()
      case .returnToPresent: _ = timeTravel.returnToPresent()
      case .commit: timeTravel.commit()
      case .reset: timeTravel.reset()
      default: break
      }
      stream?.noteTimeTravelMove()
    }
    return LiveCommand.Result(id: command.id, outcome: .applied(position: timeTravel?.position()))
  }

  /// The `status` line: recording paused or not, the time-travel position, the entries held.
  public func statusLine() -> [UInt8] {
    LiveProtocol.status(paused: journal.isPaused, position: timeTravel?.position(), count: journal.count)
  }
}
