extension Journal {
  /// How a journal records: checkpoints, caps, what to record and where else to send it.
  ///
  /// ```swift
  /// var configuration = Journal<AppState, AppAction>.Configuration()
  /// configuration.maxEntries = 10_000
  /// configuration.filter.deniedActions = ["tick"]
  /// let journal = Journal(reducer: App(), configuration: configuration)
  /// ```
  public struct Configuration: Sendable {
    /// Keep a full state every this many entries. Reaching any entry's state costs at most this
    /// many reducer calls; keeping a state costs one copy-on-write copy of whatever the next
    /// action changes. Lowered to a quarter of ``maxEntries`` when that is smaller. Default 100.
    public var checkpointInterval: Int
    /// The most entries kept; older ones are committed (folded into the base state). `nil` for
    /// no limit. Default 100,000.
    public var maxEntries: Int?
    /// The most bytes kept, approximately (entries, effect events, strings and checkpoint
    /// states as ``stateSize`` measures them); older entries are committed. `nil` for no limit.
    /// Default 64 MiB.
    public var maxBytes: Int?
    /// The approximate size of a state in bytes, for ``maxBytes``. The default counts the
    /// state's inline size only (`MemoryLayout<State>.size`); give a better estimate when the
    /// state holds large collections.
    public var stateSize: @Sendable (State) -> Int
    /// Which actions to record.
    public var filter: TraceFilter<Action>
    /// Where else every recorded entry and event goes, such as an ``NDJSONFileSink``.
    public var sinks: [any JournalSink<State, Action>]

    /// Creates a configuration.
    public init(
      checkpointInterval: Int = 100,
      maxEntries: Int? = 100_000,
      maxBytes: Int? = 64 << 20,
      stateSize: @escaping @Sendable (State) -> Int = { _ in MemoryLayout<State>.size },
      filter: TraceFilter<Action> = .all,
      sinks: [any JournalSink<State, Action>] = []
    ) {
      self.checkpointInterval = checkpointInterval
      self.maxEntries = maxEntries
      self.maxBytes = maxBytes
      self.stateSize = stateSize
      self.filter = filter
      self.sinks = sinks
    }

    /// The interval actually used: at least 1, at most a quarter of `maxEntries`.
    var effectiveCheckpointInterval: Int {
      var interval = max(1, checkpointInterval)
      if let maxEntries { interval = min(interval, max(1, maxEntries / 4)) }
      return interval
    }
  }
}
