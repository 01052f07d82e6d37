#!/usr/bin/env bash
# The numbers a machine checks: mallocs per iteration (1,000 actions) of the per-action benchmark
# scenarios, and the bytes the tracer allocates per iteration (1,000 recorded entries), against
# the files in Benchmarks/Thresholds/ (one JSON file per scenario, the harness's own format). Both
# are counted exactly by the harness's malloc interposer and the check has no tolerance for malloc
# counts: a count above its file fails, and so does one below (write the files again). Bytes get a
# slack of 64 per iteration (below), for a logged timestamp's length. What is compared is the
# p90 of the iterations, kept by the harness to three significant digits (exact up to 2,047).
# `control/one-malloc` allocates one object per action, so a counter that stopped counting fails.
#
#   .ci/check-thresholds.sh            # check: exit 1 when a count differs from its file
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

# The harness's own `thresholds check` compares only the tolerances a benchmark declares in code
# (none here: the scenarios are shared with Benchmarks/run.sh), so it would pass anything. So the
# scenarios run with the harness writing each one's p90 in the threshold files' own format, and
# the files are compared here, count by count.
measured=.build/thresholds-measured
rm -rf "$measured"
swift package --allow-writing-to-package-directory benchmark run --target StoreBenchmarks \
  --filter "$scenarios" "${metrics[@]}" --format metricP90AbsoluteThresholds --path "$measured" --no-progress
python3 - "$measured" Thresholds << 'EOF_PY'
import json, pathlib, sys
measured, expected = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
BYTES_SLACK = 64
more, fewer, missing = [], [], []
for path in sorted(expected.glob("*.json")):
    found = measured / path.name
    if not found.exists():
        missing.append(path.name)
        continue
    now, then = json.load(open(found)), json.load(open(path))
    for metric in sorted(set(now) | set(then)):
        a, b = then.get(metric), now.get(metric)
        # Bytes may move by a few with the wall clock: a logged line's timestamp is sometimes a
        # size class longer (logger/no-op-sink-with-diff measured 639,872 and 639,888 B per 1,000
        # actions on the same code). A byte count within BYTES_SLACK of its file passes; a malloc
        # count must match exactly, and a byte more per action (1,000 per iteration) fails.
        if metric == "mallocBytesCount" and a is not None and b is not None and abs(b - a) <= BYTES_SLACK:
            continue
        if a != b:
            (more if (b or 0) > (a or 0) else fewer).append(f"{path.name}: {metric} {a} -> {b}")
for path in sorted(measured.glob("*.json")):
    if not (expected / path.name).exists():
        missing.append(f"{path.name} (measured, no file in Benchmarks/Thresholds)")
for line in more:
    print("MORE than the threshold (a regression):", line)
for line in fewer:
    print("fewer than the threshold (write the files again: .ci/check-thresholds.sh --update):", line)
for line in missing:
    print("not measured or no threshold file:", line)
if more or fewer or missing:
    sys.exit(1)
print(f"thresholds: the {len(list(expected.glob('*.json')))} files in Benchmarks/Thresholds match this run")
EOF_PY
