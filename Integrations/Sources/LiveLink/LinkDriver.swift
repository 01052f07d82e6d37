import ChronicleFormats
import ChronicleTracer
import CompressNIO
import Dispatch
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// The connection of a ``LiveLink``: connects, says hello, streams, answers, reconnects.
///
/// Every `var` is read and written on ``loop`` only (the methods hop there), which is what makes
/// the `@unchecked Sendable` sound.
final class LinkDriver<State: Sendable, Action: Sendable>: @unchecked Sendable {
  typealias Configuration = LiveLink<State, Action>.Configuration

  let loop: any EventLoop
  private let configuration: Configuration
  private let instance: LiveProtocol.Instance
  private let stream: JournalLiveStream<State, Action>
  private let commands: LiveCommandHandler<State, Action>
  private let onEvent: (@Sendable (LiveLink<State, Action>.Event) -> Void)?
  /// Commands run here, one at a time and in order, off the event loop: applying one waits for
  /// the store.
  private let commandQueue = DispatchQueue(label: "chronicle.live-link.commands")

  private enum Phase {
    case idle
    case connecting
    case awaitingWelcome(LiveResume)
    case streaming
  }

  private var phase = Phase.idle
  private var channel: (any Channel)?
  private var closed = false
  /// The line the inspector is believed to hold up to: the hello's `next` follows it.
  private var resumeHint = 0
  /// The last line written on this connection.
  private var sentThrough = 0
  private var attempt = 0
  private var reconnect: Scheduled<Void>?
  /// The connection's DEFLATE stream once the welcome chose `deflate`: every later message is
  /// compressed through it, so each can refer to what the ones before held.
  private var compressor: ZlibCompressor?

  init(
    configuration: Configuration, instance: LiveProtocol.Instance, stream: JournalLiveStream<State, Action>,
    commands: LiveCommandHandler<State, Action>, loop: any EventLoop,
    onEvent: (@Sendable (LiveLink<State, Action>.Event) -> Void)?
  ) {
    self.configuration = configuration
    self.instance = instance
    self.stream = stream
    self.commands = commands
    self.loop = loop
    self.onEvent = onEvent
  }

  func start() {
    stream.onNewLines { [weak self] in
      guard let self else { return }
      self.loop.execute { self.pump() }
    }
    loop.execute { self.connect() }
  }

  func close() {
    stream.onNewLines(nil)
    stream.close()
    loop.execute {
      guard !self.closed else { return }
      self.closed = true
      self.reconnect?.cancel()
      if let channel = self.channel {
        self.sendClose(on: channel, code: .normalClosure, reason: "closing")
      }
    }
  }

  // MARK: Connecting

