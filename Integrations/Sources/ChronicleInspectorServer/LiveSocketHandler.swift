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
      let bytes = frame.unmaskedData
      guard let text = String(validating: bytes.readableBytesView, as: UTF8.self) else {
        close(context, code: 1007, reason: "a message that is not UTF-8")
        return
      }
      do throws(LiveLineError) {
        try hub.received(text, from: connection)
      } catch {
        close(context, code: error.code, reason: error.reason)
      }
    case .binary:
      close(context, code: 1003, reason: "text messages only")
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
