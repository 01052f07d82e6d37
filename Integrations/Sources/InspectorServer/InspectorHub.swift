import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOWebSocket
import Synchronization

/// What a request may do, decided from its path, token and Origin.
enum Access: Equatable {
  case app
  case page
  case reject(HTTPResponseStatus, String)
}

/// The inspector's state: the sessions, the connected apps and pages, and the routing between
/// them (docs/formats/live-link.md).
///
/// `@unchecked Sendable`: every stored property but the constants is read and written only with
/// `lock` held. Connections call in from their event loops; writes to a channel are made with the
/// lock held, so each channel gets its frames in the order the hub decided them.
final class InspectorHub: @unchecked Sendable {
  let configuration: InspectorConfiguration
  private let lock = NIOLock()
  private var sessions: [String: InspectorSession] = [:]
  private var apps: [Int: AppConnection] = [:]
  private var pages: [Int: PageConnection] = [:]
  private var nextConnection = 1
  private var nextCommand = 1
  /// The port bound, for the inspector's own Origins.
  private var port = 0
  /// When the instances were last sent to the pages, and whether a later sending is scheduled:
  /// entry counts change with every batch, and pages get them at most every
  /// ``instancesInterval``.
  private var instancesSent = NIODeadline.distantPast
  private var instancesScheduled = false
  static let instancesInterval = TimeAmount.milliseconds(200)

  func setPort(_ port: Int) { lock.withLock { self.port = port } }
  var boundPort: Int { lock.withLock { port } }

  static let appKinds: Set<String> = ["hello", "entry", "effect", "state", "gap", "result", "status"]
  static let pageKinds: Set<String> = ["subscribe", "command"]
  static let commandNames: Set<String> = [
    "jump", "undo", "redo", "returnToPresent", "skip", "commit", "reset", "pause", "resume", "dispatch",
  ]

  private final class AppConnection {
    let channel: Channel
    var instance: String?
    /// The number the next numbered line of this connection has.
    var next: UInt64 = 0
    /// Commands relayed to the app and not answered: the inspector's id → the page and its id.
    var pending: [Int: (page: Int, id: Int)] = [:]
    var closing = false
    /// The welcome chose `deflate`: the app's later messages are binary, raw DEFLATE.
    var deflated = false
    init(channel: Channel) { self.channel = channel }
  }

  private final class PageConnection {
    let channel: Channel
    var instance: String?
    /// The number of the next line of `instance` the page is owed.
    var next: UInt64 = 1
    /// Bytes written to the channel and not yet sent: an atomic, as writes complete on the
    /// page's event loop, where taking the hub's lock could wait on a thread holding it.
    let pendingBytes = PendingBytes()
    var closing = false
    /// Counts the page's subscriptions: a reading of past lines for an earlier one stops.
    var subscription = 0
    /// Past lines are being read for the page (off the lock): live lines wait in ``queued``
    /// meanwhile, so that the page gets them after the past ones, none missed or sent twice.
    var catchingUp = false
    var queued: [String] = []
    var queuedBytes = 0
    init(channel: Channel) { self.channel = channel }
  }

  /// Reads sessions' past lines for pages, off the lock and off the event loops.
  private static let pastReading = DispatchQueue(
    label: "chronicle.inspector.past-lines", attributes: .concurrent)

  final class PendingBytes: Sendable {
    let value = Atomic<Int>(0)
  }

  init(configuration: InspectorConfiguration) throws {
    self.configuration = configuration
    let manager = FileManager.default
    try manager.createDirectory(at: configuration.dataDirectory, withIntermediateDirectories: true)
    let folders =
      (try? manager.contentsOfDirectory(
        at: configuration.dataDirectory, includingPropertiesForKeys: nil)) ?? []
    for folder in folders {
      if let session = InspectorSession(reopening: folder) { sessions[session.info.id] = session }
    }
  }

  // MARK: - Access

