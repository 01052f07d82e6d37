#!/usr/bin/env bash
# Runs Chronicle's store benchmarks (one run, all scenarios, release build — the harness builds
# the benchmark targets in release mode) and prints, per scenario, the nanoseconds per action,
# the ratio to the floor and the mallocs per action, judged against the targets in BENCHMARKS.md;
# then, for the time-travel scenarios, the time per jump, the replay rate in actions per second
# and the journal's peak resident memory. Exits with status 1 when a target is missed by more
# than the noise margin (NOISE_MARGIN below, documented in BENCHMARKS.md, "Checked in CI").
#
#   Benchmarks/run.sh                 # everything
#   Benchmarks/run.sh --filter 'send/.*'   # extra arguments go to `swift package benchmark run`
#                                          # (the ratio column needs `floor` in the run)
#   Benchmarks/run.sh --filter 'floor|timetravel/.*|replay/.*|journal/.*'
#                                          # a filter must match a whole name (`wholeMatch`)
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
# The output is kept too: the memory scenarios print there what their journals hold.
swift package --allow-writing-to-package-directory benchmark run \
  --target StoreBenchmarks --format jmh --path "$results" --no-progress "$@" 2>&1 | tee "$results/run.log"
end=$(date +%s)

json=$(ls -t "$results"/*.jmh.json | head -n 1)

python3 - "$json" "$((end - start))" "$results/run.log" <<'PY'
import json
import re
import sys

path, elapsed, log = sys.argv[1], int(sys.argv[2]), sys.argv[3]

# What the memory scenarios' journals hold, and what the export scenarios wrote (with the resident
# memory before they began), as they printed it.
HOLDINGS = {}
GROWTH = {}
EXPORTS = {}
EXPORT_SAMPLES = {}
VIEWER = {}
IMPORTS = {}
SINKS = {}
for line in open(log, errors="replace"):
    # SinkBenchmarks.swift: every iteration's CPU time of the sending thread and of the process.
    found = re.search(r"chronicle-sink: (\S+) sends (\d+) sender ([\d,]+) process ([\d,]+)", line)
    if found:
        SINKS[found.group(1)] = (int(found.group(2)), [int(x) for x in found.group(3).split(",")],
                                 [int(x) for x in found.group(4).split(",")])
    # ViewerBenchmarks.swift: every sample's CPU and wall time, the page's size, the peak memory.
    found = re.search(r"chronicle-viewer: (\S+) entries (\d+) bytes (\d+) cpu ([\d,]+) wall ([\d,]+) peak (\d+)"
                      r"(?: page (\S+))?", line)
    if found:
        VIEWER[found.group(1)] = (int(found.group(2)), int(found.group(3)),
                                  [int(x) for x in found.group(4).split(",")],
                                  [int(x) for x in found.group(5).split(",")], int(found.group(6)),
                                  found.group(7))
    # ExportBenchmarks.swift: every sample's CPU and wall time, and what it wrote.
    found = re.search(r"chronicle-export-samples: (\S+) entries (\d+) bytes (\d+) cpu ([\d,]+) wall ([\d,]+)", line)
    if found:
        EXPORT_SAMPLES[found.group(1)] = (int(found.group(2)), int(found.group(3)),
                                          [int(x) for x in found.group(4).split(",")],
                                          [int(x) for x in found.group(5).split(",")])
    found = re.search(r"chronicle-journal: (\S+) holds (\d+) entries, (\d+) committed, approximateBytes (\d+)", line)
    if found:
        HOLDINGS[found.group(1)] = [int(found.group(n)) for n in (2, 3, 4)]
    # WorstCaseBenchmarks.swift's 100 KB scenarios also print the resident memory they added.
    found = re.search(r"chronicle-journal: (\S+) holds .* resident growth (-?\d+), peak (\d+)", line)
    if found:
        GROWTH[found.group(1)] = [int(found.group(2)), int(found.group(3))]
    # ImportBenchmarks.swift: every import's CPU time and every python3 reading's, same file.
    found = re.search(r"chronicle-import: (\S+) entries (\d+) bytes (\d+) cpu ([\d,]+) python ([\d,]+)", line)
    if found:
        IMPORTS[found.group(1)] = (int(found.group(2)), int(found.group(3)),
                                   [int(x) for x in found.group(4).split(",")],
                                   [int(x) for x in found.group(5).split(",")])
    found = re.search(r"chronicle-export: (\S+) wrote (\d+) bytes, (\d+) entries in (\d+) ns, "
                      r"resident before (\d+), peak (\d+)", line)
    if found:
        EXPORTS[found.group(1)] = [int(found.group(n)) for n in (2, 3, 4, 5, 6)]

# Actions per measured iteration: the scalingFactor StoreBenchmarks.swift configures (.kilo);
# the JMH export reports per-iteration values, unscaled. TimeTravelBenchmarks.swift: 1,000 jumps
# per iteration (so "ns per action" is ns per jump); one replay, or one recording, of a
# 1,000,000-entry journal per iteration.
JOURNAL_LENGTH = 1_000_000
ACTIONS_PER_ITERATION = {"replay/verify": JOURNAL_LENGTH, "journal/memory-1MB-state": JOURNAL_LENGTH,
                         "journal/memory-1MB-state-uncapped": JOURNAL_LENGTH,
                         # ExportBenchmarks.swift: one export, or one recording, per iteration.
                         "export/journal-json": JOURNAL_LENGTH, "export/journal-json-new-actions": JOURNAL_LENGTH,
                         "export/ndjson-stream-100k": 100_000,
                         "export/ndjson-stream-1000k": JOURNAL_LENGTH,
                         # ImportBenchmarks.swift: five imports of 1,000,000 entries per iteration.
                         "import/journal-json-1M": 5 * JOURNAL_LENGTH, "import/ndjson-1M": 5 * JOURNAL_LENGTH,
                         "import/journal-json-1M-new-actions": 5 * JOURNAL_LENGTH,
                         "import/ndjson-1M-new-actions": 5 * JOURNAL_LENGTH,
                         # WorstCaseBenchmarks.swift: one recording of 1,000,000 actions of the
                         # 100 KB state per iteration; 100 jumps (9,999 entries replayed each), or 50
                         # undos (9,998) and 50 redos (9,999), per iteration.
                         "journal/100KB-state": JOURNAL_LENGTH, "journal/100KB-state-uncapped": JOURNAL_LENGTH,
                         "timetravel/jump-replay-step": 100 * 9_999,
                         "timetravel/undo-replay-step": 50 * 9_998 + 50 * 9_999,
                         # ExplorationBenchmarks.swift: one shrink of a 1,000-step run per iteration.
                         "exploration/shrink-1000": 1,
                         # SinkBenchmarks.swift: one first send, or one sink's creation, per iteration.
                         "tracer/record-tally-first-send": 1, "sink/ndjson-each-line-first-send": 1,
                         "sink/ndjson-mapped-first-send": 1, "sink/ndjson-mapped-create": 1}
DEFAULT_ACTIONS = 1_000

# Issue 5's targets for the time-travel scenarios.
JUMP_TARGET_MS = 1.0                 # timetravel/jump: p50 per jump
REPLAY_TARGET_PER_SECOND = 10e6      # replay/verify: p50 rate
MEMORY_TARGET_MB = 256               # journal/memory-*: worst peak resident memory (MB = 10^6 bytes)

# Targets (BENCHMARKS.md, "Current figures"): the largest allowed ratio of p50 to the p50 of `floor`.
TARGETS = {"send/no-middleware": 10.0, "send/3-middlewares": 12.0, "send/1-observer": 15.0,
           "tracer/record": 25.0, "tracer/record-growing": 25.0}

# Issue 13's same-run ratios: (scenario, reference, largest allowed ratio of their p50s).
RELATIVE = [("timetravel/send-recommended", "tracer/record-growing", 1.5),
            ("tracer/record-growing", "tracer/minimal-recording-middleware", 1.3),
            ("timetravel/jump-replay-step", "replay/verify", 2.0),
            ("timetravel/undo-replay-step", "replay/verify", 2.0),
            # Issue 12: the NDJSON sink inside `send`, against the tracer alone with the same actions.
            ("sink/ndjson-each-line", "tracer/record-tally", 10.0),
            ("sink/ndjson-background", "tracer/record-tally", 10.0),
            ("sink/ndjson-each-line-repeating", "tracer/record-tally-repeating", 10.0),
            ("sink/ndjson-background-repeating", "tracer/record-tally-repeating", 10.0),
            # Issue 27: the other crash-safe mode, each line copied into a mapping of the file.
            ("sink/ndjson-mapped", "tracer/record-tally", 10.0),
            ("sink/ndjson-mapped-repeating", "tracer/record-tally-repeating", 10.0),
            # Issue 27: the crash-safe modes with an action that writes its own JSON.
            ("sink/ndjson-each-line-self-writing", "tracer/record-tally", 10.0),
            ("sink/ndjson-mapped-self-writing", "tracer/record-tally", 10.0),
            ("sink/ndjson-each-line-self-writing-repeating", "tracer/record-tally-repeating", 10.0),
            ("sink/ndjson-mapped-self-writing-repeating", "tracer/record-tally-repeating", 10.0),
            # Issue 27: the same after recording for a while (one store and sink across iterations).
            ("sink/ndjson-each-line-steady", "tracer/record-tally-steady", 10.0),
            ("sink/ndjson-mapped-steady", "tracer/record-tally-steady", 10.0),
            ("sink/ndjson-mapped-self-writing-steady", "tracer/record-tally-steady", 10.0),
            ("sink/ndjson-each-line-steady-repeating", "tracer/record-tally-steady-repeating", 10.0),
            ("sink/ndjson-mapped-steady-repeating", "tracer/record-tally-steady-repeating", 10.0),
            ("sink/ndjson-mapped-self-writing-steady-repeating", "tracer/record-tally-steady-repeating", 10.0)]
# Issue 13: with the 100 KB state, peak resident memory at most the default byte cap + 64 MB.
LARGE_STATE_PEAK_MB = (64 << 20) / 1e6 + 64

ORDER = ["floor", "floor/bare-increment", "send/no-middleware", "send/3-middlewares",
         "send/1-observer", "send/observation-armed", "send/observation-member", "send/allocations", "control/one-malloc", "logger/predicate-rejects",
         "logger/no-op-sink-with-diff", "tracer/record", "tracer/record-growing",
         "tracer/minimal-recording-middleware", "tracer/record-app-state", "tracer/record-app-state-sized",
         "tracer/record-tally", "codable/discarding-encoder", "sink/ndjson-each-line", "sink/ndjson-mapped",
         "sink/ndjson-background", "sink/ndjson-each-line-self-writing", "sink/ndjson-mapped-self-writing",
         "tracer/record-tally-repeating", "sink/ndjson-each-line-repeating",
         "sink/ndjson-mapped-repeating", "sink/ndjson-background-repeating",
         "sink/ndjson-each-line-self-writing-repeating", "sink/ndjson-mapped-self-writing-repeating",
         "tracer/record-tally-steady", "sink/ndjson-each-line-steady", "sink/ndjson-mapped-steady",
         "sink/ndjson-mapped-self-writing-steady", "tracer/record-tally-steady-repeating",
         "sink/ndjson-each-line-steady-repeating", "sink/ndjson-mapped-steady-repeating",
         "sink/ndjson-mapped-self-writing-steady-repeating",
         "timetravel/send-recommended", "round-trip/thunk", "round-trip/effect-run",
         "timetravel/jump", "replay/verify", "timetravel/jump-replay-step", "timetravel/undo-replay-step",
         "journal/memory-1MB-state", "journal/100KB-state", "journal/100KB-state-uncapped",
         "journal/memory-1MB-state-uncapped", "export/journal-json", "export/journal-json-new-actions",
         "export/ndjson-stream-100k",
         "export/ndjson-stream-1000k"]


# The scenarios that measure CPU time (WorstCaseBenchmarks.swift).
CPU_MEASURED = {"journal/100KB-state", "journal/100KB-state-uncapped", "timetravel/jump-replay-step",
                "timetravel/undo-replay-step"}

# Byte units the JMH export may scale memory metrics to.
UNIT_BYTES = {"B": 1, "#": 1, "K": 1_000, "KB": 1_000, "M": 1_000_000, "MB": 1_000_000, "G": 1e9, "GB": 1e9}


# A timing target missed by more than NOISE_MARGIN of itself fails the run (exit status 1); one
# missed by less is reported as missed within noise. 15%: with unchanged code, the floor's
# bimodality moves every ×floor ratio by 15% between runs, and same-run ratios to other references
# moved by up to 11% (BENCHMARKS.md, "Checked in CI"). Counts (mallocs) have no margin.
NOISE_MARGIN = 0.15
MISSED_WITHIN_NOISE, FAILED = [], []


def le(value, limit, what):
    """value ≤ limit; a miss beyond the noise margin is a failure."""
    if value <= limit:
        return True
    (FAILED if value > limit * (1 + NOISE_MARGIN) else MISSED_WITHIN_NOISE).append(
        f"{what}: {value:.4g} against at most {limit:.4g}")
    return False


def ge(value, limit, what):
    """value ≥ limit; a miss beyond the noise margin is a failure."""
    if value >= limit:
        return True
    (FAILED if value < limit * (1 - NOISE_MARGIN) else MISSED_WITHIN_NOISE).append(
        f"{what}: {value:.4g} against at least {limit:.4g}")
    return False


def exact(met, what):
    """A count or a measurement that must be there: no margin."""
    if not met:
        FAILED.append(what)
    return met


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
    # The memory scenarios do not count mallocs, and only they measure memory. (The harness's JMH
    # export may carry another scenario's metrics into a scenario that does not measure them.)
    counted = "Malloc (total)" in metrics and not name.startswith(("journal/", "export/"))
    mallocs = [count / actions for count in metrics["Malloc (total)"]["rawData"][0]] if counted else [None]
    rows[name] = {
        "samples": len(wall),
        "p0": min(wall),
        "p25": percentile(wall, 25),
        "p50": percentile(wall, 50),
        "p75": percentile(wall, 75),
        "p99": percentile(wall, 99),
        "mallocs": None if None in mallocs else max(mallocs),
        "mallocs_min": None if None in mallocs else min(mallocs),
    }
    # Long scenarios also measure CPU time (exported in microseconds per iteration, as wall clock).
    # The kernel counts it in 10 ms ticks: an iteration of fewer than 100 ticks (1 s) is reported
    # with its resolution. (The export may carry the metric into scenarios that do not measure it.)
    if "Time (total CPU)" in metrics and name in CPU_MEASURED:
        per_iteration = [us * 1_000 for us in metrics["Time (total CPU)"]["rawData"][0]]
        # An iteration shorter than one tick may count 0 ns: not measurable (cpu_p50 None).
        cpu = percentile(per_iteration, 50)
        rows[name]["cpu_p50"] = cpu / actions if cpu > 0 else None
        rows[name]["cpu_resolution"] = 10e6 / cpu if cpu > 0 else None
    # The memory scenarios' peak resident memory.
    for metric, values in metrics.items():
        if "resident peak" in metric and name.startswith(("journal/", "export/")):
            # Exported in the unit the harness scaled it to; the unit is in scoreUnit.
            rows[name]["peak_rss_mb"] = max(values["rawData"][0]) * UNIT_BYTES.get(values["scoreUnit"], 1) / 1e6

floor = rows.get("floor", {}).get("p50")
bare = rows.get("floor/bare-increment", {}).get("p50")

header = (f"{'scenario':<34} {'p0':>8} {'p25':>8} {'p50':>8} {'p75':>8} {'p99':>8} "
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
        met = le(ratio, TARGETS[name], f"{name} × floor")
        target = f"≤ {TARGETS[name]:g}× floor: {'met' if met else 'NOT met'}"
        verdicts.append(met)
    if name == "send/allocations":
        met = exact(r["mallocs"] == 0, f"{name}: {r['mallocs']} mallocs per send, not 0")
        target = f"0 mallocs/send: {'met' if met else 'NOT met'}"
        verdicts.append(met)
    if name == "logger/predicate-rejects" and "send/no-middleware" in rows:
        extra = r["p50"] - rows["send/no-middleware"]["p50"]
        met = le(extra, 2.0, f"{name} ns over send/no-middleware")
        target = f"≤ 2 ns over send: {extra:+.1f} ns, {'met' if met else 'NOT met'}"
        verdicts.append(met)
    if name == "control/one-malloc":
        works = exact(r["mallocs_min"] >= 1, f"{name}: the malloc counter does not count")
        target = f"control, expect 1: malloc counting {'works' if works else 'DOES NOT WORK'}"
        verdicts.append(works)
    if name == "timetravel/jump":
        ms = r["p50"] / 1e6
        met = le(ms, JUMP_TARGET_MS, f"{name} ms per jump")
        target = f"≤ {JUMP_TARGET_MS:g} ms per jump: {ms * 1e3:.1f} µs, {'met' if met else 'NOT met'}"
        verdicts.append(met)
    if name == "replay/verify":
        rate = 1e9 / r["p50"]
        met = ge(rate, REPLAY_TARGET_PER_SECOND, f"{name} actions/s")
        target = (f"≥ {REPLAY_TARGET_PER_SECOND / 1e6:g}M actions/s: {rate / 1e6:.1f}M/s, "
                  f"{'met' if met else 'NOT met'}")
        verdicts.append(met)
    for scenario, reference, allowed in RELATIVE:
        if name == scenario and reference in rows:
            relative = r["p50"] / rows[reference]["p50"]
            met = le(relative, allowed, f"{name} × {reference}")
            target += f"{'; ' if target else ''}≤ {allowed:g}× {reference}: {relative:.2f}×, {'met' if met else 'NOT met'}"
            verdicts.append(met)
    # Issue 12: the floor under the sink's encoding of a new action, against the tracer alone.
    if name == "codable/discarding-encoder" and "tracer/record-tally" in rows:
        target = f"{r['p50'] / rows['tracer/record-tally']['p50']:.2f}× tracer/record-tally (a reference, no target)"
    if name.startswith("journal/100KB"):
        mb = r.get("peak_rss_mb")
        met = exact(mb is not None, f"{name}: peak not measured") and le(mb, LARGE_STATE_PEAK_MB, f"{name} MB peak")
        found = "not measured" if mb is None else f"{mb:.1f} MB"
        target = f"≤ {LARGE_STATE_PEAK_MB:.1f} MB peak resident: {found}, {'met' if met else 'NOT met'}"
        verdicts.append(met)
    if name.startswith("journal/memory"):
        mb = r.get("peak_rss_mb")
        met = exact(mb is not None, f"{name}: peak not measured") and le(mb, MEMORY_TARGET_MB, f"{name} MB peak")
        found = "not measured" if mb is None else f"{mb:.1f} MB"
        target = f"< {MEMORY_TARGET_MB} MB peak resident: {found}, {'met' if met else 'NOT met'}"
        verdicts.append(met)
    mallocs = "-" if r["mallocs"] is None else f"{r['mallocs']:g}"
    # A jump or a recorded action is not one reducer call: no ratio to the floor.
    per_call = not (name == "timetravel/jump" or name.startswith(("journal/", "export/")))
    if r.get("cpu_p50") is not None:
        target += f" (CPU p50 {r['cpu_p50']:.2f} ns, ±{r['cpu_resolution']:.0%} resolution)"
    elif "cpu_p50" in r:
        target += " (CPU under the 10 ms tick: not measurable)"
    ratios = f"{ratio:>7.2f} {ratio_bare:>7.1f}" if per_call else f"{'':>7} {'':>7}"
    # Long scenarios (a jump, a recording) are tens of µs per action: no decimals.
    cells = [r[key] for key in ("p0", "p25", "p50", "p75", "p99")]
    digits = 0 if max(cells) >= 10_000 else 2
    print(f"{name:<34} " + " ".join(f"{cell:>8.{digits}f}" for cell in cells) + " "
          f"{r['samples']:>7} {ratios} {mallocs:>14}  {target}")
print()

# Time travel and replay (issue 5), in the units of their targets.
travel = [name for name in ORDER if name in rows and name.split("/")[0] in ("timetravel", "replay", "journal")
          and name != "timetravel/send-recommended"]
if travel:
    print("time travel and replay (p50 unless stated)")
    for name in travel:
        r = rows[name]
        if name.endswith("-replay-step"):
            verify = rows.get("replay/verify", {}).get("p50")
            relative = f", {r['p50'] / verify:.2f}× replay/verify" if verify else ""
            cpu = r.get("cpu_p50")
            cpu = "not measurable" if cpu is None else f"{cpu:.2f}"
            print(f"  {name:<34} {r['p50']:.2f} ns per replayed entry (CPU {cpu}; "
                  f"{r['samples']} samples){relative}")
        elif name == "timetravel/jump":
            print(f"  {name:<34} {r['p50'] / 1e6:.4f} ms per jump (p0 {r['p0'] / 1e6:.4f}, p99 {r['p99'] / 1e6:.4f}) "
                  f"to a random entry of a {JOURNAL_LENGTH:,}-entry journal, checkpoints every 100")
        elif name == "replay/verify":
            ratio = f", {r['p50'] / floor:.2f}× floor" if floor else ""
            print(f"  {name:<34} {r['p50']:.2f} ns per action = {1e9 / r['p50'] / 1e6:.1f}M actions/s "
                  f"(p0 {1e9 / r['p0'] / 1e6:.1f}M/s){ratio}, {JOURNAL_LENGTH:,} entries per replay")
        else:
            kept = ""
            if name in HOLDINGS:
                held, committed, size = HOLDINGS[name]
                kept = (f"; the journal holds {held:,} entries ({committed:,} committed), "
                        f"{size / 1e6:.1f} MB by its estimate")
            if name in GROWTH and name in HOLDINGS:
                growth, peak = GROWTH[name]
                held = max(1, HOLDINGS[name][0])
                kept += (f"; {HOLDINGS[name][2] / held:,.0f} B per entry held by its estimate, "
                         f"{growth / held:,.0f} B per entry held by resident growth")
            mb = r.get("peak_rss_mb", float("nan"))
            print(f"  {name:<34} {mb:.1f} MB peak resident (worst of {r['samples']} recordings "
                  f"of {JOURNAL_LENGTH:,} actions; ns per action above is the recording){kept}")
    print()
# Exports (issue 4): throughput and memory, as the scenarios timed and measured themselves (the
# harness leaves iterations longer than two seconds out of its JMH export).
exports = [name for name in ORDER if name in EXPORTS]
if exports:
    print("exports (the last sample of each; MB = 10^6 bytes; resident memory from /proc/self/status)")
    for name in exports:
        size, entries, nanoseconds, before, peak = EXPORTS[name]
        seconds = nanoseconds / 1e9
        print(f"  {name:<30} {entries:>9,} entries, {size / 1e6:6.1f} MB in {seconds:5.2f} s = "
              f"{size / 1e6 / seconds:5.1f} MB/s; peak resident {peak / 1e6:.1f} MB, "
              f"{(peak - before) / 1e6:+.1f} MB over the {before / 1e6:.1f} MB before it began")
    # Issue 12: CPU throughput over several samples (median and range), Journal JSON ≥ 150 MB/s.
    for name in exports:
        if name not in EXPORT_SAMPLES:
            continue
        entries, size, cpu, wall = EXPORT_SAMPLES[name]
        rates = sorted(size / 1e6 / (c / 1e9) for c in cpu if c > 0)
        walls = sorted(size / 1e6 / (w / 1e9) for w in wall if w > 0)
        if not rates:
            continue
        line = (f"  {name:<30} CPU {rates[len(rates) // 2]:6.1f} MB/s [{rates[0]:.1f}-{rates[-1]:.1f}], "
                f"wall {walls[len(walls) // 2]:6.1f} MB/s over {len(rates)} samples")
        if name.startswith("export/journal-json"):
            met = ge(rates[len(rates) // 2], 150, f"{name} CPU MB/s")
            line += f" (target ≥ 150 MB/s of CPU time: {'met' if met else 'NOT met'})"
            verdicts.append(met)
        print(line)
    small, large = EXPORTS.get("export/ndjson-stream-100k"), EXPORTS.get("export/ndjson-stream-1000k")
    if small and large:
        growth = (large[4] - small[4]) / 1e6
        met = le(growth, 8, "NDJSON streaming peak growth MB")
        print(f"  NDJSON streaming: peak resident {growth:+.1f} MB from 100,000 to 1,000,000 entries "
              f"(must not grow with the entries: {'met' if met else 'NOT met'})")
        verdicts.append(met)
    print()
# Imports (issue 12): CPU time against Python's `json` reading the same file in the same run
# (json.load for Journal JSON, json.loads per line for NDJSON); target: at most 0.5 of it.
if IMPORTS:
    print("imports (CPU s median [min-max] of the samples; python3 timed by itself, start-up excluded)")
    for name, (entries, size, cpu, python) in sorted(IMPORTS.items()):
        ours, theirs = sorted(c / 1e9 for c in cpu), sorted(c / 1e9 for c in python)
        median, reference = ours[len(ours) // 2], theirs[len(theirs) // 2]
        met = le(median / reference, 0.5, f"{name} × python3")
        print(f"  {name:<34} {entries:>9,} entries, {size / 1e6:.0f} MB: CPU {median:.2f} s "
              f"[{ours[0]:.2f}-{ours[-1]:.2f}], python3 {reference:.2f} s [{theirs[0]:.2f}-{theirs[-1]:.2f}] "
              f"over {len(ours)} samples each: {median / reference:.2f}× python (target 0.5: "
              f"{'met' if met else 'NOT met'})")
        verdicts.append(met)
    print()
# The NDJSON sink (issue 12): CPU time per send of the sending thread (what `send` costs the app's
# thread) and of the whole process until the lines are written (both threads), against the tracer
# alone measured the same way; the wall-clock ratios above are the rate the pipeline sustains.
if SINKS:
    print("NDJSON sink, CPU ns per send (median [min-max] over the iterations; × the median of the tracer alone")
    print("with the same actions: tracer/record-tally, or tracer/record-tally-repeating for the -repeating ones;")
    print("the -steady ones against tracer/record-tally-steady(-repeating), recording as long)")
    def per_send(values, sends):
        ordered = sorted(v / sends for v in values)
        return ordered[len(ordered) // 2], ordered[0], ordered[-1]
    for name in [n for n in ORDER if n in SINKS]:
        reference = SINKS.get("tracer/record-tally" + ("-steady" if "-steady" in name else "")
                              + ("-repeating" if name.endswith("-repeating") else ""))
        base = None
        if reference:
            base = (per_send(reference[1], reference[0])[0], per_send(reference[2], reference[0])[0])
        sends, sender, process = SINKS[name]
        s_med, s_lo, s_hi = per_send(sender, sends)
        p_med, p_lo, p_hi = per_send(process, sends)
        line = (f"  {name:<34} sending thread {s_med:8.1f} [{s_lo:.1f}-{s_hi:.1f}]"
                f"{f' = {s_med / base[0]:5.2f}×' if base else ''}; process {p_med:8.1f} [{p_lo:.1f}-{p_hi:.1f}]"
                f"{f' = {p_med / base[1]:5.2f}×' if base else ''} over {len(sender)} iterations")
        if base and name.startswith("sink/"):
            met = le(s_med / base[0], 10, f"{name} sending thread × tracer")
            line += (f" (sending thread ≤ 10×: {'met' if met else 'NOT met'};"
                     f" process ≤ 10×: {'yes' if p_med / base[1] <= 10 else 'no'})")
            verdicts.append(met)
        print(line)
    print()
# The viewer (issue 12): CPU seconds to write the page (median and range of the samples), its size,
# the peak resident memory; targets: 20,000 entries in 5 s and 400 MB, 100,000 in 30 s, under 40 MB.
if VIEWER:
    print("viewer pages (200-item list state; CPU s median [min-max] of the samples; MB = 10^6 bytes)")
    for name, (entries, size, cpu, wall, peak, page) in sorted(VIEWER.items()):
        cpu_s = sorted(c / 1e9 for c in cpu)
        median = cpu_s[len(cpu_s) // 2]
        cpu_target = 5 if entries <= 20_000 else 30
        met = all([le(median, cpu_target, f"{name} CPU s"),
                   entries > 20_000 or le(peak / 1e6, 400, f"{name} MB peak"),
                   entries < 100_000 or le(size / 1e6, 40, f"{name} MB page")])
        print(f"  {name:<34} {entries:>7,} entries: CPU {median:.2f} s [{cpu_s[0]:.2f}-{cpu_s[-1]:.2f}] "
              f"over {len(cpu_s)} samples, {size / 1e6:.1f} MB page, peak resident {peak / 1e6:.0f} MB "
              f"(target {cpu_target} s{', 400 MB' if entries <= 20_000 else ', 40 MB page'}: "
              f"{'met' if met else 'NOT met'})")
        verdicts.append(met)
        # Issue 12: the 100,000-entry page opens in headless Chromium in under 5 s (open-viewer.py:
        # from navigation to the last entry's diff on screen, three samples).
        if page and entries >= 100_000:
            import subprocess
            opened = subprocess.run([sys.executable, "open-viewer.py", page, str(entries)],
                                    capture_output=True, text=True)
            times = [float(x) for x in re.findall(r"opened in ([\d.]+) s", opened.stdout)]
            if times:
                times.sort()
                met = le(times[len(times) // 2], 5, f"{name} opens in Chromium, s")
                print(f"  {'':<34} opens in headless Chromium in {times[len(times) // 2]:.2f} s "
                      f"[{times[0]:.2f}-{times[-1]:.2f}] over {len(times)} samples "
                      f"(target under 5 s: {'met' if met else 'NOT met'})")
                verdicts.append(met)
            else:
                print(f"  {'':<34} not opened in Chromium: {(opened.stdout + opened.stderr).strip()[-300:]}")
    print()
# Issue 30: exploration steps per second (p50) and the time to shrink a 1,000-step failing run.
EXPLORATION_TARGETS = {"exploration/pure-journal": ("steps/s", 1e6), "exploration/effect-per-action": ("steps/s", 20e3),
                       "exploration/shrink-1000": ("s", 1.0)}
explored = [name for name in sorted(rows) if name.startswith("exploration/")]
if explored:
    print("exploration (p50; a step is an action sent or a clock step, with the store's settling)")
    for name in explored:
        r = rows[name]
        if name == "exploration/shrink-1000":
            seconds = r["p50"] / 1e9
            line = f"  {name:<34} {seconds:.3f} s per shrink (p0 {r['p0'] / 1e9:.3f}, p99 {r['p99'] / 1e9:.3f})"
            unit, limit = EXPLORATION_TARGETS[name]
            met = le(seconds, limit, f"{name} s per shrink")
            line += f" (target < {limit:g} s: {'met' if met else 'NOT met'})"
            verdicts.append(met)
        else:
            rate = 1e9 / r["p50"]
            line = f"  {name:<34} {rate:,.0f} steps/s ({r['p50']:.1f} ns per step; p0 {1e9 / r['p0']:,.0f} steps/s)"
            if name in EXPLORATION_TARGETS:
                unit, limit = EXPLORATION_TARGETS[name]
                met = ge(rate, limit, f"{name} steps/s")
                line += f" (target ≥ {limit:,.0f} steps/s: {'met' if met else 'NOT met'})"
                verdicts.append(met)
        print(line)
    print()
print(f"floor = the Counter reducer (returning .none) called through an @inline(never) function;")
print(f"bare  = the same increment without returning an Effect.")
print(f"benchmark run (build + measurement): {elapsed} s; raw results: {path}")
if verdicts and not all(verdicts):
    print("some targets were NOT met")
for miss in MISSED_WITHIN_NOISE:
    print(f"missed within the {NOISE_MARGIN:.0%} noise margin (does not fail the run): {miss}")
for miss in FAILED:
    print(f"FAILED (missed by more than the {NOISE_MARGIN:.0%} noise margin, or a count): {miss}")
if FAILED:
    sys.exit(1)
PY
