import ChronicleFormats
import ChronicleInspectorServer
import CompressNIO
import Foundation
import NIOCore
import NIOWebSocket
import Testing

@Suite("Inspector server: access")
struct InspectorAccessTests {
  @Test func anAppWithoutATokenIsAnswered401() async throws {
    let inspector = try await InspectorFixture.start()
    defer { inspector.removeData() }
    let outcome = try await LiveSocket.open(port: inspector.port, path: "/live/app", headers: [])
    guard case .refused(let status) = outcome else { Issue.record("upgraded without a token"); return }
    #expect(status == .unauthorized)
    try await inspector.stop()
  }

  @Test func anAppWithAWrongTokenIsAnswered401() async throws {
    let inspector = try await InspectorFixture.start()
    defer { inspector.removeData() }
    let outcome = try await LiveSocket.open(
      port: inspector.port, path: "/live/app", headers: [("Authorization", "Bearer wrong-token-0123456789")])
    guard case .refused(let status) = outcome else { Issue.record("upgraded with a wrong token"); return }
    #expect(status == .unauthorized)
    try await inspector.stop()
  }

  @Test func aPageWithoutTheTokenIsAnswered401() async throws {
    let inspector = try await InspectorFixture.start()
    defer { inspector.removeData() }
    let outcome = try await LiveSocket.open(
      port: inspector.port, path: "/live/ui", headers: [("Origin", "http://127.0.0.1:\(inspector.port)")])
    guard case .refused(let status) = outcome else { Issue.record("upgraded without a token"); return }
    #expect(status == .unauthorized)
    try await inspector.stop()
  }

  @Test func aPageFromAForeignOriginIsAnswered403() async throws {
    let inspector = try await InspectorFixture.start()
    defer { inspector.removeData() }
    let outcome = try await LiveSocket.open(
      port: inspector.port, path: "/live/ui?token=\(InspectorFixture.token)",
      headers: [("Origin", "http://evil.example")])
    guard case .refused(let status) = outcome else { Issue.record("upgraded from a foreign Origin"); return }
    #expect(status == .forbidden)
    try await inspector.stop()
  }

  @Test func aStoredSessionNeedsTheToken() async throws {
    let inspector = try await InspectorFixture.start()
    defer { inspector.removeData() }
    let (app, _) = try await inspector.app("token-check")
    try await app.send(InspectorFixture.entries(0..<1))
    try await InspectorFixture.waitForAck(app, 1)
    let (_, status) = try await HTTP.get(
      "http://127.0.0.1:\(inspector.port)/sessions/token-check/journal.ndjson")
    #expect(status == 401)
    try await inspector.stop()
  }
}

@Suite("Inspector server: bad input")
struct InspectorHostileInputTests {
  @Test func aFrameOverTheCapClosesWith1009() async throws {
    let inspector = try await InspectorFixture.start(maxFrameBytes: 4096, maxMessageBytes: 8192)
    defer { inspector.removeData() }
    let (app, _) = try await inspector.app("big-frame")
    try await app.send(String(repeating: " ", count: 5000) + "\n")
    #expect(try await app.closeCode()?.0 == 1009)
    #expect(inspector.storedNumbers("big-frame") == [])
    try await inspector.stop()
  }

  @Test func aMessageOverTheCapClosesWith1009() async throws {
    let inspector = try await InspectorFixture.start(maxFrameBytes: 4096, maxMessageBytes: 8192)
    defer { inspector.removeData() }
    let (app, _) = try await inspector.app("big-message")
    // Three frames of 3,000 bytes, each under the frame cap, together over the message cap.
    let part = ByteBuffer(string: String(repeating: " ", count: 3000))
    try await app.send(frame: WebSocketFrame(fin: false, opcode: .text, maskKey: .random(), data: part))
    try await app.send(
      frame: WebSocketFrame(fin: false, opcode: .continuation, maskKey: .random(), data: part))
    try await app.send(
      frame: WebSocketFrame(fin: true, opcode: .continuation, maskKey: .random(), data: part))
    #expect(try await app.closeCode()?.0 == 1009)
    try await inspector.stop()
  }

  @Test func aLineThatIsNotJSONClosesWith1007AndNothingOfItsMessageIsStored() async throws {
    let inspector = try await InspectorFixture.start()
    defer { inspector.removeData() }
    let (app, _) = try await inspector.app("not-json")
    try await app.send(InspectorFixture.entries(0..<3) + "{\"entry\":\n")
    let close = try await app.closeCode()
    #expect(close?.0 == 1007)
    #expect(close?.1.hasPrefix("line 4: not JSON") == true)
    #expect(inspector.storedNumbers("not-json") == [])
    try await inspector.stop()
  }

