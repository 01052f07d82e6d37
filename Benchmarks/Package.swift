// swift-tools-version: 6.1
//
// Chronicle's benchmarks: a separate package, so that the benchmark harness never becomes a
// dependency of the library. The benchmark target is a *client* module of ChronicleStore, so it
// measures what an application gets: the store is generic and `send` is `@inlinable`, so it is
// specialized here for the benchmark's own State and Action.
//
// Run with ./run.sh (or `swift package benchmark` from this directory).
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder, lowercased: the library's identity is the name
// of the folder holding this one (`main` in one checkout, `chronicle` or a worktree's name in another).
let library = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .lastPathComponent.lowercased()

let package = Package(
  name: "ChronicleBenchmarks",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [
    .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    .package(path: ".."),
  ],
  targets: [
    .executableTarget(
      name: "StoreBenchmarks",
      dependencies: [
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "ChronicleStore", package: library),
        .product(name: "ChronicleMiddleware", package: library),
        .product(name: "ChronicleTracer", package: library),
        .product(name: "ChronicleFormats", package: library),
        .product(name: "ChronicleTimeTravel", package: library),
        .product(name: "ChronicleClocks", package: library),
        .product(name: "ChronicleTesting", package: library),
      ],
      path: "Benchmarks/StoreBenchmarks",
      plugins: [
        .plugin(name: "BenchmarkPlugin", package: "benchmark")
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
