/// How much the explorer explores, and what it may do besides sending actions.
///
/// ```swift
/// var configuration = ExplorationConfiguration(seed: 42, runs: 200, stepsPerRun: 50)
/// configuration.clockSteps = [.milliseconds(100), .seconds(1)]
/// configuration.timeLimit = .seconds(10)
/// ```
public struct ExplorationConfiguration: Sendable {
  /// The seed of the first run; each later run's seed is derived from it. A failure prints the
  /// seed of its own run: given here, that run is the first one again.
  public var seed: UInt64
  /// How many runs at most.
  public var runs: Int
  /// How many steps each run takes.
  public var stepsPerRun: Int
  /// How long exploring may take, measured with ``clock``; `nil`: no limit. Checked before
  /// each run, so the runs that start within it finish.
  public var timeLimit: Duration?
  /// The clock that measures ``timeLimit``: the real one by default; a test gives one it moves
  /// itself.
  public var clock: any Clock<Duration>
  /// The durations an `advance` step may move the test clock by, each equally likely.
  public var clockSteps: [Duration]
  /// How often a step sends an action, relative to the other weights.
  public var sendWeight: Int
  /// How often a step advances the clock (by one of ``clockSteps``), when there are any.
  public var advanceWeight: Int
  /// How often a step wakes the next sleeper on the clock, when there is one.
  public var wakeNextWeight: Int
  /// How many candidate runs shrinking may try before it settles for what it has.
  public var maxShrinkRuns: Int
  /// Whether every run is recorded in a journal, as the app's tracer would: a failure then also
  /// carries its run before shrinking (``ExplorationFailure/originalJournalJSON``). The shrunk
  /// run is recorded either way.
  public var recordsJournal: Bool

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - seed: The seed of the first run; a random one by default (printed with any failure).
  ///   - runs: How many runs at most.
  ///   - stepsPerRun: How many steps each run takes.
  ///   - timeLimit: How long exploring may take; `nil`: no limit.
  ///   - clock: The clock that measures `timeLimit`.
  ///   - clockSteps: The durations an `advance` step may move the test clock by.
  ///   - sendWeight: How often a step sends an action, relative to the other weights.
  ///   - advanceWeight: How often a step advances the clock.
  ///   - wakeNextWeight: How often a step wakes the next sleeper on the clock.
  ///   - maxShrinkRuns: How many candidate runs shrinking may try.
  ///   - recordsJournal: Whether every run is recorded in a journal.
  public init(
    seed: UInt64 = UInt64.random(in: .min ... .max), runs: Int = 100, stepsPerRun: Int = 100,
    timeLimit: Duration? = nil, clock: any Clock<Duration> = ContinuousClock(),
    clockSteps: [Duration] = [], sendWeight: Int = 4, advanceWeight: Int = 1, wakeNextWeight: Int = 1,
    maxShrinkRuns: Int = 20_000, recordsJournal: Bool = false
  ) {
    self.seed = seed
    self.runs = runs
    self.stepsPerRun = stepsPerRun
    self.timeLimit = timeLimit
    self.clock = clock
    self.clockSteps = clockSteps
    self.sendWeight = sendWeight
    self.advanceWeight = advanceWeight
    self.wakeNextWeight = wakeNextWeight
    self.maxShrinkRuns = maxShrinkRuns
    self.recordsJournal = recordsJournal
  }
}
