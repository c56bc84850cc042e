#!/usr/bin/env bash
# Replays crash inputs through the fuzz executable and prints, for each, the trap message
# and the innermost frame in weigh's own sources: one line per file, so findings can be
# grouped by the code that traps.
#
#   scripts/fuzz-triage.sh TARGET FILE...
#
# Build first with scripts/fuzz.sh (any run); WEIGH_FUZZ_BUILD as there.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
executable=${WEIGH_FUZZ_BUILD:-$root/.build-fuzz}/debug/weigh-fuzz
if [[ $# -lt 2 ]]; then
  echo "usage: scripts/fuzz-triage.sh TARGET FILE..." >&2
  exit 64
fi
target=$1
shift
for file in "$@"; do
  report=$(WEIGH_FUZZ_TARGET=$target ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no \
    timeout 60 "$executable" -timeout=20 "$file" 2>&1)
  status=$?
  message=$(grep -m1 -E 'Fatal error|ERROR: AddressSanitizer|ERROR: libFuzzer|stack-overflow' <<<"$report" |
    sed -E 's/^.*(Fatal error: |ERROR: )//')
  # The innermost frame in Sources/ other than the fuzz entry points.
  frame=$(grep -E '^ +#[0-9]+ .* /.*/Sources/[A-Za-z]+/' <<<"$report" | grep -v 'Fuzzing/FuzzTargets.swift' |
    head -1 | sed -E 's/^ +#[0-9]+ 0x[0-9a-f]+ in ([^ ]+) .*\/(Sources\/[^ ]+).*$/\2 \1/')
  function=$(awk '{print $2}' <<<"$frame" | swift demangle --simplified 2>/dev/null | head -1)
  printf '%s\t%s\t%s\t%s\t%s\n' "$(basename "$file")" "exit $status" "${message:-no trap}" \
    "$(awk '{print $1}' <<<"$frame" | sed "s|^.*Sources/|Sources/|")" "$function"
done
