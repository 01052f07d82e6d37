#!/usr/bin/env bash
# Builds HotPath in release against the library (or CHRONICLE_LIBRARY, another checkout of it) and
# prints the executable's path; the build's output goes to stderr. Used by Benchmarks/callgrind.sh
# and Benchmarks/journal-memory.sh.
set -euo pipefail
cd "$(dirname "$0")"
# One build folder per library measured, so that measuring another checkout rebuilds neither.
scratch=.build
if [[ -n "${CHRONICLE_LIBRARY:-}" ]]; then
  scratch=".build-$(basename "$CHRONICLE_LIBRARY")"
fi
# SwiftPM caches the build plan and may not notice files added to the library: drop it.
rm -f "$scratch"/release.yaml "$scratch"/*/release/description.json
swift build -c release --scratch-path "$scratch" --product HotPath >&2
echo "$PWD/$scratch/release/HotPath"
