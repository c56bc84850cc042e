#!/usr/bin/env bash
# The interpreter's speed on a long script, as whole processes: a 100,000-line script of
# `log` lines run with `weigh --memory`, against sqlite3 running 100,000 INSERTs into an
# in-memory database in one transaction (each is parsed and executed statement by
# statement, and neither writes to disk). A third row runs the same script against a
# store on disk, where every `log` is a durable commit (one journal append and fdatasync).
#
# usage: scripts/bench-log.sh [runs] [disk-runs]    (defaults 5 and 3; a disk run takes
#        about a minute, most of it in fdatasync)
#        WEIGH=path/to/weigh scripts/bench-log.sh
# Inputs are generated once under bench-data/ (git-ignored); the release binary is built
# when missing. Uses hyperfine when installed, else timed runs of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
disk_runs="${2:-3}"
data=bench-data
weigh="${WEIGH:-.build/release/weigh}"
mkdir -p "$data"

if [[ ! -x "$weigh" ]]; then
  echo "building $weigh (release) ..." >&2
  swift build -c release --static-swift-stdlib --product weigh >&2
fi
command -v sqlite3 >/dev/null || {
  echo "sqlite3 is missing: apt-get install sqlite3" >&2
  exit 1
}
if [[ ! -f "$data/log-100k.wcfg" || ! -f "$data/insert-100k.sql" ]]; then
  echo "generating $data/log-100k.wcfg and $data/insert-100k.sql ..." >&2
  python3 - "$data" <<'PY'
import sys, time
data = sys.argv[1]
start = 946_684_800  # 2000-01-01T00:00:00Z, one reading every 10 minutes
with open(f"{data}/log-100k.wcfg", "w") as script, open(f"{data}/insert-100k.sql", "w") as sql:
    sql.write("CREATE TABLE entries (id INTEGER PRIMARY KEY, at TEXT NOT NULL, kg REAL NOT NULL,"
              " origin TEXT NOT NULL, source TEXT NOT NULL, rev INTEGER NOT NULL);\nBEGIN;\n")
    for index in range(1, 100_001):
        instant = start + index * 600
        kg = 60 + index % 400 / 10
        script.write(f"log {kg:.1f}kg at {time.strftime('%Y-%m-%d %H:%M', time.gmtime(instant))}\n")
        at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(instant))
        sql.write(f"INSERT INTO entries VALUES ({index}, '{at}', {kg:.1f}, 'manual', 'weigh', 1);\n")
    sql.write("COMMIT;\n")
PY
fi
# The script must run clean before it is timed.
{ cat "$data/log-100k.wcfg"; echo 'expect entries == 100000'; } | "$weigh" --memory --tz UTC >/dev/null
sqlite3 :memory: ".read $data/insert-100k.sql" "SELECT count(*) FROM entries;" | grep -qx 100000

results=$(mktemp -d)
trap 'rm -rf "$results" "$data/log-run"' EXIT

# measure KEY RUNS PREPARE COMMAND: see scripts/bench-store.sh.
# shellcheck source=bench-measure.sh
source "$(dirname "$0")/bench-measure.sh"

measure weigh-memory "$runs" "" "$weigh --memory --tz UTC $data/log-100k.wcfg"
measure sqlite "$runs" "" "sqlite3 :memory: '.read $data/insert-100k.sql'"
warmup=0 measure weigh-disk "$disk_runs" "rm -rf $data/log-run" "$weigh --store $data/log-run --tz UTC $data/log-100k.wcfg"

python3 - "$results" <<'PY'
import os, statistics, sys
results = sys.argv[1]
rows = [
    ("weigh-memory", "weigh --memory: 100,000 log lines"),
    ("sqlite", "sqlite3 :memory:: 100,000 INSERTs, 1 transaction"),
    ("weigh-disk", "weigh --store: 100,000 durable log commits"),
]
median = {}
print(f"{'benchmark':<50} {'median':>8} {'min':>8} {'max':>8} {'cpu':>8} {'runs':>4} {'peak RSS':>9}")
for key, label in rows:
    pairs = [line.split() for line in open(os.path.join(results, key + ".times")) if line.strip()]
    times, cpu = [float(wall) for wall, _ in pairs], statistics.mean(float(c) for _, c in pairs)
    rss = int(open(os.path.join(results, key + ".rss")).read().split()[-1]) / 1024
    median[key] = statistics.median(times)
    cells = [f"{value:.2f} s" for value in (median[key], min(times), max(times), cpu)]
    print(f"{label:<50} {cells[0]:>8} {cells[1]:>8} {cells[2]:>8} {cells[3]:>8} {len(times):>4}"
          f" {rss:>5.0f} MiB")
print("(cpu: user + system time, mean over the runs)")
ratio = median["weigh-memory"] / median["sqlite"]
print(f"weigh --memory takes {ratio:.2f}x the time of sqlite3 :memory:")
print(f"durable commits: {median['weigh-disk'] / 100_000 * 1e6:.0f} us per log")
PY
