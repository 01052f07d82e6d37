#!/usr/bin/env bash
# Journal memory per entry with repeated call sites: builds HotPath/ (as callgrind.sh does) and
# runs its `journal/memory` scenario, an uncapped journal of N entries sent from two lines, three
# times; each run prints the resident memory the journal grew by, per entry (Linux).
#
#   Benchmarks/journal-memory.sh                    # N = 1,000,000
#   CHRONICLE_LIBRARY=/tmp/before Benchmarks/journal-memory.sh   # another checkout of the library
set -euo pipefail

n=${1:-1000000}
cd "$(dirname "$0")/HotPath"
scratch=.build
if [[ -n "${CHRONICLE_LIBRARY:-}" ]]; then
  scratch=".build-$(basename "$CHRONICLE_LIBRARY")"
fi
rm -f "$scratch"/release.yaml "$scratch"/*/release/description.json
swift build -c release --scratch-path "$scratch" --product HotPath >&2
for _ in 1 2 3; do
  "$scratch/release/HotPath" journal/memory "$n"
done
