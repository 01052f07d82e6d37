#!/usr/bin/env bash
# Runs Chronicle's store benchmarks (one run, all scenarios, release build — the harness builds
# the benchmark targets in release mode) and prints, per scenario, the nanoseconds per action,
# the ratio to the floor and the mallocs per action, judged against the targets in BENCHMARKS.md.
#
#   Benchmarks/run.sh                 # everything
#   Benchmarks/run.sh --filter 'send/.*'   # extra arguments go to `swift package benchmark run`
#                                          # (the ratio column needs `floor` in the run)
#
# Raw results (JMH JSON, per-iteration samples) are kept in Benchmarks/.build/benchmark-results/.
set -euo pipefail

cd "$(dirname "$0")"
results=.build/benchmark-results
mkdir -p "$results"
rm -f "$results"/*.jmh.json

# SwiftPM caches the build plan and does not notice files added to a path dependency (the
# library, which is being worked on); drop the cached plan so the build sees the current sources.
rm -f .build/release.yaml .build/*/release/description.json

start=$(date +%s)
swift package --allow-writing-to-package-directory benchmark run \
  --target StoreBenchmarks --format jmh --path "$results" --no-progress "$@"
end=$(date +%s)

json=$(ls -t "$results"/*.jmh.json | head -n 1)

python3 - "$json" "$((end - start))" <<'PY'
import json
import sys

path, elapsed = sys.argv[1], int(sys.argv[2])

# Actions per measured iteration: the scalingFactor StoreBenchmarks.swift configures (.kilo);
# the JMH export reports per-iteration values, unscaled.
ACTIONS_PER_ITERATION = {}
DEFAULT_ACTIONS = 1_000

# Targets (BENCHMARKS.md, "Targets"): the largest allowed ratio of p50 to the p50 of `floor`.
TARGETS = {"send/no-middleware": 10.0, "send/3-middlewares": 15.0, "send/1-observer": 15.0,
           "tracer/record": 40.0}

ORDER = ["floor", "floor/bare-increment", "send/no-middleware", "send/3-middlewares",
         "send/1-observer", "send/observation-armed", "send/allocations", "control/one-malloc", "logger/predicate-rejects",
         "logger/no-op-sink-with-diff", "tracer/record", "round-trip/thunk", "round-trip/effect-run"]


def percentile(values, p):
    """Nearest-rank percentile of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))  # ceil
    return ordered[int(min(rank, len(ordered))) - 1]


rows = {}
for element in json.load(open(path)):
    name = element["benchmark"].split(".", 3)[3]  # package.benchmark.<target>.<name>
    actions = ACTIONS_PER_ITERATION.get(name, DEFAULT_ACTIONS)
    metrics = element["secondaryMetrics"]
    # Wall clock is exported in microseconds per iteration; convert to ns per action.
    wall = [us * 1_000 / actions for us in metrics["Time (wall clock)"]["rawData"][0]]
    mallocs = [count / actions for count in metrics["Malloc (total)"]["rawData"][0]]
    rows[name] = {
        "samples": len(wall),
        "p0": min(wall),
        "p25": percentile(wall, 25),
        "p50": percentile(wall, 50),
        "p75": percentile(wall, 75),
        "p99": percentile(wall, 99),
        "mallocs": max(mallocs),
        "mallocs_min": min(mallocs),
    }

floor = rows.get("floor", {}).get("p50")
bare = rows.get("floor/bare-increment", {}).get("p50")

header = (f"{'scenario':<28} {'p0':>8} {'p25':>8} {'p50':>8} {'p75':>8} {'p99':>8} "
          f"{'samples':>7} {'×floor':>7} {'×bare':>7} {'mallocs/action':>14}  target")
print()
print("ns per action (wall clock); ratios use p50; mallocs/action is the worst iteration")
print(header)
print("-" * len(header))
verdicts = []
for name in ORDER + sorted(set(rows) - set(ORDER)):
    if name not in rows:
        continue
    r = rows[name]
    ratio = r["p50"] / floor if floor else float("nan")
    ratio_bare = r["p50"] / bare if bare else float("nan")
    target = ""
    if name in TARGETS:
        met = ratio <= TARGETS[name]
        target = f"≤ {TARGETS[name]:g}× floor: {'met' if met else 'NOT met'}"
        verdicts.append(met)
    if name == "send/allocations":
        met = r["mallocs"] == 0
        target = f"0 mallocs/send: {'met' if met else 'NOT met'}"
        verdicts.append(met)
    if name == "logger/predicate-rejects" and "send/no-middleware" in rows:
        extra = r["p50"] - rows["send/no-middleware"]["p50"]
        met = extra <= 2.0
        target = f"≤ 2 ns over send: {extra:+.1f} ns, {'met' if met else 'NOT met'}"
        verdicts.append(met)
    if name == "control/one-malloc":
        works = r["mallocs_min"] >= 1
        target = f"control, expect 1: malloc counting {'works' if works else 'DOES NOT WORK'}"
        verdicts.append(works)
    print(f"{name:<28} {r['p0']:>8.2f} {r['p25']:>8.2f} {r['p50']:>8.2f} {r['p75']:>8.2f} {r['p99']:>8.2f} "
          f"{r['samples']:>7} {ratio:>7.2f} {ratio_bare:>7.1f} {r['mallocs']:>14g}  {target}")
print()
print(f"floor = the Counter reducer (returning .none) called through an @inline(never) function;")
print(f"bare  = the same increment without returning an Effect.")
print(f"benchmark run (build + measurement): {elapsed} s; raw results: {path}")
if verdicts and not all(verdicts):
    print("some targets were NOT met")
PY
