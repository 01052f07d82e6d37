#!/usr/bin/env bash
# Instructions per action on the store's hot path (and per entry exported or imported, for the
# formats' scenarios: N must then be a multiple of 10,000), counted by callgrind: noise-free, and not open
# to flattery by the machine's load. Builds HotPath/ (a release executable on the library alone),
# runs each scenario under valgrind with N and with 2N actions, and prints one line per scenario,
#
#   SCENARIO INSTRUCTIONS_PER_ACTION
#
# where the figure is (instructions with 2N - instructions with N) / N: start-up, set-up and the
# warm-up (which fills the journals past their entry cap) cancel out. Progress goes to stderr, the
# table alone to stdout.
#
#   Benchmarks/callgrind.sh                     # every scenario, N = 50,000
#   Benchmarks/callgrind.sh 20000 'send/.*'     # N, and a regular expression the names must match
#   CHRONICLE_LIBRARY=/tmp/before Benchmarks/callgrind.sh   # another checkout of the library
#                                                           # (e.g. `git archive COMMIT | tar -x`)
set -euo pipefail

n=${1:-50000}
filter=${2:-.*}
scenarios=(floor send/no-middleware send/effect-send send/3-middlewares send/1-observer tracer/record-growing
  sink/ndjson-each-line sink/ndjson-each-line-new sink/ndjson-each-line-new-self-writing sink/ndjson-each-line-4-sites sink/ndjson-background sink/ndjson-mapped timetravel/send-recommended export/journal-json import/journal-json import/ndjson)

binary=$("$(dirname "$0")/HotPath/build.sh")

# Total instructions (all threads) of one run.
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" "$1" "$2" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

for scenario in "${scenarios[@]}"; do
  [[ "$scenario" =~ ^($filter)$ ]] || continue
  echo "callgrind: $scenario with $n and $((2 * n)) actions" >&2
  single=$(instructions "$scenario" "$n")
  double=$(instructions "$scenario" "$((2 * n))")
  if [[ -z "$single" || -z "$double" ]]; then
    echo "callgrind: $scenario did not run" >&2
    exit 1
  fi
  awk -v name="$scenario" -v a="$single" -v b="$double" -v n="$n" \
    'BEGIN { printf "%s %.1f\n", name, (b - a) / n }'
done
