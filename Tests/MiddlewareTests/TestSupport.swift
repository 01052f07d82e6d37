import ChronicleMiddleware

// Locks are `SanitizerVisibleMutex`: ThreadSanitizer cannot see `Mutex`'s ordering on Linux.

/// A thread-safe list of values for tests to record into from any thread.
final class Recorder<Value: Sendable>: Sendable {
  private let storage = SanitizerVisibleMutex<[Value]>([])

  func append(_ value: Value) { storage.withLock { $0.append(value) } }
  var values: [Value] { storage.withLock { $0 } }
  var count: Int { storage.withLock { $0.count } }
}

/// A one-shot signal an effect or callback can fire and a test can await, without sleeping.
final class Signal: Sendable {
  private let state = SanitizerVisibleMutex<(fired: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, []))

  func fire() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.fired = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  func wait() async {
    await withCheckedContinuation { continuation in
      let fired = state.withLock { state in
        if !state.fired { state.waiters.append(continuation) }
        return state.fired
      }
      if fired { continuation.resume() }
    }
  }
}

/// Named async channels a test feeds by hand, so thunks wait for values without sleeping.
final class Channels: Sendable {
  private let streams: [String: (stream: AsyncStream<String>, continuation: AsyncStream<String>.Continuation)]

  init(_ names: [String]) {
    var streams: [String: (AsyncStream<String>, AsyncStream<String>.Continuation)] = [:]
    for name in names { streams[name] = AsyncStream.makeStream(of: String.self) }
    self.streams = streams
  }

  func stream(_ name: String) -> AsyncStream<String> { streams[name]!.stream }
  func feed(_ name: String, _ value: String) { streams[name]!.continuation.yield(value) }
  func close(_ name: String) { streams[name]!.continuation.finish() }

  /// The next value on channel `name`, or `nil` once it is closed.
  func next(_ name: String) async -> String? {
    var iterator = stream(name).makeAsyncIterator()
    return await iterator.next()
  }
}

/// A small feature whose reducer only records: the middlewares under test do the work.
enum Feed {
  struct State: Equatable, Sendable {
    var log: [String] = []
    var count = 0
  }

  enum Action: Equatable, Sendable {
    case start(String)
    case got(String)
    case failed(String)
    case cancel(String)
    case increment
    case tick
    case echo(String)
  }

  static let reducer = Reduce<State, Action> { state, action in
    switch action {
    case .got(let value):
      state.log.append(value)
      return .none
    case .failed(let message):
      state.log.append("failed: \(message)")
      return .none
    case .cancel(let id):
      return .cancel(id: id)
    case .increment, .tick:
      state.count += 1
      return .none
    case .echo(let value):
      return .send(.got("echo \(value)"))
    case .start:
      return .none
    }
  }
}

/// A middleware that records each action with its sequence number and cause (`e1`: the serial of
/// the effect that sent it), and the effect events it sees.
func causeRecorder<State: Sendable, Action: Sendable>(
  _ recorder: Recorder<String>, events: Recorder<String>? = nil
) -> AnyMiddleware<State, Action> {
  AnyMiddleware(name: "causes") { action, context, next in
    let metadata = context.metadata
    let serial = metadata.cause.effect.map { " e\($0)" } ?? ""
    recorder.append("#\(metadata.sequence) \(action) \(metadata.cause)\(serial)")
    next(action)
  } event: { event, _ in
    events?.append("\(event.phase) e\(event.effect) \(event.cause)")
  }
}

struct TestError: Error, CustomStringConvertible {
  var description: String { "boom" }
}