  @Test func aLineOfAnUnknownShapeClosesWith1008() async throws {
    let inspector = try await InspectorFixture.start()
    defer { inspector.removeData() }
    let (app, _) = try await inspector.app("unknown-shape")
    try await app.send(InspectorFixture.entries(0..<1) + #"{"launch":{"missiles":true}}"# + "\n")
    let close = try await app.closeCode()
    #expect(close?.0 == 1008)
    #expect(close?.1 == #"line 2: unknown line "launch""#)
    #expect(inspector.storedNumbers("unknown-shape") == [])
    try await inspector.stop()
  }

  @Test func aConnectionThatDoesNotStartWithHelloIsClosed() async throws {
    let inspector = try await InspectorFixture.start()
    defer { inspector.removeData() }
    guard
      case .upgraded(let app) = try await LiveSocket.open(
        port: inspector.port, path: "/live/app",
        headers: [("Authorization", "Bearer \(InspectorFixture.token)")])
    else { throw LiveSocket.Timeout() }
    try await app.send(InspectorFixture.entries(0..<1))
    #expect(try await app.closeCode()?.0 == 1008)
    #expect(inspector.server.instances == [])
    try await inspector.stop()
  }

  @Test func aHelloWhoseMessageHasABadLineMakesNoSession() async throws {
    let inspector = try await InspectorFixture.start()
    defer { inspector.removeData() }
    guard
      case .upgraded(let app) = try await LiveSocket.open(
        port: inspector.port, path: "/live/app",
        headers: [("Authorization", "Bearer \(InspectorFixture.token)")])
    else { throw LiveSocket.Timeout() }
    try await app.send(
      InspectorFixture.hello("half") + InspectorFixture.entries(0..<1) + #"{"entry":1}"# + "\n")
    let close = try await app.closeCode()
    #expect(close?.0 == 1008)
    #expect(close?.1 == "line 3: entry is an object")
    #expect(inspector.server.instances == [])
    #expect(!FileManager.default.fileExists(atPath: inspector.data.appendingPathComponent("half").path))
    try await inspector.stop()
  }

  @Test func aCommandTheAppDidNotAllowIsRefusedAndNotRelayed() async throws {
    let inspector = try await InspectorFixture.start()
    defer { inspector.removeData() }
    let (app, _) = try await inspector.app("read-only", allows: [])
    let page = try await inspector.page()
    try await page.send(
      #"{"command":{"instance":"read-only","id":7,"name":"dispatch","action":{"reset":{}}}}"# + "\n")
    let result = try await page.line("result")
    #expect(result["id"] as? Int == 7)
    #expect((result["error"] as? [String: Any])?["kind"] as? String == "notAllowed")
    // The app got nothing: the next thing it reads is the ack of what it sends now.
    try await app.send(InspectorFixture.entries(0..<1))
    let lines = try await app.nextLines()
    #expect(lines.count == 1 && lines[0]["ack"] != nil)
    try await inspector.stop()
  }

  @Test func tenThousandFuzzedFramesLeaveTheServerUpAndOtherSessionsWhole() async throws {
    let inspector = try await InspectorFixture.start(maxFrameBytes: 1 << 16, maxMessageBytes: 1 << 17)
    defer { inspector.removeData() }
    let (steady, _) = try await inspector.app("steady")
    var generator = SystemRandomNumberGenerator()
    var frames = 0
    var sent = 0
    let shapes: [String] = [
      "{", "[]\n", "{\"entry\":1}\n", "{\"hello\":{}}\n", "\u{0}\n", "{\"a\":1,\"b\":2}\n", "null\n",
      "{\"gap\":{\"dropped\":1}}\n{\"x\"", "\n", "{\"result\":{\"id\":\"x\"}}\n",
    ]
    while frames < 10_000 {
      let path = Bool.random(using: &generator) ? "/live/app" : "/live/ui?token=\(InspectorFixture.token)"
      guard
        case .upgraded(let fuzz) = try await LiveSocket.open(
          port: inspector.port, path: path,
          headers: [
            ("Authorization", "Bearer \(InspectorFixture.token)"),
            ("Origin", "http://127.0.0.1:\(inspector.port)"),
          ])
      else { continue }
      for _ in 0..<20 where frames < 10_000 {
        frames += 1
        let opcode: WebSocketOpcode =
          [.text, .text, .text, .binary, .continuation, .ping].randomElement(using: &generator) ?? .text
        var bytes = [UInt8]()
        if Bool.random(using: &generator) {
          bytes = Array((shapes.randomElement(using: &generator) ?? "{").utf8)
        } else {
          bytes = (0..<Int.random(in: 0..<200, using: &generator)).map { _ in
            UInt8.random(in: 0...255, using: &generator)
          }
        }
        try? await fuzz.send(
          frame: WebSocketFrame(
            fin: Bool.random(using: &generator), opcode: opcode, maskKey: .random(),
            data: ByteBuffer(bytes: bytes)))
      }
      fuzz.close()
      // Meanwhile the steady app goes on, every line stored and acknowledged.
      try await steady.send(InspectorFixture.entries(sent..<(sent + 1)))
      sent += 1
      try await InspectorFixture.waitForAck(steady, sent)
    }
    #expect(inspector.storedNumbers("steady") == Array(1...sent))
    #expect(inspector.server.instances == ["steady"])
    let (late, resumeAfter) = try await inspector.app("late")
    #expect(resumeAfter == 0)
    late.close()
    // Nothing left behind: once the server has seen the sockets close, it holds the steady app's
    // connection alone (a fuzzed connection it failed to forget would stay counted).
    let deadline = ContinuousClock.now + .seconds(10)
    let server = inspector.server
    while server.connectedApps + server.connectedPages != 1, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(5))
    }
    #expect(server.connectedApps == 1)
    #expect(server.connectedPages == 0)
    try await inspector.stop()
  }
}

@Suite("Inspector server: streams and sessions")
struct InspectorSessionTests {
  @Test func linesAreStoredAcknowledgedAndForwardedToASubscribedPage() async throws {
    let inspector = try await InspectorFixture.start()
    defer { inspector.removeData() }
    let (app, resumeAfter) = try await inspector.app("forwarded")
    #expect(resumeAfter == 0)
    try await app.send(InspectorFixture.entries(0..<3))
    try await InspectorFixture.waitForAck(app, 3)
    let page = try await inspector.page()
    try await page.send(#"{"subscribe":{"instance":"forwarded","from":2}}"# + "\n")
    let past = try await page.line("lines")
    #expect(past["from"] as? Int == 2)
    #expect(past["lines"] as? [String] == [InspectorFixture.entry(1), InspectorFixture.entry(2)])
    try await app.send(InspectorFixture.entries(3..<4))
    let live = try await page.line("lines")
    #expect(live["from"] as? Int == 4)
    #expect(live["lines"] as? [String] == [InspectorFixture.entry(3)])
    try await inspector.stop()
  }

  @Test func aReconnectingAppResumesWithNoDuplicateAndNoHole() async throws {
    let inspector = try await InspectorFixture.start()
    defer { inspector.removeData() }
    let (first, _) = try await inspector.app("resuming")
    try await first.send(InspectorFixture.entries(0..<10))
    try await InspectorFixture.waitForAck(first, 10)
    first.close()
    // The app had kept lines 6 to 10 (not yet freed): it sends them again, then new ones.
    let (second, resumeAfter) = try await inspector.app("resuming", next: 6)
    #expect(resumeAfter == 10)
    try await second.send(InspectorFixture.entries(5..<15))
    try await InspectorFixture.waitForAck(second, 15)
    #expect(inspector.storedNumbers("resuming") == Array(1...15))
    let journal = try JournalFile(
      contentsOf: inspector.data.appendingPathComponent("resuming/journal.ndjson"))
    #expect(journal.entries.map(\.sequence) == Array(1...15))
    try await inspector.stop()
  }

  @Test func aHelloPastWhatIsStoredIsWelcomedAndTheAppsGapStoredUnderItsNumber() async throws {
    let inspector = try await InspectorFixture.start()
    defer { inspector.removeData() }
    // As an app whose inspector lost its data folder: it no longer holds lines 1 to 4, and says so.
    let (app, resumeAfter) = try await inspector.app("wiped", next: 5)
    #expect(resumeAfter == 0)
    let gap = #"{"gap":{"dropped":5,"entries":2}}"#
    try await app.send(gap + "\n" + InspectorFixture.entries(0..<2))
    try await InspectorFixture.waitForAck(app, 7)
    #expect(inspector.storedNumbers("wiped") == [5, 6, 7])
    #expect(inspector.storedLines("wiped").first == gap)
    try await inspector.stop()
  }

  @Test func aHoleTheAppDidNotAnnounceIsStoredAsAGapOfTheInspectors() async throws {
    let inspector = try await InspectorFixture.start()
    defer { inspector.removeData() }
    let (app, resumeAfter) = try await inspector.app("holey", next: 5)
    #expect(resumeAfter == 0)
    try await app.send(InspectorFixture.entries(0..<2))
    try await InspectorFixture.waitForAck(app, 6)
    #expect(inspector.storedNumbers("holey") == [4, 5, 6])
    #expect(
      inspector.storedLines("holey")
        == [#"{"gap":{"dropped":4,"entries":null}}"#, InspectorFixture.entry(0), InspectorFixture.entry(1)])
    let journal = try JournalFile(contentsOf: inspector.data.appendingPathComponent("holey/journal.ndjson"))
    #expect(journal.entries.map(\.sequence) == [1, 2])
    try await inspector.stop()
  }

  @Test func aRestartedInspectorListsTheSessionAndResumesFromDisk() async throws {
    let first = try await InspectorFixture.start()
    defer { first.removeData() }
    let (app, _) = try await first.app("restarted")
    try await app.send(InspectorFixture.entries(0..<10))
    try await InspectorFixture.waitForAck(app, 10)
    try await first.stop()
    // A line torn by a crash at the end of the link file is dropped on reopening.
    let link = first.data.appendingPathComponent("restarted/link.ndjson")
    let handle = try FileHandle(forWritingTo: link)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(#"{"n":11,"line":{"entry":{"ind"#.utf8))
    try handle.close()
    let second = try await InspectorFixture.start(data: first.data)
    #expect(second.server.instances == ["restarted"])
    let (again, resumeAfter) = try await second.app("restarted", next: 11)
    #expect(resumeAfter == 10)
    try await again.send(InspectorFixture.entries(10..<12))
    try await InspectorFixture.waitForAck(again, 12)
    #expect(second.storedNumbers("restarted") == Array(1...12))
    let (body, status) = try await HTTP.get(
      "http://127.0.0.1:\(second.port)/sessions/restarted/journal.json?token=\(InspectorFixture.token)")
    #expect(status == 200)
    let exported = try JournalFile(data: body)
    #expect(exported.entries.map(\.sequence) == Array(1...12))
    try await second.stop()
  }

  @Test func aJournalLongerThanItsLinkIsCutBackOnReopening() async throws {
    let first = try await InspectorFixture.start()
    defer { first.removeData() }
    let (app, _) = try await first.app("cut-back")
    try await app.send(InspectorFixture.entries(0..<4))
    try await InspectorFixture.waitForAck(app, 4)
    try await first.stop()
    // As if killed between the two writes of a batch the other way round: the journal holds a
    // line the link does not.
    let journalURL = first.data.appendingPathComponent("cut-back/journal.ndjson")
    let handle = try FileHandle(forWritingTo: journalURL)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data((InspectorFixture.entry(4) + "\n").utf8))
    try handle.close()
    let second = try await InspectorFixture.start(data: first.data)
    let journal = try JournalFile(contentsOf: journalURL)
    #expect(journal.entries.map(\.sequence) == [1, 2, 3, 4])
    try await second.stop()
  }

  @Test func eightAppsStreamAtOnce() async throws {
    let inspector = try await InspectorFixture.start()
    defer { inspector.removeData() }
    let page = try await inspector.page()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for app in 0..<8 {
        group.addTask {
          let (socket, _) = try await inspector.app("app-\(app)")
          for batch in 0..<10 {
            try await socket.send(InspectorFixture.entries((batch * 50)..<((batch + 1) * 50)))
          }
          try await InspectorFixture.waitForAck(socket, 500)
        }
      }
      try await group.waitForAll()
    }
    #expect(inspector.server.instances == (0..<8).map { "app-\($0)" })
    for app in 0..<8 {
      #expect(inspector.storedNumbers("app-\(app)") == Array(1...500))
    }
    // The page is told of each instance as it says hello: the last list names all eight, connected.
    var listed: [[String: Any]] = []
    while listed.count < 8 {
      let lines = try await page.nextLines()
      if lines.isEmpty { break }
      for line in lines { if let instances = line["instances"] as? [[String: Any]] { listed = instances } }
    }
    #expect(listed.map { $0["id"] as? String } == (0..<8).map { "app-\($0)" })
    #expect(listed.allSatisfy { $0["connected"] as? Bool == true && $0["host"] as? String == "test-host" })
    try await inspector.stop()
  }

  @Test func aPageThatDoesNotReadIsClosedAndTheAppGoesOn() async throws {
    let inspector = try await InspectorFixture.start(maxPendingPageBytes: 256 << 10)
    defer { inspector.removeData() }
    let page = try await inspector.page()
    try await page.send(#"{"subscribe":{"instance":"fast","from":1}}"# + "\n")
    // The page stops reading: what the inspector sends it piles up in the kernel's buffers, then
    // in the inspector, up to the cap.
    try await page.channel.setOption(ChannelOptions.autoRead, value: false).get()
    let (app, _) = try await inspector.app("fast")
    for batch in 0..<60 {
      try await app.send(InspectorFixture.entries((batch * 500)..<((batch + 1) * 500)))
    }
    try await InspectorFixture.waitForAck(app, 30_000)
    #expect(inspector.storedNumbers("fast").count == 30_000)
    try await page.channel.setOption(ChannelOptions.autoRead, value: true).get()
    let close = try await page.closeCode(within: 30)
    #expect(close?.0 == 1008)
    #expect(close?.1 == "the page does not keep up")
    try await inspector.stop()
  }

  @Test func aPageSubscribingToABigSessionDoesNotStallOtherApps() async throws {
    let inspector = try await InspectorFixture.start()
    defer { inspector.removeData() }
    // 60,000 entry lines (about 20 MB in link.ndjson), sent 5,000 at a time.
    let count = 60_000
    let (app, _) = try await inspector.app("big")
    for batch in 0..<(count / 5_000) {
      try await app.send(InspectorFixture.entries((batch * 5_000)..<((batch + 1) * 5_000)))
    }
    try await InspectorFixture.waitForAck(app, count)
    // A page that subscribes to the whole session, then reads nothing for a while.
    let page = try await inspector.page()
    try await page.channel.setOption(ChannelOptions.autoRead, value: false).get()
    try await page.send(#"{"subscribe":{"instance":"big","from":1}}"# + "\n")
    let elapsed = try await ContinuousClock().measure {
      let (other, _) = try await inspector.app("other")
      try await other.send(InspectorFixture.entries(0..<1))
      #expect(try await other.line("ack", within: 5)["n"] as? Int == 1)
    }
    // Past lines are read a batch at a time, and no further than the page takes them: the other
    // app waits for none of it (5 s leaves room for a loaded machine).
    #expect(elapsed < .seconds(5))
    // The page then gets every past line, in order, once.
    try await page.channel.setOption(ChannelOptions.autoRead, value: true).get()
    var received = 0
    while received < count {
      let lines = try await page.line("lines", within: 30)
      #expect(lines["from"] as? Int == received + 1)
      received += (lines["lines"] as? [String])?.count ?? 0
    }
    #expect(received == count)
    try await inspector.stop()
  }

  @Test func aCommandIsRelayedToTheAppAndItsResultBackToThePage() async throws {
    let inspector = try await InspectorFixture.start()
    defer { inspector.removeData() }
    let (app, _) = try await inspector.app("steered", allows: ["jump", "dispatch"])
    let page = try await inspector.page()
    try await page.send(#"{"command":{"instance":"steered","id":3,"name":"jump","position":2}}"# + "\n")
    let command = try await app.line("command")
    #expect(command["name"] as? String == "jump")
    #expect(command["position"] as? Int == 2)
    #expect(command["instance"] == nil)
    let relayedID = try #require(command["id"] as? Int)
    try await app.send(#"{"result":{"id":"# + String(relayedID) + #","ok":true,"position":2}}"# + "\n")
    let result = try await page.line("result")
    #expect(result["id"] as? Int == 3)
    #expect(result["instance"] as? String == "steered")
    #expect(result["position"] as? Int == 2)
    try await inspector.stop()
  }

  @Test func aCommandForAnAppNotConnectedIsAnsweredUnavailable() async throws {
    let inspector = try await InspectorFixture.start()
    defer { inspector.removeData() }
    let (app, _) = try await inspector.app("gone")
    app.close()
    let page = try await inspector.page()
    try await page.send(#"{"command":{"instance":"gone","id":1,"name":"undo"}}"# + "\n")
    let result = try await page.line("result")
    #expect((result["error"] as? [String: Any])?["kind"] as? String == "unavailable")
    try await inspector.stop()
  }
}

@Suite("Inspector server: deflated messages")
struct InspectorDeflateTests {
  /// An app's socket after a hello that offered `compress`, and its welcome.
  static func app(
    _ inspector: InspectorFixture, _ instance: String, compress: [String]
  ) async throws -> (LiveSocket, [String: Any]) {
    guard
      case .upgraded(let socket) = try await LiveSocket.open(
        port: inspector.port, path: "/live/app",
        headers: [("Authorization", "Bearer \(InspectorFixture.token)")])
    else { throw LiveSocket.Timeout() }
    try await socket.send(InspectorFixture.hello(instance, compress: compress))
    return (socket, try await socket.line("welcome"))
  }

  /// `text` through `compressor` as a binary message, as the live link sends it.
  static func deflated(_ text: String, _ compressor: ZlibCompressor) throws -> WebSocketFrame {
    var input = ByteBuffer(string: text)
    var output = ByteBuffer()
    output.reserveCapacity(compressor.maxSize(from: input))
    try compressor.deflate(from: &input, to: &output, flush: .sync)
    return WebSocketFrame(fin: true, opcode: .binary, maskKey: .random(), data: output)
  }

  @Test func anAppThatOffersDeflateIsWelcomedWithItAndItsDeflatedMessagesAreStoredAsTheirText() async throws {
    let inspector = try await InspectorFixture.start()
    defer { inspector.removeData() }
    let (app, welcome) = try await Self.app(inspector, "deflated", compress: ["deflate"])
    #expect(welcome["compress"] as? String == "deflate")
    // One stream for the connection: the second message refers back to the first.
    let compressor = try ZlibCompressor(algorithm: .deflate)
    try await app.send(frame: Self.deflated(InspectorFixture.entries(0..<3), compressor))
    try await app.send(frame: Self.deflated(InspectorFixture.entries(3..<6), compressor))
    try await InspectorFixture.waitForAck(app, 6)
    #expect(inspector.storedLines("deflated") == (0..<6).map(InspectorFixture.entry))
    try await inspector.stop()
  }

  @Test func anAppThatOffersNoCompressionIsWelcomedWithoutAndItsBinaryMessageClosesWith1003() async throws {
    let inspector = try await InspectorFixture.start()
    defer { inspector.removeData() }
    let (app, welcome) = try await Self.app(inspector, "plain", compress: ["brotli"])
    #expect(welcome["compress"] == nil)
    try await app.send(
      frame: Self.deflated(InspectorFixture.entries(0..<1), ZlibCompressor(algorithm: .deflate)))
    let close = try await app.closeCode()
    #expect(close?.0 == 1003)
    #expect(inspector.storedNumbers("plain") == [])
    try await inspector.stop()
  }

  @Test func aDeflatedMessageThatInflatesPastTheCapClosesWith1009AndNothingIsStored() async throws {
    let inspector = try await InspectorFixture.start(maxMessageBytes: 8192)
    defer { inspector.removeData() }
    let (app, _) = try await Self.app(inspector, "bomb", compress: ["deflate"])
    // 1 MiB of one line: a few kilobytes deflated, far past the 8 KiB cap inflated.
    let line = #"{"entry":{"pad":""# + String(repeating: "a", count: 1 << 20) + "\"}}\n"
    let frame = try Self.deflated(line, ZlibCompressor(algorithm: .deflate))
    #expect(frame.data.readableBytes < 8192)
    try await app.send(frame: frame)
    let close = try await app.closeCode()
    #expect(close?.0 == 1009)
    #expect(inspector.storedNumbers("bomb") == [])
    try await inspector.stop()
  }

  @Test func aBinaryMessageThatIsNotDeflateClosesWith1007() async throws {
    let inspector = try await InspectorFixture.start()
    defer { inspector.removeData() }
    let (app, _) = try await Self.app(inspector, "garbled", compress: ["deflate"])
    let garbage = ByteBuffer(bytes: [0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x13, 0x37, 0x42])
    try await app.send(frame: WebSocketFrame(fin: true, opcode: .binary, maskKey: .random(), data: garbage))
    let close = try await app.closeCode()
    #expect(close?.0 == 1007)
    #expect(close?.1 == "a binary message that is not DEFLATE")
    try await inspector.stop()
  }
}
