import ChronicleInspectorServer
import Foundation
import NIOCore
import NIOWebSocket

/// An inspector on a free loopback port with a fresh data folder, and helpers that speak the
/// live link to it as an app and as a page.
struct InspectorFixture {
  static let token = "test-token-0123456789"
  let server: InspectorServer
  let data: URL

  static func start(
    data: URL? = nil, maxFrameBytes: Int = 16 << 20, maxMessageBytes: Int = 16 << 20,
    maxPendingPageBytes: Int = 64 << 20
  ) async throws -> InspectorFixture {
    let folder =
      data ?? FileManager.default.temporaryDirectory.appendingPathComponent("inspector-\(UUID().uuidString)")
    let server = try InspectorServer(
      configuration: InspectorConfiguration(
        dataDirectory: folder, token: token, maxFrameBytes: maxFrameBytes, maxMessageBytes: maxMessageBytes,
        maxPendingPageBytes: maxPendingPageBytes))
    try await server.start()
    return InspectorFixture(server: server, data: folder)
  }

  var port: Int { server.port }

  func stop() async throws { try await server.stop() }

  func removeData() { try? FileManager.default.removeItem(at: data) }

  static func hello(
    _ instance: String, next: Int = 1, allows: [String] = ["jump", "dispatch"], compress: [String] = []
  ) -> String {
    let offered =
      compress.isEmpty ? "" : #","compress":["# + compress.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    let allowed = allows.map { "\"\($0)\"" }.joined(separator: ",")
    return #"{"hello":{"protocol":"chronicle.live","version":1,"instance":{"id":""# + instance
      + #"","name":"Counter","host":"test-host","pid":42,"store":"main"},"meta":{"state":{"type":"Counter.State","encodable":true},"action":{"type":"Counter.Action","encodable":true},"origin":{"wallTime":1795325325792032000,"iso8601":"2026-11-22T05:28:45.792Z"},"checkpointInterval":256},"allows":["#
      + allowed + #"],"next":"# + String(next) + offered + "}}\n"
  }

  /// The entry line of index `index` (sequence `index + 1`), with the checkpoint the first has.
  static func entry(_ index: Int) -> String {
    let checkpoint = index == 0 ? #","checkpoint":{"kind":"resync","state":{"count":0}}"# : ""
    return #"{"entry":{"index":"# + String(index) + #","seq":"# + String(index + 1) + #","time":"#
      + String(1000 * (index + 1))
      + #","wallTime":1795325325792032000,"context":"Screen","cause":{"kind":"user"},"type":"add","action":{"add":{"_0":1}},"replayable":true,"outcome":"reduced","durations":{"chain":1000,"reducer":500,"reducerOffset":10}"#
      + checkpoint + "}}"
  }

  /// Entry lines `range` as one message.
  static func entries(_ range: Range<Int>) -> String {
    range.map { entry($0) + "\n" }.joined()
  }

  /// An app connected as `instance`, after its hello was welcomed; returns the socket and the
  /// welcome's `resumeAfter`.
  func app(
    _ instance: String, next: Int = 1, allows: [String] = ["jump", "dispatch"]
  ) async throws -> (
    LiveSocket, Int
  ) {
    guard
      case .upgraded(let socket) = try await LiveSocket.open(
        port: port, path: "/live/app", headers: [("Authorization", "Bearer \(Self.token)")])
    else { throw LiveSocket.Timeout() }
    try await socket.send(Self.hello(instance, next: next, allows: allows))
    let welcome = try await socket.line("welcome")
    return (socket, welcome["resumeAfter"] as? Int ?? -1)
  }

  /// A page connected with the token and the inspector's own Origin.
  func page() async throws -> LiveSocket {
    guard
      case .upgraded(let socket) = try await LiveSocket.open(
        port: port, path: "/live/ui?token=\(Self.token)", headers: [("Origin", "http://127.0.0.1:\(port)")])
    else { throw LiveSocket.Timeout() }
    return socket
  }

  /// Reads acks until one acknowledges `n`.
  static func waitForAck(_ socket: LiveSocket, _ n: Int) async throws {
    while true {
      let ack = try await socket.line("ack")
      if ack["n"] as? Int == n { return }
    }
  }

  /// The lines stored in the instance's `link.ndjson`, without their numbers.
  func storedLines(_ instance: String) -> [String] {
    let text =
      (try? String(
        contentsOf: data.appendingPathComponent(instance).appendingPathComponent("link.ndjson"),
        encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap { line in
      line.range(of: #","line":"#).map { String(line[$0.upperBound...].dropLast()) }
    }
  }

  /// The numbers stored in the instance's `link.ndjson`.
  func storedNumbers(_ instance: String) -> [Int] {
    let text =
      (try? String(
        contentsOf: data.appendingPathComponent(instance).appendingPathComponent("link.ndjson"),
        encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["n"] as? Int
    }
  }
}
