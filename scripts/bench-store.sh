#!/usr/bin/env bash
# Store benchmarks, as whole processes, on the machine at hand:
#   (a) open a 1,000,000-entry store and check `expect entries == 1000000` (which reads every
#       row), against `orjson.loads` of the same entries.json;
#   (b) `log` one entry into a 1,000-entry and into a 1,000,000-entry store, a fresh copy of
#       the store per run (copied and synced before the timed run, so the copy's own writes
#       are not flushed inside it); then the million-entry store's worst cases: a journal just
#       under the 1 MiB an open may read, and the one `log` in about 7,500 whose commit
#       compacts (rewrites entries.json).
# Goals (docs/performance.md, "The store"): (a) no slower than orjson; (b) under 20 ms, and the large
# store at most 2x the small one. Stores are generated once under bench-data/ (git-ignored)
# by scripts/gen-store.py; the release binary is built when missing.
#
# usage: scripts/bench-store.sh [runs-for-a] [runs-for-b]     (defaults 5 and 30)
#        WEIGH=path/to/weigh scripts/bench-store.sh           (another binary)
# Uses hyperfine when installed (apt-get install hyperfine), else timed runs of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
open_runs="${1:-5}"
log_runs="${2:-30}"
data=bench-data
weigh="${WEIGH:-.build/release/weigh}"
mkdir -p "$data"

if [[ ! -x "$weigh" ]]; then
  echo "building $weigh (release) ..." >&2
  swift build -c release --static-swift-stdlib --product weigh >&2
fi
python3 -c 'import orjson' 2>/dev/null || {
  echo "orjson is missing: apt-get install python3-orjson (or pip install orjson)" >&2
  exit 1
}
for size in 1000 1000000; do
  if [[ ! -f "$data/store-$size/weigh.json" ]]; then
    echo "generating $data/store-$size ..." >&2
    python3 scripts/gen-store.py "$size" "$data/store-$size"
  fi
done
# The same million entries with the journal the commits since a compaction leave: just
# under the most an open ever reads (1 MiB), and one line short of a compaction.
for variant in "full 1047552" "compacting 1048512"; do
  read -r name bytes <<<"$variant"
  if [[ ! -f "$data/store-1000000-$name/weigh.json" ]]; then
    rm -rf "$data/store-1000000-$name"
    cp -a "$data/store-1000000" "$data/store-1000000-$name"
    python3 scripts/gen-store.py --journal "$bytes" "$data/store-1000000-$name"
  fi
done
# The stores must be sound before anything is timed on them. Opening a generated store
# the first time reads its table whole and records the file's stamp in weigh.json (see
# Store); `cp -a` keeps the stamp valid in the copies each timed run starts from.
"$weigh" check --store "$data/store-1000" >/dev/null
for store in store-1000 store-1000000 store-1000000-full store-1000000-compacting; do
  "$weigh" --store "$data/$store" -e 'echo ready' >/dev/null
done
"$weigh" --store "$data/store-1000" -e 'expect entries == 1000'

results=$(mktemp -d)
trap 'rm -rf "$results" "$data/run"' EXIT

# measure KEY RUNS PREPARE COMMAND: times COMMAND (RUNS times, PREPARE before each run, not
# timed) and records the times in seconds under $results/KEY, plus one peak RSS.
# shellcheck source=bench-measure.sh
source "$(dirname "$0")/bench-measure.sh"

fresh() { echo "rm -rf $data/run && cp -a $data/store-$1 $data/run && sync"; }

measure orjson "$open_runs" "" \
  "python3 -c 'import orjson; orjson.loads(open(\"$data/store-1000000/entries.json\",\"rb\").read())'"
measure open-1m "$open_runs" "" "$weigh --store $data/store-1000000 -e 'expect entries == 1000000'"
measure log-1k "$log_runs" "$(fresh 1000)" "$weigh --store $data/run -e 'log 70kg'"
measure log-1m "$log_runs" "$(fresh 1000000)" "$weigh --store $data/run -e 'log 70kg'"
measure log-1m-full "$log_runs" "$(fresh 1000000-full)" "$weigh --store $data/run -e 'log 70kg'"
measure log-1m-compacting "$open_runs" "$(fresh 1000000-compacting)" \
  "$weigh --store $data/run -e 'log 70kg'"

python3 - "$results" <<'PY'
import os, statistics, sys
results = sys.argv[1]
rows = [
    ("orjson", "orjson.loads(entries.json), 1,000,000 entries"),
    ("open-1m", "weigh: open + expect entries == 1000000"),
    ("log-1k", "weigh: log one entry, 1,000-entry store"),
    ("log-1m", "weigh: log one entry, 1,000,000-entry store"),
    ("log-1m-full", "  the same, journal just under 1 MiB"),
    ("log-1m-compacting", "  the same, the log that compacts"),
]
median = {}
print(f"{'benchmark':<46} {'median':>9} {'min':>9} {'max':>9} {'cpu':>9} {'runs':>4} {'peak RSS':>9}")
for key, label in rows:
    pairs = [line.split() for line in open(os.path.join(results, key + ".times")) if line.strip()]
    times, cpu = [float(wall) for wall, _ in pairs], statistics.mean(float(c) for _, c in pairs)
    rss = int(open(os.path.join(results, key + ".rss")).read().split()[-1]) / 1024
    median[key] = statistics.median(times)
    unit, scale = ("ms", 1000) if median[key] < 1 else ("s", 1)
    cells = [f"{value * scale:.2f} {unit}" for value in (median[key], min(times), max(times), cpu)]
    print(f"{label:<46} {cells[0]:>9} {cells[1]:>9} {cells[2]:>9} {cells[3]:>9} {len(times):>4}"
          f" {rss:>5.0f} MiB")
print("(cpu: user + system time, mean over the runs)")
ratio = median["open-1m"] / median["orjson"]
print(f"(a) weigh / orjson: {ratio:.2f}x  ({'met' if ratio <= 1 else 'NOT met'}: goal <= 1x)")
large, small = median["log-1m"] * 1000, median["log-1k"] * 1000
print(f"(b) log into 1,000,000: {large:.1f} ms, {large / small:.2f}x the 1,000-entry store "
      f"({'met' if large < 20 and large <= 2 * small else 'NOT met'}: goal < 20 ms and <= 2x)")
PY
