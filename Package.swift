// swift-tools-version: 6.1
//
// Chronicle has no package dependencies: only the toolchain (stdlib, Foundation, Dispatch,
// Synchronization, Observation, Swift Testing). Benchmarks live in their own package under
// Benchmarks/ so that the benchmark harness never becomes a dependency of the library.
import PackageDescription

let package = Package(
  name: "Chronicle",
  // Synchronization's Mutex and Atomic (the store's lock and its re-entrancy check) need
  // macOS 15 / iOS 18; Observation alone would allow one year earlier. See README, "Platforms".
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Chronicle", targets: ["Chronicle"]),
    .library(name: "ChronicleStore", targets: ["ChronicleStore"]),
    .library(name: "ChronicleMiddleware", targets: ["ChronicleMiddleware"]),
    .library(name: "ChronicleTracer", targets: ["ChronicleTracer"]),
    .library(name: "ChronicleTimeTravel", targets: ["ChronicleTimeTravel"]),
    .library(name: "ChronicleTesting", targets: ["ChronicleTesting"]),
    .executable(name: "counter", targets: ["Counter"]),
    .executable(name: "stopwatch", targets: ["Stopwatch"]),
  ],
  targets: [
    .target(name: "ChronicleStore", path: "Sources/Store"),
    .target(name: "ChronicleMiddleware", dependencies: ["ChronicleStore"], path: "Sources/Middleware"),
    .target(name: "ChronicleTracer", dependencies: ["ChronicleStore"], path: "Sources/Tracer"),
    .target(name: "ChronicleTimeTravel", dependencies: ["ChronicleTracer"], path: "Sources/TimeTravel"),
    .target(
      name: "Chronicle",
      dependencies: ["ChronicleStore", "ChronicleMiddleware", "ChronicleTracer", "ChronicleTimeTravel"],
      path: "Sources/Chronicle"
    ),
    .target(name: "ChronicleTesting", dependencies: ["ChronicleTimeTravel"], path: "Sources/Testing"),
    .executableTarget(name: "Counter", dependencies: ["Chronicle"], path: "Examples/Counter"),
    .executableTarget(name: "Stopwatch", dependencies: ["Chronicle"], path: "Examples/Stopwatch"),
    .executableTarget(
      name: "PersistenceCrashWriter", dependencies: ["ChronicleStore"], path: "Tests/PersistenceCrashWriter"),
    .testTarget(name: "StoreTests", dependencies: ["ChronicleStore"], path: "Tests/StoreTests"),
    .testTarget(
      name: "MiddlewareTests", dependencies: ["ChronicleMiddleware"], path: "Tests/MiddlewareTests"),
    .testTarget(
      name: "TestingTests", dependencies: ["ChronicleTesting"], path: "Tests/TestingTests"),
    .testTarget(name: "TracerTests", dependencies: ["ChronicleTracer"], path: "Tests/TracerTests"),
  ],
  swiftLanguageModes: [.v6]
)
