#!/usr/bin/env bash
# HealthSim and sync benchmarks (release build, this machine):
#  - an incremental sync of 1 new sample over 1,000 and 1,000,000 stored samples;
#  - 10 simulated years of a daily scale with a background observer and a sync per delivery.
# Usage: scripts/bench-sync.sh [stored counts…]   (default: 1000 1000000)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --static-swift-stdlib --product weigh-bench >/dev/null
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1000 1000000)
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB"
.build/release/weigh-bench sync "${counts[@]}"
for run in 1 2 3; do .build/release/weigh-bench years 10; done
