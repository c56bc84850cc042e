#!/usr/bin/env bash
# Times `weigh import` of one generated file per reader (Withings, openScale, weigh CSV,
# generic CSV, Google Fit, Samsung Health, Garmin, Renpho, Libra, MyFitnessPal, Fitbit JSON,
# weigh JSON) against sqlite3 loading the same file into an in-memory table, side by side.
# Wall time, CPU (user + system) and peak RSS come from /usr/bin/time -v; each command runs
# once, readers one after another so the two figures of a row share the machine's load.
#
#   scripts/bench-readers.sh                         # 1,000,000 rows each (JSON: 200,000)
#   ROWS=200000 JSON_ROWS=50000 scripts/bench-readers.sh withings libra
#   WEIGH=/path/to/weigh scripts/bench-readers.sh    # another build (a "before" binary)
#   STORE=memory scripts/bench-readers.sh            # --memory instead of a new directory store
#   WORK=/tmp/mine scripts/bench-readers.sh          # the store, logs and results there, so two
#                                                    # runs at once do not share them
#
# weigh runs as `weigh --store NEW_DIR --clock 2200-01-01T00:00Z -e "import FILE"` (the clock
# after every generated row, so each is imported). sqlite3 runs `.import --csv FILE w` on the
# CSV files (Libra: `;` and its three lines before the header skipped; Samsung: its type line
# skipped) and `create table w as select value from json_each(readfile(FILE))` on the JSON.
# Files come from scripts/gen-import-files.py, made once under bench-data/readers/
# (git-ignored); results are appended to WORK/results-ROWS.md (WORK: bench-data/readers).
set -euo pipefail

cd "$(dirname "$0")/.."
ROWS="${ROWS:-1000000}"
JSON_ROWS="${JSON_ROWS:-200000}"
STORE="${STORE:-directory}"
CLOCK=2200-01-01T00:00Z
DATA=bench-data/readers
WORK="${WORK:-$DATA}"
RESULTS="$WORK/results-$ROWS.md"
mkdir -p "$DATA" "$WORK"

need_apt=()
command -v sqlite3 >/dev/null || need_apt+=(sqlite3)
[ -x /usr/bin/time ] || need_apt+=(time)
if [ ${#need_apt[@]} -gt 0 ]; then
  apt-get update -qq && apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

if [ -z "${WEIGH:-}" ]; then
  # Incremental, so the binary measured is the source checked out.
  swift build -c release --static-swift-stdlib --product weigh >&2
  WEIGH=.build/release/weigh
fi

# reader: file name from gen-import-files.py, and what `import` needs after the file
declare -A FILES=(
  [withings]=withings-weight.csv [openscale]=openscale.csv [weigh-csv]=weigh.csv
  [generic]=own.csv [google-fit]=google-fit-daily.csv
  [samsung]=com.samsung.health.weight.csv [garmin]=garmin-weight.csv [renpho]=renpho.csv
  [libra]=libra.csv [myfitnesspal]=myfitnesspal.csv [fitbit]=weight-fitbit.json
  [weigh-json]=weigh.json
)
declare -A OPTIONS=([myfitnesspal]="unit kg")
ORDER=(withings openscale weigh-csv generic google-fit samsung garmin renpho libra myfitnesspal
  fitbit weigh-json)
READERS=("$@")
[ ${#READERS[@]} -gt 0 ] || READERS=("${ORDER[@]}")

# run NAME COMMAND...: one run under /usr/bin/time; prints "wall cpu rss_mib" and leaves the
# command's output in $WORK/last.out.
run() {
  local log="$WORK/last.time"
  if ! /usr/bin/time -v -o "$log" "$@" >"$WORK/last.out" 2>&1; then
    echo "failed: $* — $(tail -c 300 "$WORK/last.out")" >&2
  fi
  python3 - "$log" <<'PY'
import re, sys
log = open(sys.argv[1]).read()
wall = 0.0
for part in re.search(r"Elapsed \(wall clock\) time.*: (\S+)", log).group(1).split(":"):
    wall = wall * 60 + float(part)
cpu = sum(float(re.search(p + r": (\S+)", log).group(1))
          for p in (r"User time \(seconds\)", r"System time \(seconds\)"))
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", log).group(1)) / 1024
print(f"{wall:.2f} {cpu:.2f} {rss:.0f}")
PY
}

{
  echo
  echo "## $(date -u +%Y-%m-%dT%H:%MZ), $ROWS rows (JSON $JSON_ROWS), store: $STORE, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "weigh: $WEIGH ($(git rev-parse --short HEAD) checked out)"
  echo
  echo "| reader | file MB | weigh wall s | weigh cpu s | weigh peak RSS MiB | sqlite3 wall s | sqlite3 cpu s | sqlite3 peak RSS MiB | weigh / sqlite3 wall | weigh said |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
} | tee -a "$RESULTS"

for reader in "${READERS[@]}"; do
  name="${FILES[$reader]:?unknown reader $reader}"
  rows=$ROWS
  [[ "$name" == *.json ]] && rows=$JSON_ROWS
  file="$DATA/$rows-$name"
  if [ ! -f "$file" ]; then
    echo "generating $file ..." >&2
    python3 scripts/gen-import-files.py --rows "$rows" --out "$DATA" "$reader" >/dev/null
  fi
  bytes=$(stat -L -c %s "$file")  # -L: the file a link in bench-data/ names

  rm -rf "$WORK/store"
  store=(--store "$WORK/store")
  [ "$STORE" = memory ] && store=(--memory)
  read -r w_wall w_cpu w_rss < <(run "$WEIGH" "${store[@]}" --clock "$CLOCK" \
    -e "import $file ${OPTIONS[$reader]:-}")
  said=$(grep -m1 "^imported" "$WORK/last.out" || tail -c 200 "$WORK/last.out" | tr '\n' ' ')
  rm -rf "$WORK/store"

  case "$reader" in
    libra) sql=(".mode csv" ".separator ;" ".import --skip 3 $file w") ;;
    samsung) sql=(".import --csv --skip 1 $file w") ;;
    fitbit) sql=("create table w as select value from json_each(readfile('$file'));") ;;
    weigh-json)
      sql=("create table w as select value from json_each(readfile('$file'), '\$.entries');") ;;
    *) sql=(".import --csv $file w") ;;
  esac
  read -r s_wall s_cpu s_rss < <(run sqlite3 :memory: "${sql[@]}")

  python3 - "$reader" "$bytes" "$w_wall" "$w_cpu" "$w_rss" "$s_wall" "$s_cpu" "$s_rss" "$said" \
    <<'PY' | tee -a "$RESULTS"
import sys
reader, size, w_wall, w_cpu, w_rss, s_wall, s_cpu, s_rss, said = sys.argv[1:]
ratio = float(w_wall) / float(s_wall) if float(s_wall) else float("inf")
print(f"| {reader} | {int(size) / 1e6:.1f} | {w_wall} | {w_cpu} | {w_rss} | {s_wall} | {s_cpu}"
      f" | {s_rss} | {ratio:.2f}× | {said.strip()} |")
PY
done
echo "results appended to $RESULTS" >&2
