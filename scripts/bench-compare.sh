#!/usr/bin/env bash
# Compares two weigh binaries on the two figures a change to the interpreter must keep
# (docs/performance.md): the 100,000-line `log` script with --memory, and one `log` into a
# 1,000,000-entry store (a fresh copy for each run). Runs alternate between the binaries,
# after one warm-up round, so both see the same load; CPU (user + system) is the steadier
# figure on a shared machine.
#
#   BEFORE=/path/to/old/weigh scripts/bench-compare.sh [script-runs] [log-runs]
#   (defaults 7 and 20; AFTER defaults to .build/release/weigh)
#
# Needs bench-data/log-100k.wcfg (scripts/bench-log.sh makes it) and
# bench-data/store-1000000 (scripts/bench-store.sh, or scripts/gen-store.py 1000000 …).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${BEFORE:?set BEFORE to the weigh binary to compare with}"
AFTER="${AFTER:-.build/release/weigh}"
script_runs="${1:-7}"
log_runs="${2:-20}"
for needed in bench-data/log-100k.wcfg bench-data/store-1000000/weigh.json; do
  [[ -f "$needed" ]] || { echo "missing $needed; see the comment at the top" >&2; exit 1; }
done
# Both must print the same thing before their speed means anything.
cmp <("$BEFORE" --memory --tz UTC bench-data/log-100k.wcfg) \
  <("$AFTER" --memory --tz UTC bench-data/log-100k.wcfg)
trap 'rm -rf bench-data/compare-run' EXIT
python3 - "$BEFORE" "$AFTER" "$script_runs" "$log_runs" <<'PY'
import resource, statistics, subprocess, sys, time
before, after, script_runs, log_runs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])

def run(command, prepare):
    if prepare:
        subprocess.run(prepare, shell=True, check=True)
    start_usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, shell=True, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, usage.ru_utime + usage.ru_stime - start_usage.ru_utime - start_usage.ru_stime

def compare(label, runs, template, prepare=None):
    times = {before: [], after: []}
    for round in range(runs + 1):
        for binary in (before, after):
            result = run(template.format(weigh=binary), prepare)
            if round > 0:
                times[binary].append(result)
    for name, binary in (("before", before), ("after", after)):
        walls = [wall for wall, _ in times[binary]]
        cpu = statistics.mean(c for _, c in times[binary])
        print(f"{label:<34} {name:<6} median {statistics.median(walls) * 1000:8.1f} ms"
              f"  min {min(walls) * 1000:8.1f} ms  max {max(walls) * 1000:8.1f} ms"
              f"  cpu {cpu * 1000:7.1f} ms  runs {len(walls)}")

compare("100,000 log lines, --memory", script_runs,
        "{weigh} --memory --tz UTC bench-data/log-100k.wcfg")
compare("log 70kg, 1,000,000 entries", log_runs, "{weigh} --store bench-data/compare-run -e 'log 70kg'",
        "rm -rf bench-data/compare-run && cp -a bench-data/store-1000000 bench-data/compare-run && sync")
PY
