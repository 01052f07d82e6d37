import ChronicleInspectorServer
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A WebSocket client for the tests, on swift-nio: connects to the inspector over a real socket
/// and hands back the frames it receives, in order, with a deadline.
final class LiveSocket: Sendable {
  let channel: Channel
  private let frames: AsyncStream<WebSocketFrame>
  private let iterator: IteratorBox

  private final class IteratorBox: @unchecked Sendable {
    // Only the test's task reads frames, one `next` at a time.
    var iterator: AsyncStream<WebSocketFrame>.AsyncIterator
    init(_ iterator: AsyncStream<WebSocketFrame>.AsyncIterator) { self.iterator = iterator }
  }

  init(channel: Channel, frames: AsyncStream<WebSocketFrame>) {
    self.channel = channel
    self.frames = frames
    iterator = IteratorBox(frames.makeAsyncIterator())
  }

  enum Outcome: Sendable {
    case upgraded(LiveSocket)
    case refused(HTTPResponseStatus)
  }

  struct Timeout: Error {}

  static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)

  /// Opens `path` on the inspector at `port` with `headers`.
  static func open(port: Int, path: String, headers: [(String, String)]) async throws -> Outcome {
    let (stream, continuation) = AsyncStream<WebSocketFrame>.makeStream()
    let result = try await ClientBootstrap(group: group).connect(host: "127.0.0.1", port: port) {
      channel -> EventLoopFuture<EventLoopFuture<Outcome>> in
      channel.eventLoop.makeCompletedFuture {
        let upgrader = NIOTypedWebSocketClientUpgrader<Outcome>(
          maxFrameSize: 1 << 26,
          upgradePipelineHandler: { channel, _ in
            channel.eventLoop.makeCompletedFuture {
              try channel.pipeline.syncOperations.addHandler(FrameCollector(continuation))
              return Outcome.upgraded(LiveSocket(channel: channel, frames: stream))
            }
          })
        var requestHeaders = HTTPHeaders([("Host", "127.0.0.1:\(port)"), ("Content-Length", "0")])
        for (name, value) in headers { requestHeaders.add(name: name, value: value) }
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: requestHeaders)
        let configuration = NIOTypedHTTPClientUpgradeConfiguration<Outcome>(
          upgradeRequestHead: head, upgraders: [upgrader],
          notUpgradingCompletionHandler: { channel in
            channel.eventLoop.makeSucceededFuture(.refused(.custom(code: 0, reasonPhrase: "refused")))
          })
        return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
          configuration: .init(upgradeConfiguration: configuration))
      }
    }
    let outcome = try await result.get()
    if case .refused = outcome {
      // What the refusal said, asked again as a plain request.
      return .refused(try await refusedStatus(port: port, path: path, headers: headers))
    }
    return outcome
  }

  /// The status of a plain request for `path` (what a refused upgrade is answered with).
  static func refusedStatus(
    port: Int, path: String, headers: [(String, String)]
  ) async throws -> HTTPResponseStatus {
    var request = URLRequest(url: try HTTP.url("http://127.0.0.1:\(port)\(path)"))
    request.setValue("websocket", forHTTPHeaderField: "Upgrade")
    request.setValue("Upgrade", forHTTPHeaderField: "Connection")
    request.setValue("13", forHTTPHeaderField: "Sec-WebSocket-Version")
    request.setValue("dGhlIHNhbXBsZSBub25jZQ==", forHTTPHeaderField: "Sec-WebSocket-Key")
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (_, response) = try await HTTP.data(for: request)
    return HTTPResponseStatus(statusCode: response.statusCode)
  }

  /// Sends `text` as one masked text frame.
  func send(_ text: String) async throws {
    try await send(
      frame: WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text)))
  }

  func send(frame: WebSocketFrame) async throws {
    try await channel.writeAndFlush(frame).get()
  }

  /// The next frame, or `nil` once the connection is closed; throws after `seconds`.
  func next(within seconds: Double = 10) async throws -> WebSocketFrame? {
    let box = iterator
    return try await withThrowingTaskGroup(of: WebSocketFrame?.self) { group in
      group.addTask { await box.iterator.next() }
      group.addTask {
        try await Task.sleep(for: .seconds(seconds))
        throw Timeout()
      }
      defer { group.cancelAll() }
      return try await group.next() ?? nil
    }
  }

  /// The lines of the next text message, as JSON objects (close and control frames are skipped).
  func nextLines(within seconds: Double = 10) async throws -> [[String: Any]] {
    while let frame = try await next(within: seconds) {
      guard frame.opcode == .text else {
        if frame.opcode == .connectionClose { return [] }
        continue
      }
      return String(buffer: frame.unmaskedData).split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }
    }
    return []
  }

  /// Reads until the first line of kind `kind`, returning its body.
  func line(_ kind: String, within seconds: Double = 10) async throws -> [String: Any] {
    while true {
      let lines = try await nextLines(within: seconds)
      if lines.isEmpty { throw Timeout() }
      if let found = lines.first(where: { $0[kind] != nil }), let body = found[kind] as? [String: Any] {
        return body
      }
    }
  }

  /// Reads until the server's close frame; returns its code and reason.
  func closeCode(within seconds: Double = 10) async throws -> (UInt16, String)? {
    while let frame = try await next(within: seconds) {
      if frame.opcode == .connectionClose {
        var data = frame.unmaskedData
        let code = data.readInteger(as: UInt16.self)
        return code.map { ($0, String(buffer: data)) }
      }
    }
    return nil
  }

  func close() {
    channel.close(promise: nil)
  }
}

private final class FrameCollector: ChannelInboundHandler {
  typealias InboundIn = WebSocketFrame
  let continuation: AsyncStream<WebSocketFrame>.Continuation
  init(_ continuation: AsyncStream<WebSocketFrame>.Continuation) { self.continuation = continuation }
  func channelRead(context: ChannelHandlerContext, data: NIOAny) { continuation.yield(unwrapInboundIn(data)) }
  func channelInactive(context: ChannelHandlerContext) { continuation.finish() }
  func errorCaught(context: ChannelHandlerContext, error: Error) { context.close(promise: nil) }
}

/// Plain HTTP requests for the tests (Foundation's URLSession).
enum HTTP {
  static func data(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    try await withCheckedThrowingContinuation { continuation in
      URLSession.shared.dataTask(with: request) { data, response, error in
        if let error {
          continuation.resume(throwing: error)
          return
        }
        guard let response = response as? HTTPURLResponse else {
          continuation.resume(throwing: URLError(.badServerResponse))
          return
        }
        continuation.resume(returning: (data ?? Data(), response))
      }.resume()
    }
  }

  static func get(_ url: String) async throws -> (Data, Int) {
    let (data, response) = try await data(for: URLRequest(url: try self.url(url)))
    return (data, response.statusCode)
  }

  /// `text` as a URL; a test's own address that is not one fails the test.
  static func url(_ text: String) throws -> URL {
    guard let url = URL(string: text) else { throw URLError(.badURL) }
    return url
  }
}
