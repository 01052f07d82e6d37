import ChronicleFormats
import ChronicleInspection
import ChronicleStore
import ChronicleTimeTravel
import ChronicleTracer
import Foundation
import NIOCore
import NIOPosix

/// Connects a store to a live inspector (`chronicle-inspector`): everything its journal records
/// streams to the inspector as it happens, and the inspector may steer the store where the app
/// allowed it.
///
/// ```swift
/// let journal = Journal(reducer: Counter())
/// let travel = TimeTravel(journal: journal)
/// let store = Store(
///   initialState: Counter.State(), reducer: Counter(), middleware: [.timeTravel(travel), .tracer(journal)])
/// travel.attach(store)
/// let link = LiveLink(
///   configuration: .init(url: URL(string: "ws://127.0.0.1:7878/live/app")!, token: token, name: "Counter",
///                        allowed: [.jump, .undo, .redo, .returnToPresent, .dispatch]),
///   journal: journal, store: store, timeTravel: travel)
/// // … the app runs; entries reach the inspector within milliseconds …
/// link.close()
/// ```
///
/// What it guarantees (docs/formats/live-link.md, DESIGN.md "The live link"):
/// - **Nothing lost silently.** The journal's records are buffered from the moment the link is
///   created (bounded by ``Configuration/limits``), sent in order in batched WebSocket messages,
///   and freed when the inspector acknowledges them. After a dropped connection the link
///   reconnects with capped exponential back-off and jitter, and resumes after the last line the
///   inspector holds: no duplicate, no hole. An overflow is a `gap` line with the exact count.
/// - **Nothing blocks the app.** `send` hands the link nothing: a thread of the
///   ``/ChronicleFormats/JournalLiveStream`` reads the journal, and the link writes only while
///   the connection accepts more (a stalled inspector costs the app its bounded buffer).
/// - **Nothing secret leaves.** States and actions pass through ``Configuration/redaction``
///   before they are encoded; `@Redacted` values and `SensitiveValue`s always do.
/// - **Only what the app allowed.** Commands outside ``Configuration/allowed`` (empty by
///   default: read-only) are answered `notAllowed` and change nothing.
public final class LiveLink<State: Sendable, Action: Sendable>: Sendable {
  /// How a link connects and what it allows.
  public struct Configuration: Sendable {
    /// The inspector's app endpoint, `ws://HOST:PORT/live/app`.
    public var url: URL
    /// The token the inspector printed at start, sent as `Authorization: Bearer TOKEN`.
    public var token: String
    /// A name for people, shown by the inspector.
    public var name: String
    /// Which of the app's stores this is.
    public var store: String
    /// The commands the app honours. Default: none (read-only).
    public var allowed: Set<LiveCommand.Name>
    /// What the link buffers until the inspector acknowledges it.
    public var limits: JournalLiveStream<State, Action>.Limits
    /// What to hide, as in every export.
    public var redaction: Redaction
    /// The most bytes of lines in one outgoing message (a larger line goes alone). Default 1 MiB.
    public var maxMessageBytes: Int
    /// The largest incoming message (and frame) accepted; larger ones close the connection with
    /// code 1009. Default 16 MiB.
    public var maxIncomingMessageBytes: Int
    /// The first reconnection delay, doubled after each failed attempt up to ``maxReconnectDelay``.
    public var reconnectDelay: Duration
    /// The longest reconnection delay.
    public var maxReconnectDelay: Duration
    /// A number in 0...1 drawn for each delay, which scales it into its upper half (the delay
    /// times `0.5 + 0.5 × jitter()`), so that many apps do not reconnect in step.
    public var jitter: @Sendable () -> Double
    /// Whether the link offers to compress its messages (`deflate`, docs/formats/live-link.md):
    /// when the inspector accepts, every message after its welcome is raw DEFLATE, which takes
    /// an entry's bytes on the wire below its NDJSON line. Default `true`.
    public var compresses: Bool