  private func connect() {
    guard !closed, case .idle = phase else { return }
    guard let host = configuration.url.host, configuration.url.scheme == "ws" else {
      disconnected(reason: "unsupported URL \(configuration.url) (ws://HOST:PORT/PATH)")
      return
    }
    phase = .connecting
    let port = configuration.url.port ?? 80
    var path = configuration.url.path.isEmpty ? "/" : configuration.url.path
    if let query = configuration.url.query { path += "?" + query }
    var headers = HTTPHeaders()
    headers.add(name: "Host", value: "\(host):\(port)")
    headers.add(name: "Authorization", value: "Bearer \(configuration.token)")
    headers.add(name: "Content-Length", value: "0")
    let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
    let maxIncoming = configuration.maxIncomingMessageBytes
    let upgrade = loop.makePromise(of: Bool.self)
    let bootstrap = ClientBootstrap(group: loop)
      .connectTimeout(.seconds(10))
      .channelInitializer { [self] channel in
        channel.eventLoop.makeCompletedFuture {
          let upgrader = NIOTypedWebSocketClientUpgrader<Bool>(
            maxFrameSize: maxIncoming,
            upgradePipelineHandler: { channel, _ in
              channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandlers(
                  NIOWebSocketFrameAggregator(
                    minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1_024,
                    maxAccumulatedFrameSize: maxIncoming),
                  LinkChannelHandler(driver: self))
                return true
              }
            })
          let configuration = NIOTypedHTTPClientUpgradeConfiguration<Bool>(
            upgradeRequestHead: head, upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in channel.eventLoop.makeSucceededFuture(false) })
          let result = try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
            configuration: .init(upgradeConfiguration: configuration))
          result.cascade(to: upgrade)
        }
      }
    bootstrap.connect(host: host, port: port).whenComplete { [self] result in
      switch result {
      case .success(let channel):
        upgrade.futureResult.whenComplete { [self] outcome in
          if case .success(true) = outcome {
            // The HTTP handlers are gone only now: a frame written before went through them.
            upgraded(channel)
            return
          }
          // Refused (401/403 or another answer) or failed: the channel is of no use.
          channel.close(promise: nil)
          let reason: String
          switch outcome {
          case .success: reason = "the inspector refused the upgrade"
          case .failure(let error): reason = "upgrade failed: \(error)"
          }
          disconnected(reason: reason)
        }
      case .failure(let error):
        upgrade.fail(error)
        disconnected(reason: "cannot connect: \(error)")
      }
    }
  }

  /// The WebSocket is up: say hello.
  func upgraded(_ channel: any Channel) {
    guard !closed else {
      sendClose(on: channel, code: .goingAway, reason: "closing")
      return
    }
    self.channel = channel
    compressor = nil
    let resume = stream.resume(after: resumeHint)
    phase = .awaitingWelcome(resume)
    let hello = LiveProtocol.hello(
      instance: instance, meta: stream.metaJSON(), allows: commands.allows, next: resume.next,
      compress: configuration.compresses ? [LiveProtocol.deflate] : [])
    write([hello], on: channel)
  }

  /// The WebSocket `channel` ended (called by the channel handler).
  func ended(_ channel: any Channel) {
    guard self.channel === channel else { return }
    disconnected(reason: "connection closed")
  }

  /// The connection ended (or never began): try again after the back-off.
  func disconnected(reason: String) {
    channel = nil
    compressor = nil
    phase = .idle
    guard !closed else { return }
    onEvent?(.disconnected(reason: reason))
    scheduleReconnect(after: backoff())
  }

  private func backoff() -> TimeAmount {
    func seconds(_ duration: Duration) -> Double {
      Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
    let first = seconds(configuration.reconnectDelay)
    let cap = seconds(configuration.maxReconnectDelay)
    let delay = min(cap, first * pow(2, Double(min(attempt, 30))))
    attempt += 1
    let jitter = min(1, max(0, configuration.jitter()))
    return .nanoseconds(Int64(delay * (0.5 + 0.5 * jitter) * 1e9))
  }

  private func scheduleReconnect(after delay: TimeAmount) {
    reconnect?.cancel()
    reconnect = loop.scheduleTask(in: delay) { [self] in
      reconnect = nil
      connect()
    }
  }

  // MARK: Receiving

  /// A text message arrived: each of its lines is one message of the inspector's.
  func received(_ text: ByteBuffer, on channel: any Channel) {
    guard self.channel === channel else { return }
    let bytes = text.readableBytesView
    var start = bytes.startIndex
    while start < bytes.endIndex {
      let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.endIndex
      let line = Array(bytes[start..<end])
      start = end < bytes.endIndex ? bytes.index(after: end) : end
      if line.isEmpty { continue }
      let inbound: LiveProtocol.Inbound
      do throws(LiveProtocolError) {
        inbound = try LiveProtocol.parse(line)
      } catch {
        let code: WebSocketErrorCode =
          switch error {
          case .malformed: .dataInconsistentWithMessage
          case .tooLarge: .messageTooLarge
          case .unknownMessage, .unsupportedProtocol: .policyViolation
          }
        sendClose(on: channel, code: code, reason: error.description)
        return
      }
      handle(inbound, on: channel)
    }
  }

  private func handle(_ inbound: LiveProtocol.Inbound, on channel: any Channel) {
    switch inbound {
    case .welcome(let session, let resumeAfter, let compression):
      guard case .awaitingWelcome(let resume) = phase else {
        sendClose(on: channel, code: .policyViolation, reason: "unexpected welcome")
        return
      }
      guard resumeAfter == resumeHint else {
        // The hello promised other numbers: say hello again with the right ones.
        resumeHint = max(0, resumeAfter)
        attempt = 0
        sendClose(on: channel, code: .normalClosure, reason: "resuming after \(resumeAfter)")
        return
      }
      if compression == LiveProtocol.deflate {
        guard configuration.compresses,
          let made = try? ZlibCompressor(
            algorithm: .deflate, configuration: ZlibConfiguration(compressionLevel: .fastestCompression))
        else {
          sendClose(on: channel, code: .policyViolation, reason: "a compression the hello did not offer")
          return
        }
        // zlib's fastest level: the lines repeat each other's names and most values, which it
        // finds; higher levels cost the event loop more CPU per entry for a few bytes less.
        compressor = made
      }
      phase = .streaming
      attempt = 0
      sentThrough = resume.next - 1
      if let gap = resume.gap {
        write([gap.bytes], on: channel)
        sentThrough = gap.number
      }
      onEvent?(.connected(session: session))
      write([commands.statusLine()], on: channel)
      pump()
    case .ack(let number):
      stream.acknowledge(upTo: number)
      resumeHint = max(resumeHint, min(number, stream.statistics.lastNumber))
    case .command(let command):
      commandQueue.async { [self] in
        let result = LiveProtocol.result(commands.handle(command))
        let status = commands.statusLine()
        loop.execute { [self] in
          guard self.channel === channel else { return }
          write([result], on: channel)
          write([status], on: channel)
          pump()
        }
      }
    case .invalidCommand(let id, let message):
      write([LiveProtocol.result(.init(id: id, outcome: .refused(.invalid, message: message)))], on: channel)
    }
  }

  // MARK: Sending

  /// Writes the lines the inspector does not have yet, while the connection takes more.
  func pump() {
    guard case .streaming = phase, let channel else { return }
    var wrote = false
    while channel.isWritable {
      let lines = stream.lines(after: sentThrough, maxBytes: configuration.maxMessageBytes)
      guard let last = lines.last else { break }
      var buffer = channel.allocator.buffer(capacity: lines.reduce(0) { $0 + $1.bytes.count })
      for line in lines { buffer.writeBytes(line.bytes) }
      guard let frame = frame(buffer, on: channel) else { return }
      channel.write(frame, promise: nil)
      sentThrough = last.number
      wrote = true
    }
    if wrote { channel.flush() }
  }

  private func write(_ lines: [[UInt8]], on channel: any Channel) {
    var buffer = channel.allocator.buffer(capacity: lines.reduce(0) { $0 + $1.count })
    for line in lines { buffer.writeBytes(line) }
    guard let frame = frame(buffer, on: channel) else { return }
    channel.writeAndFlush(frame, promise: nil)
  }

  /// A message of `data`: text, or once `deflate` was chosen, binary through the connection's
  /// DEFLATE stream; `nil` (and the connection closed) if compressing failed.
  private func frame(_ data: ByteBuffer, on channel: any Channel) -> WebSocketFrame? {
    // A client masks every frame (RFC 6455, 5.3).
    guard let compressor else {
      return WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: data)
    }
    var input = data
    var output = channel.allocator.buffer(capacity: compressor.maxSize(from: input))
    do {
      try compressor.deflate(from: &input, to: &output, flush: .sync)
    } catch {
      sendClose(on: channel, code: .unexpectedServerError, reason: "compressing failed: \(error)")
      return nil
    }
    return WebSocketFrame(fin: true, opcode: .binary, maskKey: .random(), data: output)
  }

  /// Sends a close frame with `code` and `reason`, then closes the channel.
  func sendClose(on channel: any Channel, code: WebSocketErrorCode, reason: String) {
    var data = channel.allocator.buffer(capacity: 2 + 123)
    data.write(webSocketErrorCode: code)
    // A close frame's reason fits in 123 bytes.
    data.writeBytes(Array(reason.utf8.prefix(123)))
    let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: data)
    channel.writeAndFlush(frame).whenComplete { _ in channel.close(promise: nil) }
  }
}

