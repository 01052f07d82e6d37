import ChronicleStore
import ChronicleTracer
import Foundation

/// The journal's records as the numbered lines of a live link (docs/formats/live-link.md), kept
/// in a bounded buffer from the moment the stream is created until an inspector acknowledges
/// them: what `ChronicleLiveLink` sends, network-free.
///
/// ```swift
/// let stream = JournalLiveStream(journal: journal, options: ExportOptions(redaction: .default))
/// store.send(.increment)
/// stream.catchUp()
/// for line in stream.lines(after: 0) { print(line.text) }   // {"entry":…}, {"state":…}
/// stream.acknowledge(upTo: 2)                                 // frees them
/// ```
///
/// ## Nothing on the sending thread
/// The stream is not a sink: `send` hands it nothing and waits for nothing. A thread of the
/// stream reads what the journal recorded since its last look, a bounded batch under the
/// journal's lock at a time, and formats it there: every millisecond while the store is busy,
/// less often while it is idle (at least every 16 ms).
///
/// ## The lines
/// Each entry makes two lines: the NDJSON sink's entry line, byte for byte (through the same
/// writer and the same ``ExportOptions/redaction``), then a `state` line with the state after
/// it: whole every `fullStateInterval` entries, for the first entry, after a gap, after the
/// journal went back (time travel truncated or restored it) and after ``noteTimeTravelMove()``;
/// otherwise as the viewer's structural patch against the state after the entry before. Each
/// effect event makes one line. The entry line after a gap carries a `resync` checkpoint, so
/// that the lines stored by an inspector replay as an NDJSON stream.
///
/// ## Bounded, and exact about what it drops
/// The stream holds at most ``Limits/maxEntries`` entries and about ``Limits/maxBytes`` bytes of
/// lines (a batch of at most 256 entries may go past the bytes). While it is full it stops
/// reading; the journal keeps recording under its own caps. When acknowledgements make room and
/// the journal no longer holds entries the stream did not read (committed by its caps), the
/// stream makes a `gap` line saying exactly how many lines (and entries) were lost there.
///
/// ## Threads
/// Every method is thread-safe.
public final class JournalLiveStream<State: Sendable, Action: Sendable>: Sendable {
  /// How much a stream holds.
  public struct Limits: Sendable, Hashable {
    /// The most entries held (their entry lines; each also has a state line). Default 10,000.
    public var maxEntries: Int
    /// The most bytes of lines held, approximately. Default 16 MiB.
    public var maxBytes: Int
    /// A whole state every this many entries; patches between. Default 100.
    public var fullStateInterval: Int

    /// Creates limits.
    public init(maxEntries: Int = 10_000, maxBytes: Int = 16 << 20, fullStateInterval: Int = 100) {
      self.maxEntries = maxEntries
      self.maxBytes = maxBytes
      self.fullStateInterval = fullStateInterval
    }
  }

  /// The journal read.
  public let journal: Journal<State, Action>
  /// The limits the stream was created with.
  public let limits: Limits
  private let core: LiveStreamCore<State, Action>

  /// Creates a stream of what `journal` records from now on, and starts its reading thread.
  ///
  /// - Parameters:
  ///   - journal: The journal to stream.
  ///   - options: The redaction applied to every state and action written
  ///     (``ExportOptions/states`` does not apply).
  ///   - limits: What the stream holds.
  // Inlinable so that the line formatting is formed, and specialized, in the client.
  @inlinable
  public convenience init(
    journal: Journal<State, Action>, options: ExportOptions = ExportOptions(), limits: Limits = Limits()
  ) {
    self.init(journal: journal, options: options, limits: limits, format: .specialized, startsThread: true)
  }

  @usableFromInline
  init(
    journal: Journal<State, Action>, options: ExportOptions, limits: Limits,
    format: LineFormat<State, Action>,
    startsThread: Bool
  ) {
    self.journal = journal
    self.limits = limits
    core = LiveStreamCore(journal: journal, redaction: options.redaction, limits: limits, format: format)
    if startsThread { core.startThread() }
  }

  deinit {
    core.stop()
  }

  /// Stops the reading thread; the lines held stay readable. Later records are not read.
  public func close() {
    core.stop()
  }

  /// Reads, on the calling thread, everything the journal recorded so far (as far as the
  /// limits allow), so that its lines are held when this returns.
  public func catchUp() {
    core.catchUp()
  }

  /// The lines held whose number is greater than `number`, in order: at most `maxLines` of them,
  /// and as many as fit in `maxBytes` (at least one).
  public func lines(after number: Int, maxLines: Int = .max, maxBytes: Int = .max) -> [LiveLine] {
    core.lines(after: number, maxLines: maxLines, maxBytes: maxBytes)
  }

  /// Where a connection to an inspector that holds every line up to `number` resumes (see
  /// ``LiveResume``).
  public func resume(after number: Int) -> LiveResume {
    core.resume(after: number)
  }

  /// Frees every line up to and including `number`: the inspector stored them.
  public func acknowledge(upTo number: Int) {
    core.acknowledge(upTo: number)
  }

  /// What the stream holds and dropped.
  public var statistics: LiveStreamStatistics { core.statistics }

  /// Makes the next `state` line whole and asks the journal to keep the store's state before the
  /// next entry: call it after moving the store with time travel (jump, skip, commit, …), whose
  /// states the journal's own replay may not reproduce.
  public func noteTimeTravelMove() {
    core.noteMove()
  }

  /// Calls `handler` on the stream's thread whenever it made new lines (replacing any handler
  /// set before; `nil` removes it). The handler must be quick: hop to your own thread.
  public func onNewLines(_ handler: (@Sendable () -> Void)?) {
    core.setHandler(handler)
  }

  /// The `meta` object of the NDJSON stream's header for this journal, as JSON text: the hello
  /// of a live link carries it.
  public func metaJSON() -> String {
    core.metaJSON()
  }
}
