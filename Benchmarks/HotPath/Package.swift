// swift-tools-version: 6.1
//
// HotPath: a small release executable that sends N actions through one scenario of the store's hot
// path (send, 3 middlewares, an observer, the tracer, the README's time-travel setup) and of the
// formats (a Journal JSON export, a Journal JSON and an NDJSON import), so that
// `Benchmarks/callgrind.sh` can count instructions per action under valgrind. It depends on the
// library alone (not on the benchmark harness), so it builds in a minute and runs under valgrind.
//
// CHRONICLE_LIBRARY names another checkout of the library to measure (the commit a change started
// from, say); by default it is the library this folder is in.
import Foundation
import PackageDescription

let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let libraryPath =
  ProcessInfo.processInfo.environment["CHRONICLE_LIBRARY"]
  ?? here.deletingLastPathComponent().deletingLastPathComponent().path
// SwiftPM names a path dependency after its folder, lowercased.
let library = URL(fileURLWithPath: libraryPath).lastPathComponent.lowercased()

let package = Package(
  name: "HotPath",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [.package(path: libraryPath)],
  targets: [
    .executableTarget(
      name: "HotPath",
      dependencies: [
        .product(name: "ChronicleStore", package: library),
        .product(name: "ChronicleTracer", package: library),
        .product(name: "ChronicleTimeTravel", package: library),
        .product(name: "ChronicleFormats", package: library),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
