#!/usr/bin/env bash
# The journal's byte cap in a release build (issue 24, items 4 and 5): peak resident memory with
# 2,000 actions of 200 KB each under an 8 MiB cap, and the time of 20,000 actions each adding 1 KB
# to the state (which passes the cap; a list of 1 KB records, and one flat array), each with and
# without the tracer, in the same run. Each
# scenario runs in its own process (`runs` times, 3 by default), so its peak memory is its own.
#
#   Benchmarks/byte-cap.sh [runs]
#
# The program is Benchmarks/ByteCap/main.swift, built as a client of the library in this checkout
# (a package made under Benchmarks/.build/byte-cap, outside the benchmark harness).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
runs=${1:-3}
work="$here/.build/byte-cap"
mkdir -p "$work/Sources/ByteCap"
cp "$here/ByteCap/main.swift" "$work/Sources/ByteCap/main.swift"
# SwiftPM names a path dependency after its folder, lowercased.
library=$(basename "$root" | tr '[:upper:]' '[:lower:]')
cat > "$work/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "ByteCap",
  dependencies: [.package(path: "$root")],
  targets: [
    .executableTarget(
      name: "ByteCap",
      dependencies: [
        .product(name: "ChronicleStore", package: "$library"),
        .product(name: "ChronicleTracer", package: "$library"),
      ])
  ],
  swiftLanguageModes: [.v6]
)
SWIFT
swift build -c release --package-path "$work" --product ByteCap >&2
binary="$(swift build -c release --package-path "$work" --show-bin-path)/ByteCap"
for run in $(seq 1 "$runs"); do
  for scenario in payloads-untraced payloads-traced growing-untraced growing-traced flat-untraced flat-traced; do
    "$binary" "$scenario"
  done
done
