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
    .library(name: "ChronicleInspection", targets: ["ChronicleInspection"]),
    .library(name: "ChronicleClocks", targets: ["ChronicleClocks"]),
    .library(name: "ChroniclePersistence", targets: ["ChroniclePersistence"]),
    .library(name: "ChronicleMiddleware", targets: ["ChronicleMiddleware"]),
    .library(name: "ChronicleTracer", targets: ["ChronicleTracer"]),
    .library(name: "ChronicleFormats", targets: ["ChronicleFormats"]),
    .library(name: "ChronicleTimeTravel", targets: ["ChronicleTimeTravel"]),
    .library(name: "ChronicleTesting", targets: ["ChronicleTesting"]),
    .executable(name: "counter", targets: ["Counter"]),
    .executable(name: "stopwatch", targets: ["Stopwatch"]),
    .executable(name: "todos", targets: ["Todos"]),
    .executable(name: "chronicle-demo", targets: ["Demo"]),
    .executable(name: "chronicle", targets: ["ChronicleCLI"]),
  ],
  targets: [
    // The lock every module uses, one ThreadSanitizer sees through (internal, not a product).
    .target(name: "ChronicleLocks", path: "Sources/Locks"),
    // Diff, dump and redaction: a leaf, the one module that uses the standard library's
    // reflection SPI.
    .target(name: "ChronicleInspection", dependencies: ["ChronicleLocks"], path: "Sources/Inspection"),
    // The store describes an effect's error with its secrets redacted (ChronicleInspection's
    // dump): every middleware, a user's own among them, sees that text.
    .target(
      name: "ChronicleStore", dependencies: ["ChronicleInspection", "ChronicleLocks"], path: "Sources/Store"),
    // TestClock waits for the stores' effect tasks (the store's `TaskActivity`) to settle.
    .target(
      name: "ChronicleClocks", dependencies: ["ChronicleStore", "ChronicleLocks"], path: "Sources/Clocks"),
    // Saves and restores a state across launches (keeping `@Redacted` values), and shares
    // stores by key.
    .target(
      name: "ChroniclePersistence",
      dependencies: ["ChronicleStore", "ChronicleInspection", "ChronicleLocks"],
      path: "Sources/Persistence"),
    .target(
      name: "ChronicleMiddleware", dependencies: ["ChronicleStore", "ChronicleInspection", "ChronicleLocks"],
      path: "Sources/Middleware"),
    // The tracer's clock reads the CPU's cycle counter, which Swift cannot read without C.
    .target(name: "CChronicleTicks", path: "Sources/CChronicleTicks"),
    .target(
      name: "ChronicleTracer",
      dependencies: ["ChronicleStore", "ChronicleInspection", "ChronicleLocks", "CChronicleTicks"],
      path: "Sources/Tracer"),
    // The JSON core (internal, not a product): the strict parser, its tape and decoder, the
    // writer and the encoders. The encoders redact with ChronicleInspection's policy, a leaf.
    .target(name: "ChronicleJSON", dependencies: ["ChronicleInspection"], path: "Sources/JSON"),
    // Every file format's one reader and one writer, and the viewer, on the JSON core.
    .target(
      name: "ChronicleFormats",
      dependencies: [
        "ChronicleStore", "ChronicleInspection", "ChronicleLocks", "ChronicleTracer", "ChronicleJSON",
        "ChronicleTimeTravel",
      ],
      path: "Sources/Formats"),
    .target(
      name: "ChronicleTimeTravel",
      dependencies: ["ChronicleStore", "ChronicleInspection", "ChronicleLocks", "ChronicleTracer"],
      path: "Sources/TimeTravel"),
    .target(
      name: "Chronicle",
      dependencies: [
        "ChronicleInspection", "ChronicleStore", "ChronicleMiddleware", "ChronicleTracer", "ChronicleFormats",
        "ChronicleTimeTravel", "ChronicleClocks", "ChroniclePersistence",
      ],
      path: "Sources/Chronicle"
    ),
    .target(
      name: "ChronicleTesting",
      dependencies: [
        "ChronicleStore", "ChronicleInspection", "ChronicleLocks", "ChronicleTimeTravel",
        "ChronicleMiddleware", "ChronicleClocks", "ChronicleTracer", "ChronicleFormats",
      ],
      path: "Sources/Testing"),
    .executableTarget(name: "Counter", dependencies: ["Chronicle"], path: "Examples/Counter"),
    .executableTarget(name: "Stopwatch", dependencies: ["Chronicle"], path: "Examples/Stopwatch"),
    .executableTarget(name: "Todos", dependencies: ["Chronicle"], path: "Examples/Todos"),
    .executableTarget(name: "Demo", dependencies: ["Chronicle"], path: "Examples/Demo"),
    .executableTarget(
      name: "ChronicleCLI", dependencies: ["ChronicleStore", "ChronicleTracer", "ChronicleFormats"],
      path: "Sources/CLI"),
    // Opens the HTML viewer in headless Chromium (skipped, with a message, where it is missing).
    .testTarget(
      name: "ViewerTests",
      dependencies: [
        "ChronicleInspection", "ChronicleStore", "ChronicleTracer", "ChronicleFormats", "ChronicleJSON",
      ],
      path: "Tests/ViewerTests"),
    // Runs the `chronicle` and `chronicle-demo` executables (depending on them gets them built).
    // Its leak test also runs a feature through the logger, TestStore and replay.
    .testTarget(
      name: "CLITests",
      dependencies: [
        "ChronicleInspection",
        "ChronicleCLI", "Demo", "ChronicleStore", "ChronicleTracer", "ChronicleFormats",
        "ChronicleMiddleware",
        "ChronicleTimeTravel",
        "ChronicleTesting", "ChronicleTestSupport",
      ],
      path: "Tests/CLITests"),
    // A store alive at exit, for StoreTests' LeakSanitizer test.
    .executableTarget(name: "LeakProbe", dependencies: ["ChronicleStore"], path: "Tests/LeakProbe"),
    .executableTarget(
      name: "PersistenceCrashWriter", dependencies: ["ChronicleStore", "ChroniclePersistence"],
      path: "Tests/PersistenceCrashWriter"),
    // Helpers shared by the test targets (not a product).
    .target(
      name: "ChronicleTestSupport", dependencies: ["ChronicleLocks", "ChronicleStore"],
      path: "Tests/TestSupport"),
    .testTarget(
      name: "InspectionTests", dependencies: ["ChronicleInspection", "ChronicleTestSupport"],
      path: "Tests/InspectionTests"),
    .testTarget(
      name: "ClocksTests", dependencies: ["ChronicleClocks", "ChronicleStore", "ChronicleTestSupport"],
      path: "Tests/ClocksTests"),
    .testTarget(
      name: "PersistenceTests",
      dependencies: [
        "ChroniclePersistence", "ChronicleStore", "ChronicleInspection", "ChronicleClocks",
        "ChronicleTestSupport",
      ],
      path: "Tests/PersistenceTests"),
    .testTarget(
      name: "StoreTests",
      dependencies: [
        "ChronicleStore", "ChronicleInspection", "ChronicleTestSupport", "ChronicleClocks",
      ],
      path: "Tests/StoreTests"),
    .testTarget(
      name: "MiddlewareTests",
      dependencies: [
        "ChronicleStore", "ChronicleInspection", "ChronicleLocks", "ChronicleMiddleware",
        "ChronicleTestSupport", "ChronicleClocks",
      ],
      path: "Tests/MiddlewareTests"),
    .testTarget(
      name: "TestingTests",
      dependencies: [
        "ChronicleInspection", "ChronicleTracer",
        "ChronicleStore", "ChronicleTimeTravel", "ChronicleTesting", "ChronicleClocks", "ChronicleMiddleware",
        "ChronicleFormats",
      ],
      path: "Tests/TestingTests"),
    // The counter feature the tracer and formats tests record (not a product).
    .target(
      name: "TracerFixtures", dependencies: ["ChronicleStore", "ChronicleTracer", "ChronicleTestSupport"],
      path: "Tests/TracerFixtures"),
    // Not @testable: call sites are checked through the public API only.
    .testTarget(
      name: "CallSiteTests",
      dependencies: [
        "ChronicleStore", "ChronicleTracer", "ChronicleFormats", "ChronicleMiddleware", "ChronicleTesting",
        "ChronicleTimeTravel", "ChronicleClocks",
      ],
      path: "Tests/CallSiteTests"),
    .testTarget(
      name: "TracerTests",
      dependencies: [
        "ChronicleStore", "ChronicleTracer", "ChronicleFormats", "ChronicleTestSupport", "TracerFixtures",
        "ChronicleMiddleware",
      ],
      path: "Tests/TracerTests"),
    // The readers and writers of every format, and the crash, fuzz and bad-input suites.
    .testTarget(
      name: "FormatsTests",
      dependencies: [
        "ChronicleInspection",
        "ChronicleStore", "ChronicleTracer", "ChronicleFormats", "ChronicleTestSupport", "TracerFixtures",
        "ChronicleMiddleware", "ChronicleJSON",
      ],
      path: "Tests/FormatsTests"),
    // The JSON core on its own, with the pass/fail corpus of JSON files in Corpus/.
    .testTarget(
      name: "JSONTests", dependencies: ["ChronicleJSON", "ChronicleInspection"], path: "Tests/JSONTests",
      exclude: ["Corpus"]),
    .testTarget(
      name: "TimeTravelTests",
      dependencies: [
        "ChronicleStore", "ChronicleTracer", "ChronicleFormats", "ChronicleTimeTravel", "ChronicleTesting",
        "ChronicleTestSupport", "ChronicleMiddleware",
      ],
      path: "Tests/TimeTravelTests"),
    // The child process of FormatsTests' crash test: appends to an NDJSON journal until killed.
    .executableTarget(
      name: "TracerCrashWriter", dependencies: ["ChronicleStore", "ChronicleTracer", "ChronicleFormats"],
      path: "Tests/TracerCrashWriter"),
  ],
  swiftLanguageModes: [.v6]
)