    /// Creates a configuration.
    public init(
      url: URL, token: String, name: String = ProcessInfo.processInfo.processName, store: String = "main",
      allowed: Set<LiveCommand.Name> = [], limits: JournalLiveStream<State, Action>.Limits = .init(),
      redaction: Redaction = .default, maxMessageBytes: Int = 1 << 20,
      maxIncomingMessageBytes: Int = 16 << 20,
      reconnectDelay: Duration = .milliseconds(100), maxReconnectDelay: Duration = .seconds(5),
      jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }, compresses: Bool = true
    ) {
      self.url = url
      self.token = token
      self.name = name
      self.store = store
      self.allowed = allowed
      self.limits = limits
      self.redaction = redaction
      self.maxMessageBytes = maxMessageBytes
      self.maxIncomingMessageBytes = maxIncomingMessageBytes
      self.reconnectDelay = reconnectDelay
      self.maxReconnectDelay = maxReconnectDelay
      self.jitter = jitter
      self.compresses = compresses
    }
  }

  /// What happens to the connection.
  public enum Event: Sendable, Equatable {
    /// The inspector welcomed the link; lines flow.
    case connected(session: String)
    /// The connection ended or could not be made; the link tries again after its back-off.
    case disconnected(reason: String)
  }

  /// Who the link says it is: made once per link, kept across reconnects.
  public let instance: LiveProtocol.Instance
  /// The journal's records as numbered lines: what the link sends.
  public let stream: JournalLiveStream<State, Action>
  /// Applies the inspector's commands.
  public let commands: LiveCommandHandler<State, Action>
  private let driver: LinkDriver<State, Action>

  /// Connects a store whose actions are `Decodable` (so `dispatch` can be allowed).
  ///
  /// - Parameters:
  ///   - configuration: Where to connect and what to allow.
  ///   - journal: The journal the store's tracer records into.
  ///   - store: The store `dispatch` sends to.
  ///   - timeTravel: The store's time travel, for the time-travel commands.
  ///   - group: The event loops the connection runs on. Default: NIO's shared one.
  ///   - onEvent: Called (on an event loop) when the connection comes and goes.
  // Inlinable so that the stream's line formatting is specialized in the client.
  @inlinable
  public convenience init(
    configuration: Configuration, journal: Journal<State, Action>, store: Store<State, Action>? = nil,
    timeTravel: TimeTravel<State, Action>? = nil,
    group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
    onEvent: (@Sendable (Event) -> Void)? = nil
  ) where Action: Decodable {
    let stream = JournalLiveStream(
      journal: journal, options: ExportOptions(redaction: configuration.redaction),
      limits: configuration.limits)
    let commands = LiveCommandHandler(
      journal: journal, store: store, timeTravel: timeTravel.map(LiveTimeTravel.init), stream: stream,
      allowed: configuration.allowed)
    self.init(
      configuration: configuration, stream: stream, commands: commands, group: group, onEvent: onEvent)
  }

  /// Connects a store whose actions are not `Decodable`: `dispatch` is unavailable.
  ///
  /// - Parameters:
  ///   - configuration: Where to connect and what to allow.
  ///   - journal: The journal the store's tracer records into.
  ///   - timeTravel: The store's time travel, for the time-travel commands.
  ///   - group: The event loops the connection runs on. Default: NIO's shared one.
  ///   - onEvent: Called (on an event loop) when the connection comes and goes.
  @inlinable
  public convenience init(
    configuration: Configuration, journal: Journal<State, Action>,
    timeTravel: TimeTravel<State, Action>? = nil,
    group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
    onEvent: (@Sendable (Event) -> Void)? = nil
  ) {
    let stream = JournalLiveStream(
      journal: journal, options: ExportOptions(redaction: configuration.redaction),
      limits: configuration.limits)
    let commands = LiveCommandHandler(
      journal: journal, timeTravel: timeTravel.map(LiveTimeTravel.init), stream: stream,
      allowed: configuration.allowed)
    self.init(
      configuration: configuration, stream: stream, commands: commands, group: group, onEvent: onEvent)
  }

  /// Starts the link over a stream and a command handler made by the caller.
  @usableFromInline
  init(
    configuration: Configuration, stream: JournalLiveStream<State, Action>,
    commands: LiveCommandHandler<State, Action>, group: any EventLoopGroup,
    onEvent: (@Sendable (Event) -> Void)?
  ) {
    self.stream = stream
    self.commands = commands
    instance = LiveProtocol.Instance(
      id: UUID().uuidString, name: configuration.name, host: ProcessInfo.processInfo.hostName,
      pid: Int(ProcessInfo.processInfo.processIdentifier), store: configuration.store)
    driver = LinkDriver(
      configuration: configuration, instance: instance, stream: stream, commands: commands,
      loop: group.next(), onEvent: onEvent)
    driver.start()
  }

  deinit {
    driver.close()
  }

  /// The highest line number the inspector acknowledged.
  public var acknowledged: Int { stream.statistics.acknowledged }

  /// Closes the connection (with a WebSocket close frame) and stops reconnecting and reading the
  /// journal. Lines not yet acknowledged are not sent.
  public func close() {
    driver.close()
  }
}

extension LiveTimeTravel {
  /// The controls of `travel`.
  public init<State: Sendable, Action: Sendable>(_ travel: TimeTravel<State, Action>) {
    self.init(
      position: { travel.isInPast ? travel.position : nil }, jump: { travel.jump(to: $0) },
      undo: { travel.undo() }, redo: { travel.redo() }, returnToPresent: { travel.returnToPresent() },
      toggleSkip: { travel.toggleSkip($0) }, commit: { travel.commit() }, reset: { travel.reset() })
  }
}
