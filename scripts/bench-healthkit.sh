#!/usr/bin/env bash
# The HealthKit module's speed on app flows: the 100 scenario tests of
# Tests/HealthKitTests/ScenarioBenchmarkTests.swift, each a whole flow on its own simulated
# device (anchored import in pages with an archived anchor, sync versions, hidden read
# denial, write denial, lock and unlock, force-quit and relaunch, observer-driven sync,
# daily statistics with updates, descriptor updates: 90 scenarios; and 10 whose observers
# never call their completion, so that each waits 3 × `completionGrace` of real time).
#
# It runs the debug test binary that `swift test` runs, and reports
#  1. Swift Testing's own time for the run (process start-up and test discovery excluded),
#     in parallel (the default) and serially, for all 100 and for each group;
#  2. the whole process (start-up included), with hyperfine when installed, else the
#     wall time of each run.
#
# usage: scripts/bench-healthkit.sh [runs]     (default 10)
#        SKIP_BUILD=1 scripts/bench-healthkit.sh   to time the binary already built
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-10}"
bin=.build/debug/weighPackageTests.xctest

if [[ -z "${SKIP_BUILD:-}" ]]; then
  echo "building the tests (debug, as swift test does) ..." >&2
  swift build --build-tests >&2
fi
[[ -x "$bin" ]] || { echo "$bin is missing: run swift build --build-tests" >&2; exit 1; }
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

# Runs the binary on a filter `runs` times; prints min, median and max of the seconds
# Swift Testing reports for the run, and fails if any run did not pass.
in_process() {
  local label="$1"; shift
  local times=()
  for _ in $(seq "$runs"); do
    local line
    line=$("$bin" --testing-library swift-testing "$@" 2>&1 | grep 'Test run with' | tail -1)
    [[ "$line" == *passed* ]] || { echo "FAILED: $label: $line" >&2; exit 1; }
    times+=("$(sed -E 's/.*after ([0-9.]+) seconds.*/\1/' <<<"$line")")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk -v label="$label" -v n="$runs" '
    { t[NR] = $1 }
    END { printf "%-52s min %.3f s  median %.3f s  max %.3f s  (%d runs)\n",
          label, t[1], t[int((n + 1) / 2)], t[n], n }'
}

echo "== Swift Testing's time for the run"
in_process "100 scenarios, parallel" --filter ScenarioBenchmarkTests
in_process "100 scenarios, serial" --no-parallel --filter ScenarioBenchmarkTests
in_process "90 completing, serial" --no-parallel --filter 'ScenarioBenchmarkTests/completing'
in_process "10 missing completions, serial" --no-parallel \
  --filter 'ScenarioBenchmarkTests/missingCompletions'

echo "== whole process, 100 scenarios, parallel (start-up and test discovery included)"
command=("$bin" --testing-library swift-testing --filter ScenarioBenchmarkTests)
if command -v hyperfine >/dev/null; then
  hyperfine -N --warmup 1 --runs "$runs" --command-name "100 scenarios" "${command[*]}"
else
  "${command[@]}" >/dev/null 2>&1  # warm-up
  for _ in $(seq "$runs"); do
    start=$(date +%s.%N)
    "${command[@]}" >/dev/null 2>&1
    end=$(date +%s.%N)
    echo "$start $end"
  done | awk '{ print $2 - $1 }' | sort -n | awk -v n="$runs" '
    { t[NR] = $1 }
    END { printf "%-52s min %.3f s  median %.3f s  max %.3f s  (%d runs)\n",
          "100 scenarios, whole process, wall", t[1], t[int((n + 1) / 2)], t[n], n }'
fi