  /// Whether `head` may open an app's or a page's link, or why not.
  func access(_ head: HTTPRequestHead) -> Access {
    let (path, query) = Self.split(head.uri)
    switch path {
    case "/live/app":
      let bearer = head.headers["Authorization"].first ?? ""
      guard bearer.hasPrefix("Bearer "), Self.same(String(bearer.dropFirst(7)), configuration.token) else {
        return .reject(.unauthorized, "a Bearer token is required")
      }
      return .app
    case "/live/ui":
      guard let token = query["token"], Self.same(token, configuration.token) else {
        return .reject(.unauthorized, "the token is missing or wrong")
      }
      guard let origin = head.headers["Origin"].first, allowedOrigins.contains(origin) else {
        return .reject(.forbidden, "this Origin may not connect")
      }
      return .page
    default:
      return .reject(.notFound, "not found")
    }
  }

  /// Whether a plain HTTP request carries the token (`?token=` or `Authorization: Bearer`).
  func authorized(_ head: HTTPRequestHead) -> Bool {
    if let token = Self.split(head.uri).query["token"], Self.same(token, configuration.token) { return true }
    let bearer = head.headers["Authorization"].first ?? ""
    return bearer.hasPrefix("Bearer ") && Self.same(String(bearer.dropFirst(7)), configuration.token)
  }

  private var allowedOrigins: Set<String> {
    let port = lock.withLock { self.port }
    var origins: Set<String> = [
      "http://127.0.0.1:\(port)", "http://localhost:\(port)", "http://\(configuration.host):\(port)",
    ]
    origins.formUnion(configuration.allowedOrigins)
    return origins
  }

  /// Compares tokens in time that does not depend on where they differ.
  private static func same(_ a: String, _ b: String) -> Bool {
    let a = Array(a.utf8)
    let b = Array(b.utf8)
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in a.indices { difference |= a[index] ^ b[index] }
    return difference == 0
  }

  /// A request target's path and its query's parameters.
  static func split(_ uri: String) -> (path: String, query: [String: String]) {
    guard let components = URLComponents(string: uri) else { return (uri, [:]) }
    var query: [String: String] = [:]
    for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
    return (components.path, query)
  }

  // MARK: - Sessions for HTTP

  /// The session of `id`, for its files.
  func sessionFiles(_ id: String) -> (journal: URL, metaFolder: URL)? {
    lock.withLock { sessions[id].map { ($0.journalURL, $0.folder) } }
  }

  // MARK: - Connections

  /// Registers a connection; returns its number.
  func connected(_ channel: Channel, as access: Access) -> Int {
    lock.withLock {
      let id = nextConnection
      nextConnection += 1
      if access == .page {
        pages[id] = PageConnection(channel: channel)
        send(instancesLine(), to: id)
      } else {
        apps[id] = AppConnection(channel: channel)
      }
      return id
    }
  }

  /// Forgets a connection; an app's session is kept, listed as not connected.
  func disconnected(_ id: Int) {
    lock.withLock {
      if let app = apps.removeValue(forKey: id) {
        for (_, waiting) in app.pending {
          sendResult(
            to: waiting.page, instance: app.instance ?? "", id: waiting.id,
            unavailable: "the app disconnected")
        }
        if app.instance != nil { broadcastInstances() }
      }
      pages.removeValue(forKey: id)
    }
  }

  /// Handles a text message from connection `id`; throws to close the connection with the
  /// error's code and reason, nothing of the message applied.
  func received(_ text: String, from id: Int) throws(LiveLineError) {
    let isApp = lock.withLock { apps[id] != nil }
    // Parsed before the lock is taken: one app's parsing does not hold up the others.
    let lines = try LiveMessage.lines(of: text, kinds: isApp ? Self.appKinds : Self.pageKinds)
    lock.lock()
    defer { lock.unlock() }
    if isApp {
      try appMessage(lines, from: id)
    } else if pages[id] != nil {
      try pageMessage(lines, from: id)
    }
  }

  /// Whether connection `id` is an app whose welcome chose `deflate`, so that its binary
  /// messages are its text compressed.
  func deflated(_ id: Int) -> Bool {
    lock.withLock { apps[id]?.deflated ?? false }
  }

