#!/usr/bin/env bash
# Runs fuzz targets one after another, each until it reaches RUNS executions or SECONDS,
# whichever comes first, and stops the whole campaign at END (a `date -d` time, UTC).
#
#   scripts/fuzz-campaign.sh END RUNS SECONDS TARGET...
#   nohup nice -n 19 scripts/fuzz-campaign.sh 17:50 10000000 3600 fitbit-json weigh-json \
#     >campaign.log 2>&1 &
#
# Each target runs in-process first (WEIGH_FUZZ_FORK=0: more inputs a second, but it stops at
# the first crash, timeout or out-of-memory); when that run ends early with a finding, the
# rest of the target's time runs in fork mode, which collects every distinct finding.
# Build once beforehand and set WEIGH_FUZZ_EXECUTABLE to a copy of the executable, so the
# campaign does not rebuild from sources that change meanwhile (see scripts/fuzz.sh).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
if [[ $# -lt 4 ]]; then
  echo "usage: scripts/fuzz-campaign.sh END RUNS SECONDS TARGET..." >&2
  exit 64
fi
end=$(date -u -d "$1" +%s) || exit 64
runs=$2
budget=$3
shift 3

for target in "$@"; do
  started=$(date +%s)
  left=$((end - started))
  if ((left < 60)); then
    echo "$(date -u +%H:%M:%S) stop: the campaign's end is reached before $target"
    break
  fi
  seconds=$((budget < left ? budget : left))
  echo "$(date -u +%H:%M:%S) $target: in-process, up to $runs executions or ${seconds}s"
  WEIGH_FUZZ_FORK=0 WEIGH_FUZZ_RUNS=$runs "$root/scripts/fuzz.sh" "$target" "$seconds" 2>&1 |
    grep '^target '
  status=${PIPESTATUS[0]}
  spent=$(($(date +%s) - started))
  # A finding stops an in-process run early (exit status other than 0).
  if ((status != 0 && seconds - spent >= 60)); then
    echo "$(date -u +%H:%M:%S) $target: in-process run ended with status $status; fork mode" \
      "for the remaining $((seconds - spent))s"
    WEIGH_FUZZ_RUNS=$runs "$root/scripts/fuzz.sh" "$target" "$((seconds - spent))" 2>&1 |
      grep '^target '
  fi
  cp "$root/Fuzz/findings/$target/last-run.log" "$root/Fuzz/findings/$target/campaign-run.log"
done
echo "$(date -u +%H:%M:%S) campaign over"
