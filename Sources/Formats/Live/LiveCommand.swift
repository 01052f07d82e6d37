import ChronicleJSON
import ChronicleTracer

/// A command an inspector sent an app over a live link (docs/formats/live-link.md), decoded.
public struct LiveCommand: Sendable, Equatable {
  /// The commands of the protocol.
  public enum Name: String, Sendable, Hashable, CaseIterable {
    /// Move the store to a position (``LiveCommand/position``).
    case jump
    /// Show the state one entry earlier.
    case undo
    /// Show the state one entry later.
    case redo
    /// Return to the present.
    case returnToPresent
    /// Toggle skipping the entry at ``LiveCommand/index``.
    case skip
    /// Make the state shown the base state and clear the history.
    case commit
    /// Return to the state the store had when time travel was attached.
    case reset
    /// Pause recording.
    case pause
    /// Resume recording.
    case resume
    /// Decode ``LiveCommand/actionJSON`` with the app's action type and send it.
    case dispatch

    /// The commands that move the store through its history (they need a `TimeTravel`).
    public static let timeTravel: Set<Name> = [.jump, .undo, .redo, .returnToPresent, .skip, .commit, .reset]
    /// The commands that change nothing in the store: pausing and resuming recording.
    public static let recording: Set<Name> = [.pause, .resume]
  }

  /// The command's identifier, repeated in its result.
  public let id: Int
  /// Which command.
  public let name: Name
  /// The target position of `jump`.
  public let position: Int?
  /// The entry `skip` toggles.
  public let index: Int?
  /// The action of `dispatch`, as it was sent.
  let action: JSONValue?
  /// The context label of `dispatch`.
  public let context: String?

  /// The action of `dispatch`, as compact JSON text.
  public var actionJSON: String? {
    action.map { String(decoding: JSONWriter.serialize($0), as: UTF8.self) }
  }

  /// Reads the command's fields from the object under `command`.
  init(id: Int, _ body: FieldReader) throws(JournalImportError) {
    self.id = id
    let nameText = try body.string("name")
    guard let name = Name(rawValue: nameText) else {
      throw .invalidValue(
        entry: nil, field: body.path.appending("name").description, reason: "unknown command \"\(nameText)\"")
    }
    self.name = name
    position = name == .jump ? try body.integer("position") : nil
    index = name == .skip ? try body.integer("index") : nil
    action = name == .dispatch ? try body.required("action") : nil
    context = name == .dispatch ? try body.optionalString("context") : nil
  }

  /// What became of a command: the `result` line's content.
  public struct Result: Sendable, Hashable {
    /// Why a command was not applied.
    public enum Refusal: String, Sendable, Hashable {
      /// The app did not allow the command.
      case notAllowed
      /// The action of a `dispatch` does not decode as the app's action type.
      case undecodable
      /// The command's fields are wrong (an unknown name, a position that is no entry).
      case invalid
      /// What the command needs is not there (no time travel, a store released).
      case unavailable
    }

    /// What happened.
    public enum Outcome: Sendable, Hashable {
      /// Applied; the time-travel position after it (`nil` when live).
      case applied(position: Int?)
      /// Not applied, and why.
      case refused(Refusal, message: String)
    }

    /// The command's identifier.
    public let id: Int
    /// What happened.
    public let outcome: Outcome

    /// Creates a result.
    public init(id: Int, outcome: Outcome) {
      self.id = id
      self.outcome = outcome
    }
  }
}