  /// Marks a connection as closing: nothing more is sent to it, nothing more it sends is read.
  func closing(_ id: Int) {
    lock.withLock {
      apps[id]?.closing = true
      pages[id]?.closing = true
    }
  }

  // MARK: - App messages

  private func appMessage(_ received: [LiveLine], from id: Int) throws(LiveLineError) {
    guard let app = apps[id], !app.closing else { return }
    // Every line is checked before anything is done, the hello's welcome included.
    let opening = app.instance == nil
    if opening {
      guard received.first?.kind == "hello" else {
        throw .shape(1, "the first line of a connection is hello")
      }
    }
    var numbered: [LiveLine] = []
    for (offset, line) in received.enumerated() where !(opening && offset == 0) {
      switch line.kind {
      case "hello": throw .shape(offset + 1, "a second hello")
      case "result", "status": continue
      default:
        guard line.body is [String: Any] else { throw .shape(offset + 1, "\(line.kind) is an object") }
        numbered.append(line)
      }
    }
    if opening { try welcome(received[0], app: app, id: id) }
    let lines = opening ? Array(received.dropFirst()) : received
    guard let instance = app.instance, let session = sessions[instance] else { return }
    // Lines the inspector already has (numbered up to `session.last`) are not stored twice.
    let first = app.next
    app.next += UInt64(numbered.count)
    var fresh =
      first > session.last
      ? numbered : Array(numbered.dropFirst(Int(min(session.last + 1 - first, UInt64(numbered.count)))))
    if !fresh.isEmpty {
      var start = max(first, session.last + 1)
      if start > session.last + 1, fresh.first?.kind != "gap" {
        // A hole the app did not announce (its hello's `next` was past what is stored, and its
        // first line is not the gap that would say what was lost): recorded here, numbered just
        // before the app's first line, so that the page and the stored session show it.
        let dropped = start - 1 - session.last
        let text = #"{"gap":{"dropped":"# + String(dropped) + #","entries":null}}"#
        fresh.insert(LiveLine(kind: "gap", body: [String: Any](), text: Substring(text)), at: 0)
        start -= 1
      }
      do {
        try session.append(fresh, first: start)
      } catch {
        throw LiveLineError(code: 1011, reason: "the inspector could not store the lines")
      }
      send(#"{"ack":{"n":"# + String(session.last) + "}}\n", toApp: app)
      forward(fresh, first: start, of: instance)
      if fresh.contains(where: { $0.kind == "entry" }) { instancesChanged(on: app.channel.eventLoop) }
    }
    for line in lines where line.kind == "result" || line.kind == "status" {
      relay(line, from: app, instance: instance)
    }
  }

  private func welcome(_ hello: LiveLine, app: AppConnection, id: Int) throws(LiveLineError) {
    guard let body = hello.body as? [String: Any], body["protocol"] as? String == "chronicle.live" else {
      throw .shape(1, "hello.protocol is \"chronicle.live\"")
    }
    guard JSONText.integer(body["version"]) == 1 else {
      throw .shape(1, "hello.version 1 is the one spoken here")
    }
    guard let instance = body["instance"] as? [String: Any], let instanceID = instance["id"] as? String,
      Self.isSafeID(instanceID)
    else { throw .shape(1, "hello.instance.id is 1 to 100 letters, digits, '-', '_' or '.'") }
    guard let next = JSONText.integer(body["next"]), next >= 1 else {
      throw .shape(1, "hello.next is a number from 1 on")
    }
    let meta = body["meta"] as? [String: Any] ?? [:]
    let state = meta["state"] as? [String: Any]
    let action = meta["action"] as? [String: Any]
    let info = InstanceInfo(
      id: instanceID, name: instance["name"] as? String ?? "", host: instance["host"] as? String ?? "",
      pid: JSONText.integer(instance["pid"]) ?? 0, store: instance["store"] as? String ?? "",
      stateType: state?["type"] as? String ?? "?", actionType: action?["type"] as? String ?? "?",
      allows: (body["allows"] as? [String] ?? []).filter { Self.commandNames.contains($0) },
      metaJSON: JSONText.encode(meta))
    let session: InspectorSession
    if let known = sessions[instanceID] {
      session = known
      session.update(info)
    } else {
      do {
        session = try InspectorSession(
          creating: info,
          in: configuration.dataDirectory.appendingPathComponent(instanceID, isDirectory: true))
      } catch {
        throw LiveLineError(code: 1011, reason: "the inspector could not make the session's folder")
      }
      sessions[instanceID] = session
    }
    // An instance has one connection: a reconnecting app replaces the one it lost.
    for (otherID, other) in apps where other !== app && other.instance == instanceID {
      close(other.channel, code: 1008, reason: "replaced by a new connection of the instance")
      other.closing = true
      apps.removeValue(forKey: otherID)
    }
    app.instance = instanceID
    app.next = UInt64(next)
    app.deflated = (body["compress"] as? [Any])?.contains { $0 as? String == "deflate" } ?? false
    send(
      #"{"welcome":{"protocol":"chronicle.live","version":1,"session":"# + JSONText.string(instanceID)
        + #","resumeAfter":"# + String(session.last) + (app.deflated ? #","compress":"deflate""# : "")
        + "}}\n", toApp: app)
    broadcastInstances()
  }

  static func isSafeID(_ id: String) -> Bool {
    !id.isEmpty && id.utf8.count <= 100 && id != "." && id != ".."
      && id.unicodeScalars.allSatisfy {
        $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0))
      }
  }

  /// Sends a result or status line from the app to the pages it concerns.
  private func relay(_ line: LiveLine, from app: AppConnection, instance: String) {
    guard var body = line.body as? [String: Any] else { return }
    body["instance"] = instance
    if line.kind == "result" {
      guard let id = JSONText.integer(body["id"]), let waiting = app.pending.removeValue(forKey: id) else {
        return
      }
      body["id"] = waiting.id
      send(JSONText.encode(["result": body]) + "\n", to: waiting.page)
    } else {
      let text = JSONText.encode(["status": body]) + "\n"
      for (pageID, page) in pages where page.instance == instance { send(text, to: pageID) }
    }
  }

  // MARK: - Page messages

  private func pageMessage(_ lines: [LiveLine], from id: Int) throws(LiveLineError) {
    guard let page = pages[id], !page.closing else { return }
    // Checked whole before any is applied.
    for (offset, line) in lines.enumerated() {
      guard let body = line.body as? [String: Any], body["instance"] is String else {
        throw .shape(offset + 1, "\(line.kind).instance is a string")
      }
      if line.kind == "subscribe" {
        guard let from = JSONText.integer(body["from"]), from >= 1 else {
          throw .shape(offset + 1, "subscribe.from is a number from 1 on")
        }
      } else {
        guard JSONText.integer(body["id"]) != nil, let name = body["name"] as? String,
          Self.commandNames.contains(name)
        else { throw .shape(offset + 1, "command has an integer id and a known name") }
      }
    }
    for line in lines {
      guard let body = line.body as? [String: Any], let instance = body["instance"] as? String else {
        continue
      }
      if line.kind == "subscribe" {
        subscribe(page, id: id, to: instance, from: UInt64(JSONText.integer(body["from"]) ?? 1))
      } else {
        command(body, instance: instance, from: id)
      }
    }
  }

  private func subscribe(_ page: PageConnection, id: Int, to instance: String, from: UInt64) {
    page.instance = instance
    page.next = from
    page.subscription += 1
    page.catchingUp = false
    page.queued = []
    page.queuedBytes = 0
    guard let session = sessions[instance] else { return }
    page.next = max(from, session.last + 1)
    guard from <= session.last else { return }
    // The past lines are read from `link.ndjson` up to its length now, on another thread, a
    // batch at a time: a big session neither holds the lock nor an event loop, so other apps and
    // pages go on meanwhile. The live lines from `session.last + 1` on wait for them.
    page.catchingUp = true
    let reading = PastReading(
      page: page, id: id, subscription: page.subscription, instance: instance, from: from,
      url: session.linkURL, length: session.linkLength)
    Self.pastReading.async { [self] in sendPast(reading) }
  }

  private struct PastReading: @unchecked Sendable {
    // `@unchecked Sendable`: `page` is read only with the hub's lock held.
    let page: PageConnection
    let id: Int
    let subscription: Int
    let instance: String
    let from: UInt64
    let url: URL
    let length: Int
  }

  /// Sends a page the past lines of `reading` (called off the lock), each batch once the one
  /// before is written, then the live lines that came meanwhile.
  private func sendPast(_ reading: PastReading) {
    let current = { [self] in
      lock.withLock { reading.page.subscription == reading.subscription && !reading.page.closing }
    }
    let channel = reading.page.channel
    var pending: EventLoopFuture<Void>?
    func write(_ text: String) -> Bool {
      // One batch in flight at a time: a page that reads slowly slows its own reading only.
      if let pending, (try? pending.wait()) == nil { return false }
      guard current() else { return false }
      pending = channel.writeAndFlush(
        WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text)))
      return true
    }
    var completed = InspectorSession.readLink(reading.url, length: reading.length) { lines in
      var batch: [Substring] = []
      var batchBytes = 0
      var batchFirst: UInt64 = 0
      for (number, line) in lines where number >= reading.from {
        // A batch holds consecutive numbers: a hole the app announced starts a new one.
        if !batch.isEmpty && (batchBytes > 1 << 20 || number != batchFirst + UInt64(batch.count)) {
          guard write(linesLine(reading.instance, first: batchFirst, batch)) else { return false }
          batch.removeAll(keepingCapacity: true)
          batchBytes = 0
        }
        if batch.isEmpty { batchFirst = number }
        batch.append(line)
        batchBytes += line.utf8.count
      }
      return batch.isEmpty || write(linesLine(reading.instance, first: batchFirst, batch))
    }
    if completed, let pending { completed = (try? pending.wait()) != nil }
    lock.withLock {
      let page = reading.page
      guard page.subscription == reading.subscription, !page.closing else { return }
      page.catchingUp = false
      let queued = page.queued
      page.queued = []
      page.queuedBytes = 0
      guard completed else {
        page.closing = true
        close(page.channel, code: 1011, reason: "the session's past lines could not be read")
        return
      }
      for text in queued { send(text, to: reading.id) }
    }
  }

  private func command(_ body: [String: Any], instance: String, from pageID: Int) {
    guard let pageCommandID = JSONText.integer(body["id"]), let name = body["name"] as? String else { return }
    guard let (_, app) = apps.first(where: { $0.value.instance == instance && !$0.value.closing }) else {
      sendResult(to: pageID, instance: instance, id: pageCommandID, unavailable: "the app is not connected")
      return
    }
    guard let session = sessions[instance], session.info.allows.contains(name) else {
      sendResult(
        to: pageID, instance: instance, id: pageCommandID, kind: "notAllowed",
        message: "the app does not allow \(name)")
      return
    }
    let commandID = nextCommand
    nextCommand += 1
    app.pending[commandID] = (pageID, pageCommandID)
    var relayed = body
    relayed.removeValue(forKey: "instance")
    relayed["id"] = commandID
    if name == "dispatch" { relayed["context"] = "inspector" }
    send(JSONText.encode(["command": relayed]) + "\n", toApp: app)
  }

  private func sendResult(to page: Int, instance: String, id: Int, unavailable message: String) {
    sendResult(to: page, instance: instance, id: id, kind: "unavailable", message: message)
  }

  private func sendResult(to page: Int, instance: String, id: Int, kind: String, message: String) {
    let body: [String: Any] = [
      "instance": instance, "id": id, "error": ["kind": kind, "message": message] as [String: Any],
    ]
    send(JSONText.encode(["result": body]) + "\n", to: page)
  }

  // MARK: - Sending

  private func forward(_ lines: [LiveLine], first: UInt64, of instance: String) {
    for (pageID, page) in pages where page.instance == instance && !page.closing {
      // A page subscribed from further on skips what it did not ask for.
      guard page.next <= first + UInt64(lines.count) - 1 else { continue }
      let skip = page.next > first ? Int(page.next - first) : 0
      let text = linesLine(instance, first: first + UInt64(skip), lines.dropFirst(skip).map(\.text))
      page.next = first + UInt64(lines.count)
      if page.catchingUp {
        page.queued.append(text)
        page.queuedBytes += text.utf8.count
        if page.queuedBytes > configuration.maxPendingPageBytes {
          page.closing = true
          close(page.channel, code: 1008, reason: "the page does not keep up")
        }
        continue
      }
      send(text, to: pageID)
    }
  }

  private func linesLine(_ instance: String, first: UInt64, _ lines: [Substring]) -> String {
    var bytes = Array(#"{"lines":{"instance":"#.utf8)
    bytes.reserveCapacity(lines.reduce(64) { $0 + $1.utf8.count + 16 })
    JSONText.appendString(instance, to: &bytes)
    bytes += Array(#","from":"#.utf8) + Array(String(first).utf8) + Array(#","lines":["#.utf8)
    for (offset, line) in lines.enumerated() {
      if offset > 0 { bytes.append(UInt8(ascii: ",")) }
      JSONText.appendString(line, to: &bytes)
    }
    bytes += Array("]}}\n".utf8)
    return String(decoding: bytes, as: UTF8.self)
  }

  private func instancesLine() -> String {
    let connected = Set(apps.values.compactMap { $0.closing ? nil : $0.instance })
    let listed = sessions.values.sorted { $0.info.id < $1.info.id }.map {
      $0.info.listing(connected: connected.contains($0.info.id), entries: $0.entries)
    }
    return JSONText.encode(["instances": listed]) + "\n"
  }

  private func broadcastInstances() {
    instancesSent = .now()
    let text = instancesLine()
    for pageID in pages.keys { send(text, to: pageID) }
  }

  /// Sends the instances (their entry counts changed) now if the last sending is
  /// ``instancesInterval`` old, or else once it is; called with the lock held.
  private func instancesChanged(on eventLoop: EventLoop) {
    guard !instancesScheduled, !pages.isEmpty else { return }
    let due = instancesSent + Self.instancesInterval
    if due <= .now() {
      broadcastInstances()
      return
    }
    instancesScheduled = true
    eventLoop.scheduleTask(deadline: due) { [self] in
      lock.withLock {
        instancesScheduled = false
        broadcastInstances()
      }
    }
  }

  private func send(_ text: String, toApp app: AppConnection) {
    guard !app.closing else { return }
    let channel = app.channel
    channel.writeAndFlush(
      WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text)), promise: nil)
  }

  /// Sends to a page, closing it when it has more waiting than it may (a page that does not read
  /// costs the inspector that much, no more).
  private func send(_ text: String, to pageID: Int, capped: Bool = true) {
    guard let page = pages[pageID], !page.closing else { return }
    let size = text.utf8.count
    let pending = page.pendingBytes
    if capped, pending.value.load(ordering: .relaxed) + size > configuration.maxPendingPageBytes {
      page.closing = true
      close(page.channel, code: 1008, reason: "the page does not keep up")
      return
    }
    pending.value.add(size, ordering: .relaxed)
    let promise = page.channel.eventLoop.makePromise(of: Void.self)
    promise.futureResult.whenComplete { _ in pending.value.subtract(size, ordering: .relaxed) }
    page.channel.writeAndFlush(
      WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text)), promise: promise)
  }

  /// Sends a close frame with `code` and `reason`, then closes the channel.
  func close(_ channel: Channel, code: UInt16, reason: String) {
    var data = ByteBuffer()
    data.writeInteger(code)
    data.writeString(String(reason.utf8.prefix(120)) ?? "")
    let frame = WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
    channel.writeAndFlush(frame).whenComplete { _ in channel.close(promise: nil) }
  }

  /// The instances listed, for tests and the HTTP side.
  func listedInstances() -> [String] {
    lock.withLock { sessions.keys.sorted() }
  }

  /// The app and page connections open now.
  func connectionCounts() -> (apps: Int, pages: Int) {
    lock.withLock { (apps.count, pages.count) }
  }

  /// Closes every session's files.
  func shutdown() {
    lock.withLock {
      for session in sessions.values { session.close() }
    }
  }
}
