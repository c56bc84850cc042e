#!/usr/bin/env bash
# Health at scale, as whole processes on the release build (docs/performance.md, "Health at
# scale"). Generates its data under bench-data/ (git-ignored):
#
#  1. ten simulated years (a daily scale, a background observer, a sync per delivery) in
#     one `advance 3650d`, on a directory store and in memory;
#  2. one Health command at a time over a directory store of N Health samples
#     (`weigh-bench health-store`: 1,000 body-mass readings synced into the log, and N
#     steps, energy, exercise, glucose and a few workouts at 1,000 a day, the same density
#     at every N, up to the clock): `health add`,
#     `health delete last`, `health delete PREFIX`, `sync` of one new sample, `observe` (a
#     delivery of one new sample), `advance 1d`, `summary DAY`, `stats weekly` over a month;
#  3. the all-types import of a generated export.zip (scripts/gen-apple-export.py).
#
# Usage: scripts/bench-health.sh [sample counts…]     (default: 1000 100000 1000000)
#   RUNS=5             timed runs per benchmark (after one warm-up run)
#   WEIGH=PATH         the `weigh` binary to time (default: build the release one)
#   WEIGH_BENCH=PATH   the `weigh-bench` that makes the stores (default: build the release one)
#   INSTRUCTIONS=1     also count each command's instructions (callgrind, one more run)
#   YEARS=0            leave out the ten years
#   SKIP='summary|…'   leave out these commands (add delete prefix sync advance summary stats
#                      observe) of part 2
#   IMPORT_SIZE=100M   the export.xml size of the import benchmark (empty: skip it)
#   SKIP_H2S=1         leave out healthkit-to-sqlite on the same export (about 5 min per GB)
#   BEFORE=REF         also time the ten years with the `weigh` of git REF (built once
#                      under bench-data/before-REF, in a detached worktree), or with the
#                      `weigh` binary at the path REF
# Each timed command runs with the store's lock to itself; the stores grow by a sample or
# two per run, which does not move the figures. The N-sample stores are made once, under
# bench-data/health-store-N (docs/performance.md, "Health commands at 1k to 10M samples",
# says how long they take and how big they are).
set -euo pipefail
cd "$(dirname "$0")/.."
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1000 100000 1000000)
RUNS="${RUNS:-5}"
IMPORT_SIZE="${IMPORT_SIZE-100M}"
data=bench-data
results="$data/health-results"
# measure appends each run's times: start from none.
rm -rf "$results"
mkdir -p "$results"
# shellcheck source=scripts/bench-measure.sh
. scripts/bench-measure.sh
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }

if [ -z "${WEIGH:-}" ]; then
  swift build -c release --static-swift-stdlib --product weigh >&2
  WEIGH="$PWD/.build/release/weigh"
fi
if [ -z "${WEIGH_BENCH:-}" ]; then
  swift build -c release --static-swift-stdlib --product weigh-bench >&2
  WEIGH_BENCH="$PWD/.build/release/weigh-bench"
fi
weigh="$(realpath "$WEIGH")"
bench="$(realpath "$WEIGH_BENCH")"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; load: $(cut -d' ' -f1-3 /proc/loadavg)"

# row KEY LABEL: one table row from measure's files (median, min, max wall; mean cpu; peak).
row() {
  python3 - "$results/$1" "$2" <<'PY'
import statistics, sys
base, label = sys.argv[1], sys.argv[2]
walls, cpus = [], []
for line in open(base + ".times"):
    wall, cpu = map(float, line.split())
    walls.append(wall)
    cpus.append(cpu)
rss = int(open(base + ".rss").read().split()[-1]) / 1024
def t(s):
    return f"{s * 1000:.1f} ms" if s < 1 else f"{s:.2f} s"
print(f"| {label} | {t(statistics.median(walls))} | {t(min(walls))} | {t(max(walls))} "
      f"| {t(sum(cpus) / len(cpus))} | {len(walls)} | {rss:,.0f} MiB |")
PY
}
header() {
  echo
  echo "| benchmark | median | min | max | cpu | runs | peak RSS |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
}

# 1. Ten simulated years.
years=(-e 'observe on' -e 'app background'
  -e 'simulate scale every 1d at 07:00 start 80kg noise 0.3kg' -e 'advance 3650d'
  -e 'expect entries == 3650')
printf -v yearsArgs '%q ' "${years[@]}"
binaries=("after:$weigh")
if [ -n "${BEFORE:-}" ] && [ -x "$BEFORE" ] && [ -f "$BEFORE" ]; then
  binaries=("before:$(realpath "$BEFORE")" "${binaries[@]}")
elif [ -n "${BEFORE:-}" ]; then
  before="$data/before-$BEFORE"
  if [ ! -x "$before/.build/release/weigh" ]; then
    [ -d "$before" ] || git worktree add --detach "$before" "$BEFORE" >&2
    (cd "$before" && swift build -c release --static-swift-stdlib --product weigh >&2)
  fi
  binaries=("before:$PWD/$before/.build/release/weigh" "${binaries[@]}")
