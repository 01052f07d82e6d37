import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// The live inspector's server: serves the inspector page at `/`, accepts apps on `/live/app`
/// and pages on `/live/ui`, keeps each app instance's stream on disk, and relays commands from
/// the pages to the apps and their results back (docs/formats/live-link.md).
///
/// ```swift
/// let server = try InspectorServer(configuration: InspectorConfiguration())
/// try await server.start()
/// print(server.pageURL)  // http://127.0.0.1:PORT/?token=…
/// ```
///
/// Every stored line is acknowledged to its app only once written to the session's files, and a
/// reconnecting app is told where to resume from what is on disk: a killed and restarted
/// inspector goes on with no duplicate and no hole. A malformed, oversized or unexpected
/// message closes its connection with a code and a reason, and nothing of it is applied; other
/// connections go on.
public final class InspectorServer: Sendable {
  /// The configuration the server was made with.
  public let configuration: InspectorConfiguration
  private let hub: InspectorHub
  private let group: MultiThreadedEventLoopGroup
  private let channel: NIOLockedChannel

  /// A server for `configuration`, with the sessions stored in its data folder reopened
  /// (listed as not connected). Listens once ``start()`` is called.
  public init(configuration: InspectorConfiguration) throws {
    self.configuration = configuration
    hub = try InspectorHub(configuration: configuration)
    group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
    channel = NIOLockedChannel()
  }

  /// Binds the address and starts accepting connections.
  public func start() async throws {
    let hub = hub
    let configuration = configuration
    let bound = try await ServerBootstrap(group: group)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        let upgrader = NIOWebSocketServerUpgrader(
          maxFrameSize: configuration.maxFrameBytes, automaticErrorHandling: true,
          shouldUpgrade: { channel, head in
            switch hub.access(head) {
            case .app, .page: channel.eventLoop.makeSucceededFuture(HTTPHeaders())
            case .reject: channel.eventLoop.makeSucceededFuture(nil)
            }
          },
          upgradePipelineHandler: { channel, head in
            channel.eventLoop.makeCompletedFuture {
              let aggregator = NIOWebSocketFrameAggregator(
                minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1 << 16,
                maxAccumulatedFrameSize: configuration.maxMessageBytes)
              try channel.pipeline.syncOperations.addHandler(aggregator)
              try channel.pipeline.syncOperations.addHandler(
                LiveSocketHandler(hub: hub, access: hub.access(head)))
            }
          })
        return channel.eventLoop.makeCompletedFuture {
          let http = InspectorHTTPHandler(hub: hub)
          try channel.pipeline.syncOperations.configureHTTPServerPipeline(
            withServerUpgrade: (
              upgraders: [upgrader],
              completionHandler: { context in
                context.pipeline.removeHandler(name: "inspector-http", promise: nil)
              }
            ))
          try channel.pipeline.syncOperations.addHandler(http, name: "inspector-http")
        }
      }
      .childChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .bind(host: configuration.host, port: configuration.port).get()
    channel.set(bound)
    hub.setPort(bound.localAddress?.port ?? configuration.port)
  }

  /// The port the server listens on (the one picked when the configuration's was 0).
  public var port: Int { hub.boundPort }

  /// The page's address, token included: `http://HOST:PORT/?token=TOKEN`.
  public var pageURL: String { "http://\(configuration.host):\(port)/?token=\(configuration.token)" }

  /// The address apps connect to: `ws://HOST:PORT/live/app`.
  public var appURL: String { "ws://\(configuration.host):\(port)/live/app" }

  /// The ids of the instances with a session (connected or stored).
  public var instances: [String] { hub.listedInstances() }

  /// How many apps are connected now: each WebSocket on `/live/app` counts from its upgrade until
  /// it closes, whether or not it said hello.
  public var connectedApps: Int { hub.connectionCounts().apps }

  /// How many pages are connected now (WebSockets on `/live/ui`), counted as ``connectedApps`` is.
  public var connectedPages: Int { hub.connectionCounts().pages }

  /// Waits until the server stops listening.
  public func wait() async throws {
    guard let bound = channel.get() else { return }
    try await bound.closeFuture.get()
  }

  /// Stops listening, closes every connection and the sessions' files.
  public func stop() async throws {
    if let bound = channel.get() { try? await bound.close() }
    try await group.shutdownGracefully()
    hub.shutdown()
  }
}

/// The listening channel, set once it is bound.
private final class NIOLockedChannel: Sendable {
  private let value = NIOLockedValueBox<Channel?>(nil)
  func set(_ channel: Channel) { value.withLockedValue { $0 = channel } }
  func get() -> Channel? { value.withLockedValue { $0 } }
}
