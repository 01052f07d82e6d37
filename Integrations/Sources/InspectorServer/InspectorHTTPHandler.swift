import ChronicleFormats
import Foundation
import NIOCore
import NIOHTTP1

/// Serves the page at `/` and the stored sessions under `/sessions/ID/`; answers a WebSocket
/// path whose upgrade was refused with the status that says why (401, 403).
final class InspectorHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  private let hub: InspectorHub
  private var head: HTTPRequestHead?

  init(hub: InspectorHub) { self.hub = hub }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head): self.head = head
    case .body: break
    case .end:
      guard let head else { return }
      self.head = nil
      let (status, type, body) = response(to: head)
      var headers = HTTPHeaders()
      headers.add(name: "Content-Type", value: type)
      headers.add(name: "Content-Length", value: String(body.readableBytes))
      headers.add(name: "Cache-Control", value: "no-store")
      headers.add(name: "X-Content-Type-Options", value: "nosniff")
      let keepAlive = head.isKeepAlive
      if !keepAlive { headers.add(name: "Connection", value: "close") }
      context.write(
        wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
        promise: nil)
      context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
      let channel = context.channel
      context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
        if !keepAlive { channel.close(promise: nil) }
      }
    }
  }

  private func response(to head: HTTPRequestHead) -> (HTTPResponseStatus, String, ByteBuffer) {
    let (path, _) = InspectorHub.split(head.uri)
    func text(_ status: HTTPResponseStatus, _ message: String) -> (HTTPResponseStatus, String, ByteBuffer) {
      (status, "text/plain; charset=utf-8", ByteBuffer(string: message + "\n"))
    }
    if path.hasPrefix("/live/") {
      if case .reject(let status, let message) = hub.access(head) { return text(status, message) }
      return text(.badRequest, "a WebSocket upgrade is expected here")
    }
    guard head.method == .GET else { return text(.methodNotAllowed, "GET only") }
    if path == "/" {
      return (
        .ok, "text/html; charset=utf-8",
        ByteBuffer(string: JournalViewer.liveHTML(title: "Chronicle inspector"))
      )
    }
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 4, parts[1] == "sessions", ["journal.json", "journal.ndjson"].contains(parts[3])
    else {
      return text(.notFound, "not found")
    }
    guard hub.authorized(head) else { return text(.unauthorized, "the token is missing or wrong") }
    guard let files = hub.sessionFiles(String(parts[2])) else { return text(.notFound, "no such session") }
    if parts[3] == "journal.ndjson" {
      guard let data = try? Data(contentsOf: files.journal) else {
        return text(.internalServerError, "unreadable")
      }
      return (.ok, "application/x-ndjson", ByteBuffer(bytes: data))
    }
    do {
      let document = try JournalFile(contentsOf: files.journal)
      return (.ok, "application/json", ByteBuffer(bytes: document.journalJSON()))
    } catch {
      return text(.internalServerError, "the session's journal does not load: \(error)")
    }
  }
}