/// The link's handler on a connection, once it is a WebSocket: hands messages and state changes
/// to the driver.
final class LinkChannelHandler<State: Sendable, Action: Sendable>: ChannelInboundHandler,
  RemovableChannelHandler
{
  typealias InboundIn = WebSocketFrame
  typealias OutboundOut = WebSocketFrame

  private let driver: LinkDriver<State, Action>
  private var closing = false

  init(driver: LinkDriver<State, Action>) {
    self.driver = driver
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let frame = unwrapInboundIn(data)
    switch frame.opcode {
    case .text:
      driver.received(frame.unmaskedData, on: context.channel)
    case .ping:
      let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
      context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
    case .connectionClose:
      // Answer the inspector's close, then end.
      guard !closing else {
        context.close(promise: nil)
        return
      }
      closing = true
      var data = frame.unmaskedData
      let code = data.readWebSocketErrorCode() ?? .normalClosure
      var answer = context.channel.allocator.buffer(capacity: 2)
      answer.write(webSocketErrorCode: code)
      let close = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: answer)
      let channel = context.channel
      context.writeAndFlush(wrapOutboundOut(close)).whenComplete { _ in channel.close(promise: nil) }
    case .binary:
      driver.sendClose(
        on: context.channel, code: .unacceptableData, reason: "binary messages are not part of chronicle.live"
      )
    default:
      break
    }
  }

  func channelWritabilityChanged(context: ChannelHandlerContext) {
    if context.channel.isWritable { driver.pump() }
    context.fireChannelWritabilityChanged()
  }

  func channelInactive(context: ChannelHandlerContext) {
    driver.ended(context.channel)
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    if error is NIOWebSocketFrameAggregator.Error {
      driver.sendClose(on: context.channel, code: .messageTooLarge, reason: "message too large")
    } else {
      context.close(promise: nil)
    }
  }
}
