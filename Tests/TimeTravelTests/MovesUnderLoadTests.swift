import ChronicleStore
import ChronicleTestSupport
import ChronicleTimeTravel
import ChronicleTracer
import Dispatch
import Foundation
import Synchronization
import Testing

/// Moves in time while other threads keep sending: every move ends, and every action is processed
/// exactly once, in each sender's order.
///
/// An action is `sender * stride + n`, the sender's `n`th. Senders send until the mover is done (or
/// until a move has run past the bound: without that, a move that never ends would hang the test
/// rather than fail it), so every move happens while they send.
@Suite(.serialized) struct MovesUnderLoadTests {
  static let senders = 6
  static let stride = 10_000_000
  /// How long one move may take: generous, for two cores shared with other work and ThreadSanitizer.
  static let bound = Duration.seconds(20)

  /// What the threads share.
  final class Run: Sendable {
    let stop = Atomic<Bool>(false)
    /// When the move under way started (`ContinuousClock` nanoseconds since `origin`), or -1.
    let moveStarted = Atomic<Int64>(-1)
    let origin = ContinuousClock.now
    let started = DispatchSemaphore(value: 0)
    let finished = DispatchGroup()
    let sent = Recorder<(sender: Int, count: Int)>()

    var elapsed: Int64 {
      let duration = ContinuousClock.now - origin
      return duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    /// Whether the move under way has run past the bound.
    var moveOverran: Bool {
      let started = moveStarted.load(ordering: .relaxed)
      return started >= 0 && elapsed - started > MovesUnderLoadTests.bound.components.seconds * 1_000_000_000
    }
  }

  /// A store whose actions pass `.timeTravel`, then a middleware recording, in the store's order,
  /// each action that reached it (so: will be reduced), then the tracer.
  static func makeStore(
    policy: LiveActionPolicy
  ) -> (
    Store<Int, Int>, Journal<Int, Int>, TimeTravel<Int, Int>, Recorder<Int>
  ) {
    let journal = Journal<Int, Int>(
      reducer: Sum(), configuration: .init(checkpointInterval: 64, maxEntries: nil, maxBytes: nil))
    let travel = TimeTravel(journal: journal, policy: policy)
    let processed = Recorder<Int>()
    let recording = AnyMiddleware<Int, Int>(name: "processed") { action, _, next in
      processed.append(action)
      next(action)
    }
    let store = Store(
      initialState: 0, reducer: Sum(), middleware: [.timeTravel(travel), recording, .tracer(journal)])
    travel.attach(store)
    return (store, journal, travel, processed)
  }

  /// Starts the senders; returns once each has sent its first action.
  static func startSenders(to store: Store<Int, Int>, run: Run) {
    for sender in 0..<senders {
      run.finished.enter()
      let thread = Thread {
        var count = 0
        while !run.stop.load(ordering: .relaxed) && !run.moveOverran {
          store.send(1 + sender * stride + count)
          count += 1
          if count == 1 { run.started.signal() }
        }
        run.sent.append((sender, count))
        run.finished.leave()
      }
      thread.start()
    }
    for _ in 0..<senders { run.started.wait() }
  }

  /// Makes `moves` on the mover's thread (this one), timing each; then stops the senders, waits
  /// for them, and returns to the present. Returns the longest move.
  static func move(
    _ travel: TimeTravel<Int, Int>, run: Run, rounds: Int
  ) -> Duration {
    var longest = Duration.zero
    func timed(_ body: () -> Void) {
      run.moveStarted.store(run.elapsed, ordering: .relaxed)
      let start = ContinuousClock.now
      body()
      longest = max(longest, ContinuousClock.now - start)
      run.moveStarted.store(-1, ordering: .relaxed)
    }
    for round in 0..<rounds {
      timed { travel.undo() }
      timed { travel.undo() }
      timed { travel.redo() }
      timed { travel.jump(to: travel.position - 3) }
      timed { travel.jump(to: Int.max) }
      timed { travel.undo() }
      timed { travel.returnToPresent() }
      if round % 4 == 0 {
        timed { travel.jump(to: travel.position / 2) }
        timed { travel.redo() }
        timed { travel.returnToPresent() }
      }
    }
    run.stop.store(true, ordering: .relaxed)
    run.finished.wait()
    timed { travel.returnToPresent() }
    return longest
  }

  /// Each sender's actions among `processed`, in the order they were processed, as their `n`s.
  static func perSender(_ processed: [Int]) -> [Int: [Int]] {
    var orders: [Int: [Int]] = [:]
    for action in processed where action > 0 {
      orders[(action - 1) / stride, default: []].append((action - 1) % stride)
    }
    return orders
  }

  @Test func lockedMovesEndWhileThreadsSendAndEveryActionIsProcessedOnceInOrder() {
    let (store, journal, travel, processed) = Self.makeStore(policy: .locked)
    let run = Run()
    Self.startSenders(to: store, run: run)
    let longest = Self.move(travel, run: run, rounds: 150)
    #expect(longest < Self.bound)
    let sent = Dictionary(uniqueKeysWithValues: run.sent.values.map { ($0.sender, $0.count) })
    let orders = Self.perSender(processed.values)
    for sender in 0..<Self.senders {
      #expect(orders[sender] == Array(0..<(sent[sender] ?? -1)), "sender \(sender)")
    }
    let total = sent.values.reduce(0, +)
    #expect(processed.count == total)
    #expect(journal.count == total)
    #expect(travel.heldActions.isEmpty)
    #expect(!travel.isInPast)
    #expect(store.state == processed.values.reduce(0, +))
  }

  @Test func branchMovesEndWhileThreadsSendAndEveryActionIsProcessedOnceInOrder() {
    let (store, _, travel, processed) = Self.makeStore(policy: .branch)
    let run = Run()
    Self.startSenders(to: store, run: run)
    let longest = Self.move(travel, run: run, rounds: 150)
    #expect(longest < Self.bound)
    let sent = Dictionary(uniqueKeysWithValues: run.sent.values.map { ($0.sender, $0.count) })
    let orders = Self.perSender(processed.values)
    for sender in 0..<Self.senders {
      #expect(orders[sender] == Array(0..<(sent[sender] ?? -1)), "sender \(sender)")
    }
    #expect(processed.count == sent.values.reduce(0, +))
    #expect(travel.heldActions.isEmpty)
    #expect(!travel.isInPast)
  }
}
