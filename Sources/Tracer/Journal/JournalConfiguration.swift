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
    /// The most bytes kept, approximately; older entries are committed. `nil` for no limit.
    /// Default 64 MiB.
    ///
    /// The bytes counted are the entries' records, what their actions carry on the heap (as
    /// ``actionSize`` measures it), the effect events, the interned strings, and the checkpoint
    /// states (as ``stateSize`` measures them): ``Journal/approximateBytes``.
    ///
    /// Past the cap, whole checkpoint intervals are committed first, oldest first. When only the
    /// last one is left and its checkpoint's state is under half the cap, its entries are
    /// committed until the journal is down to about three quarters of the cap (one state is
    /// recomputed). When that state is half the cap or more, the journal keeps it and the entries
    /// after it, and commits again when the next checkpoint is taken, with no state recomputed:
    /// an action then costs no replay and no size estimate, and the journal may hold more than
    /// the cap by those entries, and by the state when the state alone is larger than the cap,
    /// which ``Journal/byteCapOverrun`` reports.
    public var maxBytes: Int?
    /// The heap bytes an action carries, for ``maxBytes``, measured for every action recorded;
    /// `nil` (the default) for the journal's own estimate.
    ///
    /// The estimate walks an action's payload as a state's is walked (the arrays, strings, sets,
    /// dictionaries and `Data` it holds), but sampled: after a walk that found less than a
    /// thousandth of ``maxBytes``, the next one comes twice as many actions later (up to one
    /// action in 1,024), and the actions in between count what it found; a walk that found a
    /// thousandth of the cap or more makes every action walked again. An action type without
    /// references (numbers, an enum without payloads that hold any) is never walked. So an action
    /// far larger than the ones before it can go uncounted: give a function (a payload's `count`
    /// is enough) for a cap that holds whatever the actions carry.
    ///
    /// ```swift
    /// var configuration = Journal<AppState, AppAction>.Configuration(maxBytes: 8 << 20)
    /// configuration.actionSize = { action in action.payload?.count ?? 0 }
    /// ```
    public var actionSize: (@Sendable (Action) -> Int)? = nil
    /// The size of a state in bytes, for ``maxBytes``, measured once per checkpoint (never per
    /// action); `nil` (the default) for the journal's own estimate.
    ///
    /// The estimate is the state's inline size (`MemoryLayout<State>.size`) plus the heap storage
    /// of the arrays, strings (longer than 15 UTF-8 bytes), sets, dictionaries and `Data` it
    /// holds, found through its stored properties, enum payloads and optionals by reflection: a
    /// collection counts its count times its element's stride, and the elements' own storage from
    /// a sample of at most 8 of them. Class instances are not counted (a checkpoint shares them).
    /// An array's, set's, dictionary's or `Data`'s buffer that the previous checkpoint also holds
    /// (copy on write: the actions since left it untouched) is counted once. It omits allocator
    /// overhead and spare capacity: for a state of large arrays it is within a few percent of the
    /// memory the journal holds (4% for a 100 KB array); for a state of many small strings or
    /// dictionaries it can be under it by up to about 2×. Sampling misses a change inside an
    /// element outside the sample (one inner array of an array of arrays). A state without
    /// references costs no reflection. A state of many values (a walk of 200 structs of two
    /// strings, `tracer/record-app-state`) is walked only every few checkpoints, at least every 16th; the
    /// checkpoints between count what the last walk found, so a state that grows fast is
    /// undercounted until the next walk. Give your own function when the state's size is known
    /// more cheaply or more exactly.
    public var stateSize: (@Sendable (State) -> Int)?
    /// Which actions to record.
    public var filter: TraceFilter<Action>
    /// Where else every recorded entry and event goes, such as ChronicleFormats' `NDJSONFileSink`.
    public var sinks: [any JournalSink<State, Action>]

    /// Creates a configuration.
    public init(
      checkpointInterval: Int = 100,
      maxEntries: Int? = 100_000,
      maxBytes: Int? = 64 << 20,
      stateSize: (@Sendable (State) -> Int)? = nil,
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

    /// The size of `state` for the byte cap: ``stateSize``'s, or the journal's estimate counting
    /// every buffer.
    package func size(of state: State) -> Int {
      stateSize?(state) ?? StateSizeEstimate.bytes(of: state)
    }

    /// The interval actually used: at least 1, at most a quarter of `maxEntries`.
    package var effectiveCheckpointInterval: Int {
      var interval = max(1, checkpointInterval)
      if let maxEntries { interval = min(interval, max(1, maxEntries / 4)) }
      return interval
    }
  }
}