fi
[ "${YEARS:-1}" = 0 ] || header
for pair in "${binaries[@]}"; do
  [ "${YEARS:-1}" != 0 ] || break
  name="${pair%%:*}" binary="${pair#*:}"
  store="$data/years-$name"
  measure "years-$name-disk" "$RUNS" "rm -rf $store" \
    "$binary --store $store --clock 2020-01-01T00:00Z $yearsArgs >/dev/null"
  row "years-$name-disk" "ten years, directory store ($name)"
  measure "years-$name-memory" "$RUNS" "" "$binary --memory --clock 2020-01-01T00:00Z $yearsArgs >/dev/null"
  row "years-$name-memory" "ten years, in memory ($name)"
done

# 2. One command over a store of N Health samples (weigh-bench health-store: 1,000 body-mass
# readings synced into the log, up to 2022-09-30, and N steps, energy, exercise, glucose and
# a few workouts, 1,000 a day up to the clock: N / 1,000 days, and 2022-09-30, the day
# `summary` reads, is whole at every N). The stores are kept and grow by a sample or two a run.
clock=2022-10-01T00:00Z
header
for count in "${counts[@]}"; do
  store="$data/health-store-$count"
  if [ ! -f "$store/health.sqlite" ]; then
    rm -rf "$store"
    /usr/bin/time -f 'made in %e s wall, %U s user, %S s system, peak %M KiB' \
      "$bench" health-store "$store" "$count" >&2
    du -sh "$store" >&2
  fi
  run="$weigh --store $store --clock $clock"
  # The commands that find a sample: the one just added (its UUID's first 8 digits).
  addFor() { echo "$run -e 'health add $1kg source Withings' | cut -d' ' -f2 | sed 's/^/health delete /' >$data/.delete.wcfg"; }
  benches=(
    "add|health add|$run -e 'health add 70.1kg source Withings'|"
    "delete|health delete last|$run -e 'health delete last'|$(addFor 70.2)"
    "prefix|health delete PREFIX|$run $data/.delete.wcfg|$(addFor 70.3)"
    "sync|sync of one new sample|$run -e sync|$run -e 'health add 70.4kg source Withings' >/dev/null"
    "advance|advance 1d|$run -e 'advance 1d'|"
    "summary|summary 2022-09-30|$run -e 'summary 2022-09-30'|"
    "stats|stats weekly over a month|$run -e 'stats weekly from 2022-09-01 to 2022-10-01'|"
    # The observer stays registered in the store (turned off after the loop): the command
    # is a `health add` and the delivery it causes, whose handler syncs the new sample.
    "observe|health add with an observer: its delivery syncs it|$run -e 'health add 70.5kg source Withings'|$run -e 'observe on' >/dev/null"
  )
  for entry in "${benches[@]}"; do
    IFS='|' read -r key label command prepare <<<"$entry"
    [[ -z "${SKIP:-}" || ! "$key" =~ ^($SKIP)$ ]] || continue
    measure "$key-$count" "$RUNS" "$prepare" "$command"
    row "$key-$count" "\`$label\`, $count samples"
    # INSTRUCTIONS=1: callgrind's count of one more run (steady however loaded the machine),
    # left out for a command slower than 5 s (callgrind runs it some 50 times slower).
    slowest=$(sort -n "$results/$key-$count.times" | tail -1 | cut -d' ' -f1)
    if [ "${INSTRUCTIONS:-0}" != 0 ] && python3 -c "import sys; sys.exit(float('$slowest') > 5)"; then
      [ -z "$prepare" ] || bash -c "$prepare"
      counted=$(bash -c "valgrind --tool=callgrind --callgrind-out-file=/dev/null $command" 2>&1 >/dev/null |
        awk '/Collected :/ {print $NF}')
      echo "  $label, $count samples: $(printf "%'d" "$counted") instructions"
    fi
  done
  bash -c "$run -e 'observe off'" >/dev/null
done

# 3. The all-types import.
if [ -n "$IMPORT_SIZE" ]; then
  zip="$data/export-$IMPORT_SIZE.zip"
  [ -f "$zip" ] || python3 scripts/gen-apple-export.py --size "$IMPORT_SIZE" --out "$zip" >&2
  store="$data/import-$IMPORT_SIZE"
  header
  measure "import-$IMPORT_SIZE" 1 "rm -rf $store" \
    "$weigh --store $store --clock 2200-01-01T00:00Z -e 'import $zip types weight,glucose,steps,energy,exercise,workouts'"
  row "import-$IMPORT_SIZE" "all-types import, $IMPORT_SIZE export.xml"
  # The same file into SQLite with healthkit-to-sqlite, which always reads every type
  # (installed into bench-data/venv as scripts/bench-import.sh does; SKIP_H2S=1 leaves it out).
  if [ -z "${SKIP_H2S:-}" ]; then
    if [ ! -x "$data/venv/bin/healthkit-to-sqlite" ]; then
      python3 -m venv "$data/venv" && "$data/venv/bin/pip" install -q healthkit-to-sqlite
    fi
    db="$data/h2s-$IMPORT_SIZE.db"
    measure "h2s-$IMPORT_SIZE" 1 "rm -f $db" "$data/venv/bin/healthkit-to-sqlite $zip $db"
    row "h2s-$IMPORT_SIZE" "healthkit-to-sqlite, same file (every type)"
  fi
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
