import Foundation

/// How a ``InspectorServer`` listens, where it keeps its sessions and what it accepts.
///
/// The defaults are closed: loopback only, a random token, the inspector's own Origins only, and
/// frames and messages capped at 16 MiB (docs/formats/live-link.md).
public struct InspectorConfiguration: Sendable {
  /// The address to listen on; `127.0.0.1` (loopback) unless told otherwise.
  public var host: String
  /// The port to listen on; `0` picks a free one (see ``InspectorServer/port``).
  public var port: Int
  /// The folder holding one folder per app instance (its `journal.ndjson` and `link.ndjson`).
  public var dataDirectory: URL
  /// The token apps (`Authorization: Bearer`) and pages (`?token=`) must present.
  public var token: String
  /// Origins a page may connect from besides the inspector's own (`http://127.0.0.1:PORT`,
  /// `http://localhost:PORT` and `http://HOST:PORT`).
  public var allowedOrigins: [String]
  /// The largest WebSocket frame accepted, in bytes; a larger one closes the connection (1009).
  public var maxFrameBytes: Int
  /// The largest WebSocket message (its frames together) accepted, in bytes; a larger one closes
  /// the connection (1009).
  public var maxMessageBytes: Int
  /// The bytes a page may have waiting to be sent before the inspector closes it as too slow
  /// (1008): what one stalled page can make the inspector hold.
  public var maxPendingPageBytes: Int

  /// A configuration with the closed defaults and a fresh random token.
  public init(
    host: String = "127.0.0.1", port: Int = 0, dataDirectory: URL = Self.defaultDataDirectory,
    token: String = Self.randomToken(), allowedOrigins: [String] = [], maxFrameBytes: Int = 16 << 20,
    maxMessageBytes: Int = 16 << 20, maxPendingPageBytes: Int = 64 << 20
  ) {
    self.host = host
    self.port = port
    self.dataDirectory = dataDirectory
    self.token = token
    self.allowedOrigins = allowedOrigins
    self.maxFrameBytes = maxFrameBytes
    self.maxMessageBytes = maxMessageBytes
    self.maxPendingPageBytes = maxPendingPageBytes
  }

  /// `chronicle-inspector` under the user's caches folder (`~/.cache` on Linux,
  /// `~/Library/Caches` on Apple platforms).
  public static var defaultDataDirectory: URL {
    let caches =
      FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
      ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
    return caches.appendingPathComponent("chronicle-inspector", isDirectory: true)
  }

  /// 32 random hexadecimal digits (128 bits from the system's random number generator).
  public static func randomToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<4).map { _ in
      let word = String(generator.next() as UInt32, radix: 16)
      return String(repeating: "0", count: 8 - word.count) + word
    }.joined()
  }
}
