// swift-tools-version: 6.1
//
// Chronicle's integrations with the server-side Swift ecosystem: swift-log and
// swift-distributed-tracing (and through it any OpenTelemetry collector). A separate package, so
// that the library itself keeps zero dependencies: only an app that wants these adapters pays for
// swift-log, swift-distributed-tracing and (in the tests only) swift-otel.
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder, lowercased: the library's identity is the name
// of the folder holding this one (`main` in one checkout, `chronicle` or a worktree's name in another).
let library = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .lastPathComponent.lowercased()

let package = Package(
  name: "ChronicleIntegrations",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "ChronicleLogging", targets: ["ChronicleLogging"]),
    .library(name: "ChronicleDistributedTracing", targets: ["ChronicleDistributedTracing"]),
    .executable(name: "traced-counter", targets: ["TracedCounter"]),
    // The live inspector (issue 26): the server as a library, and the command that runs it.
    .library(name: "ChronicleInspectorServer", targets: ["ChronicleInspectorServer"]),
    .executable(name: "chronicle-inspector", targets: ["ChronicleInspector"]),
    // The app side of the live inspector: the link a store streams through, and an example app.
    .library(name: "ChronicleLiveLink", targets: ["ChronicleLiveLink"]),
    .executable(name: "inspected-counter", targets: ["InspectedCounter"]),
    // Measures the live link against a real inspector (BENCHMARKS.md, "Live inspector: the app
    // side"); not a test, run by hand in a release build.
    .executable(name: "live-link-benchmark", targets: ["LiveLinkBenchmark"]),
  ],
  dependencies: [
    .package(path: ".."),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    // Only the example and the end-to-end test export through swift-otel; OTLP/HTTP alone (no
    // gRPC) keeps the build to what they need. The library products do not depend on it.
    .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
    // The example and the end-to-end test run swift-otel's services and shut them down gracefully.
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    // The live inspector's HTTP and WebSocket server, the live link's WebSocket client, and their
    // tests' fake peers.
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    // DEFLATE for the live link's compressed messages (zlib, through NIO's ByteBuffer).
    .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
  ],
  targets: [
    .target(
      name: "ChronicleLogging",
      dependencies: [
        .product(name: "ChronicleMiddleware", package: library),
        .product(name: "ChronicleStore", package: library),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Sources/Logging"
    ),
    .target(
      name: "ChronicleDistributedTracing",
      dependencies: [
        .product(name: "ChronicleStore", package: library),
        .product(name: "ChronicleInspection", package: library),
        .product(name: "Tracing", package: "swift-distributed-tracing"),
      ],
      path: "Sources/DistributedTracing"
    ),
    .executableTarget(
      name: "TracedCounter",
      dependencies: [
        "ChronicleDistributedTracing",
        "ChronicleLogging",
        .product(name: "ChronicleMiddleware", package: library),
        .product(name: "ChronicleStore", package: library),
        .product(name: "ChronicleInspection", package: library),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "OTel", package: "swift-otel"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      path: "Examples/TracedCounter"
    ),
    .testTarget(
      name: "ChronicleLoggingTests",
      dependencies: [
        "ChronicleLogging",
        .product(name: "ChronicleMiddleware", package: library),
        .product(name: "ChronicleStore", package: library),
        .product(name: "ChronicleInspection", package: library),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Tests/LoggingTests"
    ),
    .testTarget(
      name: "ChronicleDistributedTracingTests",
      dependencies: [
        "ChronicleDistributedTracing",
        .product(name: "ChronicleMiddleware", package: library),
        .product(name: "ChronicleStore", package: library),
        .product(name: "ChronicleInspection", package: library),
        .product(name: "ChronicleClocks", package: library),
        .product(name: "Tracing", package: "swift-distributed-tracing"),
      ],
      path: "Tests/DistributedTracingTests"
    ),
    .testTarget(
      name: "OTLPEndToEndTests",
      dependencies: [
        "ChronicleDistributedTracing",
        .product(name: "ChronicleStore", package: library),
        .product(name: "ChronicleInspection", package: library),
        .product(name: "Tracing", package: "swift-distributed-tracing"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "OTel", package: "swift-otel"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      // The receiver runs from the source tree, found beside the test's own file.
      exclude: ["otlp_receiver.py"]
    ),
    // The live inspector: its server, its command, and their tests.
    .target(
      name: "ChronicleInspectorServer",
      dependencies: [
        .product(name: "ChronicleFormats", package: library),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
        .product(name: "CompressNIO", package: "compress-nio"),
      ],
      path: "Sources/InspectorServer"
    ),
    .executableTarget(
      name: "ChronicleInspector",
      dependencies: ["ChronicleInspectorServer"],
      path: "Sources/Inspector"
    ),
    .testTarget(
      name: "ChronicleInspectorServerTests",
      dependencies: [
        "ChronicleInspectorServer",
        .product(name: "ChronicleFormats", package: library),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
        .product(name: "CompressNIO", package: "compress-nio"),
      ],
      path: "Tests/InspectorServerTests",
      // The browser tests' scripts run from the source tree, found beside the tests' files.
      exclude: ["browser"]
    ),
    // MARK: The live link: the app side of the live inspector (issue 26)
    .target(
      name: "ChronicleLiveLink",
      dependencies: [
        .product(name: "ChronicleStore", package: library),
        .product(name: "ChronicleInspection", package: library),
        .product(name: "ChronicleTracer", package: library),
        .product(name: "ChronicleFormats", package: library),
        .product(name: "ChronicleTimeTravel", package: library),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
        .product(name: "CompressNIO", package: "compress-nio"),
      ],
      path: "Sources/LiveLink"
    ),
    .executableTarget(
      name: "InspectedCounter",
      dependencies: [
        "ChronicleLiveLink",
        .product(name: "ChronicleStore", package: library),
        .product(name: "ChronicleInspection", package: library),
        .product(name: "ChronicleTracer", package: library),
        .product(name: "ChronicleFormats", package: library),
        .product(name: "ChronicleTimeTravel", package: library),
      ],
      path: "Examples/InspectedCounter"
    ),
    // The live link's benchmark (issue 26, "Performance"): a store linked to a real
    // `chronicle-inspector` process, against the tracer alone in the same run.
    .executableTarget(
      name: "LiveLinkBenchmark",
      dependencies: [
        "ChronicleLiveLink",
        .product(name: "ChronicleStore", package: library),
        .product(name: "ChronicleTracer", package: library),
        .product(name: "ChronicleFormats", package: library),
      ],
      path: "Benchmarks/LiveLinkBenchmark"
    ),
    .testTarget(
      name: "ChronicleLiveLinkTests",
      dependencies: [
        "ChronicleLiveLink",
        .product(name: "ChronicleStore", package: library),
        .product(name: "ChronicleInspection", package: library),
        .product(name: "ChronicleTracer", package: library),
        .product(name: "ChronicleFormats", package: library),
        .product(name: "ChronicleTimeTravel", package: library),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
        .product(name: "CompressNIO", package: "compress-nio"),
      ],
      path: "Tests/LiveLinkTests"
    ),
  ],
  swiftLanguageModes: [.v6]
)

// `CHRONICLE_LIVE_ONLY=1`: the package without what swift-otel needs (the traced-counter example,
// the OTLP end-to-end test, swift-otel and swift-service-lifecycle), so that the live inspector's
// targets build and their stress tests run under ThreadSanitizer, which swift-otel does not build
// under (.ci/run).
if ProcessInfo.processInfo.environment["CHRONICLE_LIVE_ONLY"] == "1" {
  let otelTargets: Set<String> = ["TracedCounter", "OTLPEndToEndTests"]
  package.targets.removeAll { otelTargets.contains($0.name) }
  package.products.removeAll { $0.name == "traced-counter" }
  package.dependencies.removeAll { dependency in
    guard case .sourceControl(_, let location, _) = dependency.kind else { return false }
    let url = "\(location)"
    return url.hasSuffix("/swift-otel") || url.hasSuffix("/swift-service-lifecycle")
  }
}
