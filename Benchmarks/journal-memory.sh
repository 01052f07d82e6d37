#!/usr/bin/env bash
# Journal memory per entry with repeated call sites: builds HotPath/ (HotPath/build.sh) and
# runs its `journal/memory` scenario, an uncapped journal of N entries sent from two lines, three
# times; each run prints the resident memory the journal grew by, per entry (Linux).
#
#   Benchmarks/journal-memory.sh                    # N = 1,000,000
#   CHRONICLE_LIBRARY=/tmp/before Benchmarks/journal-memory.sh   # another checkout of the library
set -euo pipefail

n=${1:-1000000}
binary=$("$(dirname "$0")/HotPath/build.sh")
for _ in 1 2 3; do
  "$binary" journal/memory "$n"
done
