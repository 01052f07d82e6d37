import CompressNIO
import NIOCore
import NIOWebSocket

/// Reads an app's or a page's WebSocket messages (whole, after `NIOWebSocketFrameAggregator`)
/// and hands them to the hub; closes the connection with a code and reason on a bad one.
final class LiveSocketHandler: ChannelInboundHandler {
  typealias InboundIn = WebSocketFrame
  typealias OutboundOut = WebSocketFrame

  private let hub: InspectorHub
  private let access: Access
  private var connection: Int?
  private var closing = false
  /// The app's DEFLATE stream, once its welcome chose `deflate` (one per connection: a message
  /// may refer to what the ones before held).
  private var inflater: ZlibDecompressor?

  init(hub: InspectorHub, access: Access) {
    self.hub = hub
    self.access = access
  }

  func handlerAdded(context: ChannelHandlerContext) {
    connection = hub.connected(context.channel, as: access)
  }

  func channelInactive(context: ChannelHandlerContext) {
    if let connection {
      // Later on the loop, not now: this can run inside a write the hub made with its lock held.
      let hub = hub
      context.eventLoop.execute { hub.disconnected(connection) }
    }
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let frame = unwrapInboundIn(data)
    guard !closing, let connection else { return }
    switch frame.opcode {
    case .text:
      handle(frame.unmaskedData, context: context, connection: connection)
    case .binary:
      guard hub.deflated(connection) else {
        close(context, code: 1003, reason: "text messages only")
        return
      }
      do throws(LiveLineError) {
        if inflater == nil {
          do {
            inflater = try ZlibDecompressor(algorithm: .deflate)
          } catch {
            throw LiveLineError(code: 1011, reason: "the inspector could not inflate")
          }
        }
        guard let inflater else { return }
        let text = try Self.inflate(
          frame.unmaskedData, with: inflater, limit: hub.configuration.maxMessageBytes,
          allocator: context.channel.allocator)
        handle(text, context: context, connection: connection)
      } catch {
        close(context, code: error.code, reason: error.reason)
      }
    case .ping:
      let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
      context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
    case .pong:
      break
    case .connectionClose:
      closing = true
      hub.closing(connection)
      var data = frame.unmaskedData
      let code = data.readSlice(length: 2) ?? ByteBuffer()
      let channel = context.channel
      context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: code)))
        .whenComplete { _ in channel.close(promise: nil) }
    default:
      close(context, code: 1002, reason: "an unknown opcode")
    }
  }

  private func handle(_ bytes: ByteBuffer, context: ChannelHandlerContext, connection: Int) {
    guard let text = String(validating: bytes.readableBytesView, as: UTF8.self) else {
      close(context, code: 1007, reason: "a message that is not UTF-8")
      return
    }
    do throws(LiveLineError) {
      try hub.received(text, from: connection)
    } catch {
      close(context, code: error.code, reason: error.reason)
    }
  }

  /// The text of a deflated message: inflated through the connection's stream into at most
  /// `limit` bytes (a message that inflates past it is refused with 1009, as a text message
  /// over the cap is; a stream that is not DEFLATE with 1007).
  static func inflate(
    _ message: ByteBuffer, with inflater: ZlibDecompressor, limit: Int, allocator: ByteBufferAllocator
  ) throws(LiveLineError) -> ByteBuffer {
    var input = message
    var output = allocator.buffer(capacity: min(limit, max(1 << 12, 8 * input.readableBytes)))
    while true {
      do {
        try inflater.inflate(from: &input, to: &output)
        break
      } catch let error as CompressNIOError where error == .bufferOverflow {
        // The output is full (zlib may hold more even once the input is read): more room, up to
        // the cap.
        guard output.capacity < limit else {
          throw LiveLineError(code: 1009, reason: "the message inflates past what the inspector accepts")
        }
        output.reserveCapacity(min(limit, 2 * output.capacity))
      } catch let error as CompressNIOError where error == .inputBufferOverflow {
        // Nothing more to inflate.
        break
      } catch {
        throw LiveLineError(code: 1007, reason: "a binary message that is not DEFLATE")
      }
    }
    guard output.readableBytes <= limit else {
      throw LiveLineError(code: 1009, reason: "the message inflates past what the inspector accepts")
    }
    return output
  }

  func errorCaught(context: ChannelHandlerContext, error: Error) {
    switch error {
    case NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge,
      NIOWebSocketFrameAggregator.Error.tooManyFragments:
      close(context, code: 1009, reason: "the message is larger than the inspector accepts")
    case is NIOWebSocketFrameAggregator.Error:
      close(context, code: 1002, reason: "fragments out of order")
    default:
      context.close(promise: nil)
    }
  }

  private func close(_ context: ChannelHandlerContext, code: UInt16, reason: String) {
    guard !closing else { return }
    closing = true
    if let connection { hub.closing(connection) }
    hub.close(context.channel, code: code, reason: reason)
  }
}
