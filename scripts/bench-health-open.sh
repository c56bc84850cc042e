#!/usr/bin/env bash
# A command that does not touch Health on a store that has Health, against the same command
# on a store without Health; and ten simulated years on a directory store against the
# in-memory run (docs/performance.md, "Health on disk: lazy open and ten years").
# Counted in instructions (valgrind's callgrind, children included): steady on a busy machine.
#
# Usage: scripts/bench-health-open.sh NAME:WEIGH…
#   e.g. before:/tmp/old/.build/release/weigh after:.build/release/weigh
#   Each binary makes its own stores under bench-data/open-NAME-* (1,000 body-mass samples,
#   one a minute from 2020-01-01, all synced into the log; and the same store without
#   health.sqlite), then each command runs on a fresh copy. INSTRUCTIONS=0 leaves callgrind out.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench-measure.sh
. scripts/bench-measure.sh
instruction_table_start
clock=2022-01-01T00:00Z
for pair in "$@"; do
  name="${pair%%:*}" weigh="$(realpath "${pair#*:}")"
  with="$data/open-$name-health" without="$data/open-$name-plain"
  if [ ! -f "$with/weigh.json" ]; then
    rm -rf "$with" "$without"
    "$weigh" --store "$with" --clock 2020-01-01T00:00Z \
      -e 'simulate scale every 1min start 70kg' -e "advance 1000min" \
      -e 'simulate stop all' -e sync >/dev/null
    # The same log without Health.
    cp -a "$with" "$without" && rm -f "$without/health.sqlite"*
  fi
  for store in "$without" "$with"; do
    work="$data/open-work"
    rm -rf "$work" && cp -a "$store" "$work"
    count=$(instructions "$weigh" --store "$work" --clock $clock -e 'log 70kg')
    rm -rf "$work" && cp -a "$store" "$work"
    echo "| \`log 70kg\`, $(basename "$store") | $name | $(printf "%'d" "$count") | $(usage "$weigh" --store "$work" --clock $clock -e 'log 70kg') |"
  done
done

years=(-e 'observe on' -e 'app background'
  -e 'simulate scale every 1d at 07:00 start 80kg noise 0.3kg' -e 'advance 3650d'
  -e 'expect entries == 3650')
for pair in "$@"; do
  name="${pair%%:*}" weigh="$(realpath "${pair#*:}")"
  rm -rf "$data/years-disk"
  disk=$(instructions "$weigh" --store "$data/years-disk" --clock 2020-01-01T00:00Z "${years[@]}")
  rm -rf "$data/years-disk"
  diskUsage=$(usage "$weigh" --store "$data/years-disk" --clock 2020-01-01T00:00Z "${years[@]}")
  memory=$(instructions "$weigh" --memory --clock 2020-01-01T00:00Z "${years[@]}")
  memoryUsage=$(usage "$weigh" --memory --clock 2020-01-01T00:00Z "${years[@]}")
  rm -rf "$data/years-disk"
  echo "| ten years, directory store | $name | $(printf "%'d" "$disk") | $diskUsage |"
  echo "| ten years, in memory | $name | $(printf "%'d" "$memory") | $memoryUsage |"
  awk -v d="$disk" -v m="$memory" 'BEGIN { if (m > 0) printf "| ten years, disk / memory | '"$name"' | %.2f× | |\n", d / m }'
done
