import CompressNIO
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A small inspector for the tests, on NIO's WebSocket server pieces: it welcomes apps, keeps
/// every numbered line by its number (noting duplicates and holes), acknowledges, and can drop a
/// connection, stop reading, or send commands.
final class FakeInspector: @unchecked Sendable {
  // `@unchecked Sendable`: every `var` is guarded by `condition`'s lock.
  let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
  let token: String
  private(set) var port = 0
  private var server: (any Channel)?
  private let condition = NSCondition()

  /// Every message's text, as received (the secrets test reads them all).
  private(set) var messages: [String] = []
  /// The numbered lines, by number.
  private(set) var lines: [Int: String] = [:]
  /// Lines received with a number already held, and numbers skipped.
  private(set) var duplicates = 0
  private(set) var holes = 0
  private(set) var hellos: [[String: Any]] = []
  private(set) var results: [[String: Any]] = []
  private(set) var statuses: [[String: Any]] = []
  private(set) var connections = 0
  /// Entry lines held, and the entries the gap lines held say were dropped.
  private(set) var entryLines = 0
  private(set) var gapEntries = 0
  /// Whether numbered lines are acknowledged as they arrive.
  var acknowledges = true
  /// Whether the welcome chooses `deflate` when the hello offers it.
  var deflates = false
  /// The messages received as text and as binary (deflated), and the bytes of the binary ones.
  private(set) var textMessages = 0
  private(set) var binaryMessages = 0
  private(set) var binaryBytes = 0
  private var current: (any Channel)?
  /// The number the next numbered line of the current connection has.
  private var nextNumber = 1

