#!/usr/bin/env bash
# The numbers a machine checks: mallocs per iteration (1,000 actions) of the per-action benchmark
# scenarios, and the bytes the tracer allocates per iteration (1,000 recorded entries), against
# the files in Benchmarks/Thresholds/ (one JSON file per scenario, the harness's own format). Both
# are counted exactly by the harness's malloc interposer and the check has no tolerance: a count
# above its file fails, and so does one below (write the files again). The harness compares the
# p90 of the iterations, kept to three significant digits (exact up to 2,047 per iteration).
# `control/one-malloc` allocates one object per action, so a counter that stopped counting fails.
#
#   .ci/check-thresholds.sh            # check (exit 1 when a count differs from its file)
#   .ci/check-thresholds.sh --update   # measure and write the files, to commit
#
# It builds the benchmarks in release mode (the harness's plugin does) and runs each scenario
# counting mallocs only; wall-clock timings are not checked here (Benchmarks/run.sh judges ratios).
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"

# Scenarios whose counts do not depend on timing or on how many iterations ran: each iteration
# starts from the same state (a fresh journal for the tracer), no task or thread is involved.
scenarios='floor|floor/bare-increment|send/no-middleware|send/3-middlewares|send/1-observer'
scenarios+='|send/observation-armed|send/observation-member|send/allocations|control/one-malloc'
scenarios+='|logger/predicate-rejects|logger/no-op-sink-with-diff|tracer/record'
metrics=(--metric mallocCountTotal --metric mallocBytesCount)

# SwiftPM caches the build plan and does not notice files added to a path dependency (the
# library); drop the cached plan so the build sees the current sources (as run.sh does).
rm -f .build/release.yaml .build/*/release/description.json

if [ "${1:-}" = "--update" ]; then
  rm -rf Thresholds
  swift package --allow-writing-to-package-directory benchmark thresholds update \
    --target StoreBenchmarks --filter "$scenarios" "${metrics[@]}" --no-progress
  # The harness writes each file with the metric names its run measured; keep them sorted, so
  # that a change shows as a one-line diff.
  for file in Thresholds/*.json; do
    python3 -c 'import json, sys; path = sys.argv[1]; data = json.load(open(path))
open(path, "w").write(json.dumps(data, indent=2, sort_keys=True) + "\n")' "$file"
  done
  ls Thresholds
  exit 0
fi

status=0
swift package benchmark thresholds check --target StoreBenchmarks --filter "$scenarios" \
  "${metrics[@]}" --no-progress || status=$?
case $status in
  0) echo "thresholds: every count equals its file in Benchmarks/Thresholds" ;;
  2) echo "thresholds: a scenario allocates MORE than its file in Benchmarks/Thresholds says (above)"; exit 1 ;;
  4) echo "thresholds: a scenario allocates less than its file says (above): write the files again with"
     echo "  .ci/check-thresholds.sh --update   and commit them"; exit 1 ;;
  *) echo "thresholds: the check did not run (exit $status)"; exit 1 ;;
esac
