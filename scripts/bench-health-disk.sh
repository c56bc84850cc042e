#!/usr/bin/env bash
# Health kept in health.sqlite against Health kept in the app store's JSON tables
# (docs/performance.md, "Health in health.sqlite: before and after"), as instruction counts
# (valgrind's callgrind: steady on a busy machine), peak RSS (/usr/bin/time) and CPU time.
#
# Usage: scripts/bench-health-disk.sh NAME:WEIGH… [sample counts…]
#   e.g. before:/tmp/old/.build/release/weigh after:.build/release/weigh 1000 100000
#   (default counts: 1000 100000). Each binary makes its own stores under
#   bench-data/disk-NAME-COUNT (one body-mass sample a minute from 2020-01-01, all synced),
#   then each command runs on a fresh copy of the store:
#   `health add`, `health delete last`, `sync` of one new sample, `advance 1d`,
#   `summary 2020-01-01`, `stats weekly` over January 2020; and ten simulated years
#   (`advance 3650d` with a daily scale, a background observer and a sync per delivery)
#   on a directory store and in memory.
#   INSTRUCTIONS=0 leaves out callgrind's counts (slow: about 50 times the run).
set -euo pipefail
cd "$(dirname "$0")/.."
binaries=()
counts=()
for argument in "$@"; do
  if [[ "$argument" == *:* ]]; then
    binaries+=("${argument%%:*}:$(realpath "${argument#*:}")")
  else
    counts+=("$argument")
  fi
done
[ ${#counts[@]} -gt 0 ] || counts=(1000 100000)
# shellcheck source=scripts/bench-measure.sh
. scripts/bench-measure.sh
instruction_table_start
clock=2022-01-01T00:00Z
for count in "${counts[@]}"; do
  for pair in "${binaries[@]}"; do
    name="${pair%%:*}" weigh="${pair#*:}"
    store="$data/disk-$name-$count"
    if [ ! -f "$store/weigh.json" ]; then
      rm -rf "$store"
      "$weigh" --store "$store" --clock 2020-01-01T00:00Z \
        -e 'simulate scale every 1min start 70kg' -e "advance ${count}min" \
        -e 'simulate stop all' -e sync -e 'health add 70kg source Withings' >/dev/null
    fi
    for bench in "health add 70.1kg source Withings" "health delete last" "sync" "advance 1d" \
      "summary 2020-01-01" "stats weekly from 2020-01-01 to 2020-02-01"; do
      work="$data/disk-work"
      rm -rf "$work" && cp -a "$store" "$work"
      # `sync` gets one new sample to read.
      [ "$bench" != sync ] || "$weigh" --store "$work" --clock $clock -e 'health add 70.2kg source Withings' >/dev/null
      count_i=$(instructions "$weigh" --store "$work" --clock $clock -e "$bench")
      rm -rf "$work" && cp -a "$store" "$work"
      [ "$bench" != sync ] || "$weigh" --store "$work" --clock $clock -e 'health add 70.2kg source Withings' >/dev/null
      echo "| \`$bench\`, $count samples | $name | $(printf "%'d" "$count_i") | $(usage "$weigh" --store "$work" --clock $clock -e "$bench") |"
    done
  done
done

years=(-e 'observe on' -e 'app background'
  -e 'simulate scale every 1d at 07:00 start 80kg noise 0.3kg' -e 'advance 3650d'
  -e 'expect entries == 3650')
for pair in "${binaries[@]}"; do
  name="${pair%%:*}" weigh="${pair#*:}"
  rm -rf "$data/years-disk"
  disk=$(instructions "$weigh" --store "$data/years-disk" --clock 2020-01-01T00:00Z "${years[@]}")
  rm -rf "$data/years-disk"
  diskUsage=$(usage "$weigh" --store "$data/years-disk" --clock 2020-01-01T00:00Z "${years[@]}")
  memory=$(instructions "$weigh" --memory --clock 2020-01-01T00:00Z "${years[@]}")
  memoryUsage=$(usage "$weigh" --memory --clock 2020-01-01T00:00Z "${years[@]}")
  echo "| ten years, directory store | $name | $(printf "%'d" "$disk") | $diskUsage |"
  echo "| ten years, in memory | $name | $(printf "%'d" "$memory") | $memoryUsage |"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
