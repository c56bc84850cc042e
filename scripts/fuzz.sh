#!/usr/bin/env bash
# Builds the libFuzzer executable (Fuzz/, with -sanitize=fuzzer,address) if needed and runs
# one fuzz target for SECONDS.
#
#   scripts/fuzz.sh TARGET SECONDS [libFuzzer flags...]
#   scripts/fuzz.sh list
#
# Seeds come from Fuzz/corpus/TARGET (checked in); what libFuzzer adds goes to
# Fuzz/findings/TARGET/corpus and crashes to Fuzz/findings/TARGET/crash-* (git-ignored).
# Reproduce one finding:  scripts/fuzz.sh TARGET 0 Fuzz/findings/TARGET/crash-...
# Minimize one:           scripts/fuzz.sh TARGET 60 -minimize_crash=1 Fuzz/findings/TARGET/crash-...
#
# Environment:
#   WEIGH_FUZZ_RUNS=N   also stop after N executions (whichever of SECONDS and N comes first)
#   WEIGH_FUZZ_EXECUTABLE=PATH  run this fuzz executable instead of building one (a copy
#                       made earlier, so a long campaign is not rebuilt from changing sources)
#   WEIGH_FUZZ_FORK=0   run in-process (one process, stops at the first crash) instead of in
#                       fork mode, which restarts a worker every few seconds and collects
#                       every distinct crash but runs fewer inputs a second
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
targets="interpreter-line interpreter-script apple-xml apple-zip withings-csv openscale-csv fitbit-json weigh-csv weigh-json csv-any generic-csv store-loader"

if [[ ${1:-} == list ]]; then
  tr ' ' '\n' <<<"$targets"
  exit 0
fi
if [[ $# -lt 2 ]] || ! grep -qw -- "$1" <<<"$targets" || ! [[ $2 =~ ^[0-9]+$ ]]; then
  echo "usage: scripts/fuzz.sh TARGET SECONDS [libFuzzer flags...]; targets: $targets" >&2
  exit 64
fi
target=$1
seconds=$2
shift 2

# The longest input of each target (FuzzTargets.Target.maximumLength).
case $target in
  interpreter-line) max_len=256 ;;
  interpreter-script) max_len=2048 ;;
  store-loader) max_len=8192 ;;
  *) max_len=16384 ;;
esac

# SwiftPM names path dependencies after their folder: a checkout named like the Fuzz
# package collides with it.
if [[ $(basename "$root" | tr '[:upper:]' '[:lower:]') == fuzz ]]; then
  echo "fuzz.sh: the checkout's folder is named $(basename "$root"), like the Fuzz package; clone or copy it under another name" >&2
  exit 64
fi

if [[ -n ${WEIGH_FUZZ_EXECUTABLE:-} ]]; then
  executable=$WEIGH_FUZZ_EXECUTABLE
else
  build=${WEIGH_FUZZ_BUILD:-$root/.build-fuzz}
  echo "building the fuzz executable in $build" >&2
  (cd "$root/Fuzz" && swift build -c debug -Xswiftc -sanitize=fuzzer,address \
    --scratch-path "$build" 2>&1 | grep -v "ld.gold: warning" | tail -3) >&2
  executable=$build/debug/weigh-fuzz
fi

findings=$root/Fuzz/findings/$target
mkdir -p "$findings/corpus"
flags=(-max_len="$max_len" -timeout=10 -rss_limit_mb=2048 -detect_leaks=0
  -artifact_prefix="$findings/" -print_final_stats=1)
dictionary=$root/Fuzz/dictionaries/$target.dict
[[ -f $dictionary ]] && flags+=(-dict="$dictionary")

export WEIGH_FUZZ_TARGET=$target
# The targets' temporary folders on a RAM disk when there is one: the store fsyncs every
# commit, which on a real disk would bound store-loader to a few dozen inputs a second.
if [[ -z ${TMPDIR:-} && -d /dev/shm && -w /dev/shm ]]; then
  TMPDIR=/dev/shm
fi
# One folder for every worker's scratch folder, removed at the end (crashed workers leave theirs).
TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/weigh-fuzz-run.XXXXXX")
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT
# Leaks are not crashes here (and the Swift runtime keeps caches to the end).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
# The Swift runtime's own backtracer only slows crashes down; ASan prints the stack.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}
# Flags or files after SECONDS (a crash to reproduce or minimize) replace the corpus run.
if [[ $# -gt 0 ]]; then
  "$executable" "${flags[@]}" -max_total_time="$seconds" "$@"
  exit $?
fi
log=$findings/last-run.log
[[ -n ${WEIGH_FUZZ_RUNS:-} ]] && flags+=(-runs="$WEIGH_FUZZ_RUNS")
started=$SECONDS
set +e
if [[ ${WEIGH_FUZZ_FORK:-1} == 0 ]]; then
  "$executable" "${flags[@]}" -max_total_time="$seconds" \
    "$findings/corpus" "$root/Fuzz/corpus/$target" >"$log" 2>&1
else
  # Fork mode with the crash, timeout and out-of-memory handlers set to go on: one run
  # collects every distinct crash instead of stopping at the first.
  "$executable" "${flags[@]}" -max_total_time="$seconds" -fork=1 -ignore_crashes=1 \
    -ignore_timeouts=1 -ignore_ooms=1 "$findings/corpus" "$root/Fuzz/corpus/$target" \
    >"$log" 2>&1
fi
status=$?
set -e
elapsed=$((SECONDS - started))
# The last progress line: "#RUNS: cov: … oom/timeout/crash: a/b/c time: Ts" in fork mode,
# "#RUNS<tab>pulse  cov: N …" in-process; the final stats count the executions exactly.
last=$(grep -E '^#[0-9]+:?[[:space:]]' "$log" | tail -1) || true
runs=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$last")
if [[ ${WEIGH_FUZZ_FORK:-1} == 0 ]]; then
  stat=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$log" | awk '{print $2}') || true
  [[ -n $stat ]] && runs=$stat
fi
cov=$(grep -oE 'cov: [0-9]+' <<<"$last" | awk '{print $2}') || true
rate=$([[ -n $runs && $elapsed -gt 0 ]] && echo $((runs / elapsed)) || echo "?")
counts=$(grep -oE 'oom/timeout/crash: [0-9/]+' <<<"$last" | awk '{print $2}') || true
found=$(find "$findings" -maxdepth 1 \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
echo "target $target: ${runs:-?} executions in ${elapsed}s (${rate} exec/s; cov ${cov:-?};" \
  "oom/timeout/crash ${counts:-?}); files in Fuzz/findings/$target: $found; log: $log"
exit "$status"
