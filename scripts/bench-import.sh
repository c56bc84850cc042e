#!/usr/bin/env bash
# Measures Apple Health export import speed and memory on one generated file:
# weigh (release binary), healthkit-to-sqlite, and `xmllint --stream --noout` as the
# libxml2 baseline. Wall time and peak RSS come from /usr/bin/time -v.
#
#   scripts/bench-import.sh            # 1 GB export.xml (generated once under bench-data/)
#   SIZE=100M scripts/bench-import.sh  # a smaller run
#   SKIP_H2S=1 scripts/bench-import.sh # leave out healthkit-to-sqlite (about 5 minutes per GB)
#
# The generated export runs years past today, so weigh runs with a clock after its last
# record (CLOCK) and imports every weight instead of rejecting the future ones.
#
# Installs what it needs: Debian's libxml2-utils and time, and healthkit-to-sqlite from
# PyPI into bench-data/venv. bench-data/ is git-ignored.
set -euo pipefail

cd "$(dirname "$0")/.."
SIZE="${SIZE:-1G}"
CLOCK="${CLOCK:-2200-01-01T00:00Z}"
DATA=bench-data
ZIP="$DATA/export-$SIZE.zip"
XML="$DATA/export-$SIZE.xml"
RESULTS="$DATA/results-$SIZE.md"
mkdir -p "$DATA"

need_apt=()
command -v xmllint >/dev/null || need_apt+=(libxml2-utils)
[ -x /usr/bin/time ] || need_apt+=(time)
if [ ${#need_apt[@]} -gt 0 ]; then
  apt-get update -qq && apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

if [ ! -f "$ZIP" ]; then
  echo "generating $ZIP ..." >&2
  python3 scripts/gen-apple-export.py --size "$SIZE" --out "$ZIP"
fi
if [ ! -f "$XML" ]; then
  echo "unpacking $XML ..." >&2
  python3 - "$ZIP" "$XML" <<'PY'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open("apple_health_export/export.xml") as src, open(sys.argv[2], "wb") as dst:
    shutil.copyfileobj(src, dst, 1 << 20)
PY
fi
XML_BYTES=$(stat -c %s "$XML")

if [ -z "${SKIP_H2S:-}" ] && [ ! -x "$DATA/venv/bin/healthkit-to-sqlite" ]; then
  python3 -m venv "$DATA/venv"
  "$DATA/venv/bin/pip" install -q healthkit-to-sqlite
fi

# Incremental, so the binary measured is the source checked out.
swift build -c release --static-swift-stdlib --product weigh >&2

# measure NAME COMMAND...: runs once, prints a table row.
measure() {
  local name="$1"
  shift
  local log
  log=$(mktemp)
  if /usr/bin/time -v -o "$log" "$@" >"$log.out" 2>&1; then
    local status=ok
    if [[ "$name" == weigh* ]]; then
      if ! grep -q "^imported" "$log.out"; then
        status="no 'imported' line in the output: $(tail -c 200 "$log.out" | tr '\n' ' ')"
      else
        # The import's own report, so a run that rejected everything shows it.
        status="ok: $(grep "^imported" "$log.out" | head -1)"
      fi
    fi
  else
    local status="failed (exit $?): $(tail -c 200 "$log.out" | tr '\n' ' ')"
  fi
  python3 - "$name" "$XML_BYTES" "$status" "$log" <<'PY' | tee -a "$RESULTS"
import re, sys
name, size, status, log = sys.argv[1], int(sys.argv[2]), sys.argv[3], open(sys.argv[4]).read()
wall = re.search(r"Elapsed \(wall clock\) time.*: (\S+)", log).group(1)
seconds = 0.0
for part in wall.split(":"):
    seconds = seconds * 60 + float(part)
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", log).group(1)) / 1024
rate = size / 1e6 / seconds if seconds else float("inf")
note = "" if status == "ok" else " " + status.removeprefix("ok: ")
print(f"| {name} | {seconds:.2f} | {rss:.0f} | {rate:.1f} |{note}")
PY
  rm -f "$log" "$log.out"
}

{
  echo
  echo "## $(date -u +%Y-%m-%dT%H:%MZ), export.xml $((XML_BYTES / 1000000)) MB ($SIZE)"
  echo "| what | wall s | peak RSS MiB | MB/s |"
  echo "|---|---:|---:|---:|"
} | tee -a "$RESULTS"
measure "xmllint --stream --noout (xml)" xmllint --stream --noout "$XML"
measure "weigh import (zip)" .build/release/weigh --memory --clock "$CLOCK" -e "import $ZIP"
measure "weigh import (xml)" .build/release/weigh --memory --clock "$CLOCK" -e "import $XML"
if [ -z "${SKIP_H2S:-}" ]; then
  rm -f "$DATA/h2s.db"
  measure "healthkit-to-sqlite (xml)" "$DATA/venv/bin/healthkit-to-sqlite" "$XML" "$DATA/h2s.db" --xml
fi
echo "results appended to $RESULTS" >&2
