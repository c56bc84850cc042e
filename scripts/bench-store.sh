#!/usr/bin/env bash
# Benchmarks of the store, as whole processes on this machine:
#   (a) open a 1,000,000-entry store and count its entries, against orjson loading entries.json;
#   (b) `log` one entry into a 1,000-entry and a 1,000,000-entry store (a fresh copy per run);
#   (c) a 100,000-line script of `log` lines with --memory, against sqlite3 :memory: running
#       100,000 INSERTs in one transaction.
# Targets (PRODUCT.md "The store"): (a) faster than orjson; (b) under 20 ms and at most 2x the
# 1,000-entry time. Stores are generated under bench-data/ (git-ignored) by gen-store.py.
#
# usage: scripts/bench-store.sh [runs]      (WEIGH=path/to/weigh to use another binary)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
data=bench-data
weigh="${WEIGH:-.build/release/weigh}"
mkdir -p "$data"

if [[ ! -x "$weigh" ]]; then
  echo "building $weigh (release)"
  swift build -c release --product weigh
fi
for size in 1000 1000000; do
  [[ -f "$data/store-$size/weigh.json" ]] || python3 scripts/gen-store.py "$size" "$data/store-$size"
done
if [[ ! -f "$data/log-100k.wcfg" ]]; then
  python3 - "$data" <<'PY'
import sys
data = sys.argv[1]
with open(f"{data}/log-100k.wcfg", "w") as script:
    for index in range(100_000):
        script.write(f"log {60 + index % 400 / 10:.1f}kg\n")
with open(f"{data}/insert-100k.sql", "w") as sql:
    sql.write("CREATE TABLE entries (id INTEGER PRIMARY KEY, at TEXT, kg REAL, origin TEXT,"
              " source TEXT, rev INTEGER);\nBEGIN;\n")
    for index in range(1, 100_001):
        sql.write(f"INSERT INTO entries VALUES ({index}, '2026-01-01T08:00:00Z',"
                  f" {60 + index % 400 / 10:.1f}, 'manual', 'weigh', 1);\n")
    sql.write("COMMIT;\n")
PY
fi

# measure NAME PREPARE COMMAND: hyperfine when installed, else `runs` timed runs.
measure() {
  local name="$1" prepare="$2" command="$3"
  echo "== $name"
  if command -v hyperfine >/dev/null; then
    # -N (no shell) would also split --prepare into words and run them as one command.
    if [[ -n "$prepare" ]]; then
      hyperfine --warmup 1 --runs "$runs" --prepare "$prepare" "$command"
    else
      hyperfine -N --warmup 1 --runs "$runs" "$command"
    fi 2>&1 | grep -E "Time|Range|Error|error" || true
  else
    for _ in $(seq "$runs"); do
      [[ -n "$prepare" ]] && bash -c "$prepare"
      /usr/bin/time -f "  %e s wall, %U s user, %S s sys, %M KB" bash -c "$command" >/dev/null
    done
  fi
}

fresh() { echo "rm -rf $data/run && cp -r $data/store-$1 $data/run"; }

measure "orjson.loads of entries.json (1,000,000 entries)" "" \
  "python3 -c 'import orjson; orjson.loads(open(\"$data/store-1000000/entries.json\",\"rb\").read())'"
measure "weigh: open and expect entries == 1000000" "" \
  "$weigh --store $data/store-1000000 -e 'expect entries == 1000000'"
measure "weigh: log one entry, 1,000-entry store" "$(fresh 1000)" \
  "$weigh --store $data/run -e 'log 70kg'"
measure "weigh: log one entry, 1,000,000-entry store" "$(fresh 1000000)" \
  "$weigh --store $data/run -e 'log 70kg'"
measure "weigh --memory: 100,000 log lines" "" "$weigh --memory $data/log-100k.wcfg"
measure "sqlite3 :memory:: 100,000 INSERTs in one transaction" "" \
  "sqlite3 :memory: '.read $data/insert-100k.sql'"
rm -rf "$data/run"
