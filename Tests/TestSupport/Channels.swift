/// Named async channels a test feeds by hand, so effects wait for values without sleeping.
public final class Channels: Sendable {
  private let streams: [String: (stream: AsyncStream<String>, continuation: AsyncStream<String>.Continuation)]

  public init(_ names: [String]) {
    var streams: [String: (AsyncStream<String>, AsyncStream<String>.Continuation)] = [:]
    for name in names { streams[name] = AsyncStream.makeStream(of: String.self) }
    self.streams = streams
  }

  public func stream(_ name: String) -> AsyncStream<String> { channel(name).stream }
  public func feed(_ name: String, _ value: String) { channel(name).continuation.yield(value) }
  public func close(_ name: String) { channel(name).continuation.finish() }

  private func channel(
    _ name: String
  ) -> (stream: AsyncStream<String>, continuation: AsyncStream<String>.Continuation) {
    guard let channel = streams[name] else { preconditionFailure("no channel named \(name)") }
    return channel
  }

  /// The next value on channel `name`, or `nil` once it is closed.
  public func next(_ name: String) async -> String? {
    var iterator = stream(name).makeAsyncIterator()
    return await iterator.next()
  }
}