  init(token: String = "secret-token") throws {
    self.token = token
    let token = self.token
    let bootstrap = ServerBootstrap(group: group)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { [self] channel in
        let upgrader = NIOWebSocketServerUpgrader(
          maxFrameSize: 1 << 24,
          shouldUpgrade: { channel, head in
            let authorized =
              head.headers["Authorization"].first == "Bearer \(token)" && head.uri == "/live/app"
            return channel.eventLoop.makeSucceededFuture(authorized ? HTTPHeaders() : nil)
          },
          upgradePipelineHandler: { [self] channel, _ in
            channel.eventLoop.makeCompletedFuture {
              try channel.pipeline.syncOperations.addHandlers(
                NIOWebSocketFrameAggregator(
                  minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1_024,
                  maxAccumulatedFrameSize: 1 << 24),
                FakeInspectorHandler(inspector: self))
            }
          })
        return channel.pipeline.configureHTTPServerPipeline(
          withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
      }
    let server = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
    self.server = server
    port = server.localAddress?.port ?? 0
  }

  var url: URL {
    var components = URLComponents()
    components.scheme = "ws"
    components.host = "127.0.0.1"
    components.port = port
    components.path = "/live/app"
    guard let url = components.url else { preconditionFailure("no URL for port \(port)") }
    return url
  }

  func shutDown() {
    try? server?.close().wait()
    try? group.syncShutdownGracefully()
  }

  /// Reads the guarded state.
  func read<T>(_ body: (FakeInspector) -> T) -> T {
    condition.lock()
    defer { condition.unlock() }
    return body(self)
  }

  /// Waits until `predicate` holds (checked after every message), at most `seconds`.
  @discardableResult
  func wait(seconds: Double = 20, until predicate: (FakeInspector) -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    condition.lock()
    defer { condition.unlock() }
    while !predicate(self) {
      if !condition.wait(until: deadline) { return predicate(self) }
    }
    return true
  }

  /// The highest number held with every number below it.
  var contiguousThrough: Int {
    var number = 0
    while lines[number + 1] != nil { number += 1 }
    return number
  }

  /// The numbered lines in order, as JSON objects.
  func numberedObjects() -> [[String: Any]] {
    read { inspector in
      inspector.lines.keys.sorted().compactMap { inspector.lines[$0].flatMap(Self.object) }
    }
  }

  static func object(_ line: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
  }

  // MARK: Steering the app

  /// Closes the current connection.
  func drop() {
    let channel = read { $0.current }
    try? channel?.close().wait()
  }

  /// Stops or starts reading from the current connection (the app's writes then back up).
  func setReading(_ reading: Bool) {
    guard let channel = read({ $0.current }) else { return }
    try? channel.eventLoop.submit {
      _ = channel.setOption(.autoRead, value: reading)
      if reading { channel.read() }
    }.wait()
  }

  /// Sends a line to the app.
  func send(_ line: String) {
    guard let channel = read({ $0.current }) else { return }
    var buffer = channel.allocator.buffer(capacity: line.utf8.count + 1)
    buffer.writeString(line + "\n")
    channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, data: buffer), promise: nil)
  }

  // MARK: Receiving (on the event loop)

  fileprivate func received(_ text: String, on channel: any Channel, deflatedBytes: Int? = nil) -> [String] {
    condition.lock()
    defer {
      condition.broadcast()
      condition.unlock()
    }
    messages.append(text)
    if let deflatedBytes {
      binaryMessages += 1
      binaryBytes += deflatedBytes
    } else {
      textMessages += 1
    }
    var replies: [String] = []
    var numbered = false
    for line in text.split(separator: "\n").map(String.init) {
      guard let object = Self.object(line), let key = object.keys.first else { continue }
      switch key {
      case "hello":
        let hello = object["hello"] as? [String: Any] ?? [:]
        hellos.append(hello)
        connections += 1
        current = channel
        nextNumber = hello["next"] as? Int ?? 1
        let offered = (hello["compress"] as? [String] ?? []).contains("deflate")
        let compress = deflates && offered ? #","compress":"deflate""# : ""
        replies.append(
          #"{"welcome":{"protocol":"chronicle.live","version":1,"session":"S","resumeAfter":\#(contiguousThrough)\#(compress)}}"#
        )
      case "result": results.append(object["result"] as? [String: Any] ?? [:])
      case "status": statuses.append(object["status"] as? [String: Any] ?? [:])
      default:
        let number = nextNumber
        nextNumber += 1
        numbered = true
        if lines[number] != nil {
          duplicates += 1
        } else {
          if number > contiguousThrough + 1 { holes += 1 }
          lines[number] = line
          if line.hasPrefix(#"{"entry":"#) { entryLines += 1 }
          if let gap = object["gap"] as? [String: Any] { gapEntries += gap["entries"] as? Int ?? 0 }
        }
      }
    }
    if numbered && acknowledges { replies.append(#"{"ack":{"n":\#(contiguousThrough)}}"#) }
    return replies
  }

  fileprivate func closed(_ channel: any Channel) {
    condition.lock()
    if current === channel { current = nil }
    condition.broadcast()
    condition.unlock()
  }
}

private final class FakeInspectorHandler: ChannelInboundHandler, Sendable {
  typealias InboundIn = WebSocketFrame
  typealias OutboundOut = WebSocketFrame

  let inspector: FakeInspector
  /// The connection's DEFLATE stream (the handler is the connection's, and runs on its loop).
  nonisolated(unsafe) private var inflater: ZlibDecompressor?

  init(inspector: FakeInspector) {
    self.inspector = inspector
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let frame = unwrapInboundIn(data)
    switch frame.opcode {
    case .text, .binary:
      var text = String(buffer: frame.unmaskedData)
      var deflatedBytes: Int?
      if frame.opcode == .binary {
        // The app deflates only after a welcome that chose it.
        var input = frame.unmaskedData
        var output = context.channel.allocator.buffer(capacity: 1 << 24)
        if inflater == nil { inflater = try? ZlibDecompressor(algorithm: .deflate) }
        try? inflater?.inflate(from: &input, to: &output)
        text = String(buffer: output)
        deflatedBytes = frame.unmaskedData.readableBytes
      }
      for reply in inspector.received(text, on: context.channel, deflatedBytes: deflatedBytes) {
        var buffer = context.channel.allocator.buffer(capacity: reply.utf8.count + 1)
        buffer.writeString(reply + "\n")
        context.writeAndFlush(
          wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: buffer)), promise: nil)
      }
    case .connectionClose:
      context.close(promise: nil)
    default:
      break
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    inspector.closed(context.channel)
    context.fireChannelInactive()
  }
}
