#!/usr/bin/env bash
# HealthSim and sync benchmarks (release build, this machine):
#  1. inside one process (weigh-bench): an incremental sync of 1 new sample over 1,000 and
#     1,000,000 stored samples; 10 simulated years of a daily scale with a background
#     observer and a sync per delivery;
#  2. as whole processes on directory stores (hyperfine): `weigh -e sync` after one new
#     sample, over 1,000 and 1,000,000 samples already synced.
# The directory stores are made once under bench-data/ (the million takes about 45 s and
# 2.7 GB of memory to make, and 370 MB of disk).
# Usage: scripts/bench-sync.sh [stored counts…]   (default: 1000 1000000)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --static-swift-stdlib >/dev/null
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1000 1000000)
weigh="$PWD/.build/release/weigh"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB"

echo "== in one process"
.build/release/weigh-bench sync "${counts[@]}"
for run in 1 2 3; do .build/release/weigh-bench years 10; done

echo "== whole processes"
mkdir -p bench-data
for count in "${counts[@]}"; do
  store="bench-data/synced-$count"
  if [ ! -f "$store/weigh.json" ]; then
    rm -rf "$store"
    # One reading a minute from 2020-01-01, then one sync of them all.
    "$weigh" --store "$store" --clock 2020-01-01T00:00Z \
      -e 'simulate scale every 1min start 70kg' -e "advance ${count}min" \
      -e 'simulate stop all' -e sync | tail -1
  fi
  # Each timed sync has one new sample to import, added by the prepare step.
  hyperfine -N --warmup 2 --runs 21 \
    --prepare "$weigh --store $store --clock 2022-01-01T00:00Z -e 'health add 70.1kg source Withings'" \
    --command-name "sync over $count" "$weigh --store $store --clock 2022-01-01T00:00Z -e sync"
done
