#!/usr/bin/env bash
# Health storage candidates, side by side in one run (issue 15 item 4; docs/performance.md,
# "Health storage candidates"): today's JSON documents (WeighKit's Store), a journal plus
# index files, and SQLite through GRDB (WAL, one transaction per command). The candidates
# live in their own package, Benchmarks/HealthStorage, built in release mode under
# .build-storage (git-ignored), so the main package never builds GRDB.
#
# For each size it generates one store per candidate (bench-data/storage/, git-ignored; the
# same samples in each, written 10,000 to a transaction, then compacted or indexed), then
# runs each operation as its own process: open the store (taking its lock), do the one
# command, close. It prints per size and candidate the store's generation time and size on
# disk, and per operation the median open and operation times over RUNS runs and the
# largest peak RSS (/usr/bin/time -f %M) of the whole process.
#
# Usage: scripts/bench-storage.sh [sample counts…]     (default: 1000 100000 1000000)
#   RUNS=3                       runs per operation
#   CANDIDATES="today journal sqlite sqlite-full"
#                                sqlite-full: the sqlite store's writing commands again with
#                                PRAGMA synchronous=FULL (the others use NORMAL)
#   KEEP=1                       keep stores made earlier (default: make them anew)
#   RESULTS=FILE APPEND=1        where the raw results go (default bench-data/storage/
#                                results.tsv), and add to it rather than start anew
set -euo pipefail
cd "$(dirname "$0")/.."
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1000 100000 1000000)
RUNS="${RUNS:-3}"
read -r -a candidates <<<"${CANDIDATES:-today journal sqlite sqlite-full}"
operations=(open add add1000 delete compact anchored range stats syncid)
writing=(add add1000 delete)
data=bench-data/storage
mkdir -p "$data"
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }

swift build -c release --package-path Benchmarks/HealthStorage --scratch-path .build-storage >&2
bench="$PWD/.build-storage/release/health-storage-bench"
results="${RESULTS:-$data/results.tsv}"
[ -n "${APPEND:-}" ] || : >"$results"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -sr); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "started: $(date -u +%FT%TZ)"

for count in "${counts[@]}"; do
  for candidate in "${candidates[@]}"; do
    store_candidate="$candidate"
    ops=("${operations[@]}")
    env=()
    offset=0
    if [ "$candidate" = sqlite-full ]; then
      store_candidate=sqlite ops=("${writing[@]}") env=(HEALTH_SQLITE_SYNC=FULL) offset=100
    fi
    store="$data/$store_candidate-$count"
    if [ "$candidate" != sqlite-full ] && { [ -z "${KEEP:-}" ] || [ ! -f "$store.generated" ]; }; then
      rm -rf "$store" "$store.generated"
      echo "generating $store" >&2
      /usr/bin/time -f "%e %M" -o "$store.time" "$bench" generate "$candidate" "$store" "$count" >"$store.generated"
      read -r seconds rss <"$store.time"
      printf '%s\t%s\tgenerate\t0\t0\t%s\t0\t%s\t%s\n' "$candidate" "$count" "$(python3 -c "print($seconds * 1000)")" "$seconds" "$rss" >>"$results"
    fi
    for op in "${ops[@]}"; do
      for run in $(seq 0 $((RUNS - 1))); do
        line=$(env "${env[@]}" /usr/bin/time -f "%e %U %S %M" -o "$data/rss.$$" "$bench" run "$store_candidate" "$store" "$count" "$op" $((run + offset)))
        echo "$candidate: $line" >&2
        open_ms=$(sed -E 's/.* open ([0-9.]+) ms.*/\1/' <<<"$line")
        op_ms=$(sed -E 's/.* operation ([0-9.]+) ms.*/\1/' <<<"$line")
        cpu_ms=$(sed -E 's/.* cpu ([0-9.]+) ms.*/\1/' <<<"$line")
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$candidate" "$count" "$op" "$run" "$open_ms" "$op_ms" "$cpu_ms" "$(tail -1 "$data/rss.$$" | tr ' ' '\t')" >>"$results"
      done
    done
    if [ "$candidate" != sqlite-full ]; then
      printf '%s\t%s\tsize\t0\t0\t0\t0\t0\t%s\n' "$candidate" "$count" "$(du -sk "$store" | cut -f1)" >>"$results"
    fi
  done
done
echo "finished: $(date -u +%FT%TZ); load: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$results" <<'PY'
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    fields = line.rstrip("\n").split("\t")
    if len(fields) not in (9, 11) or not fields[-1]:
        continue  # a run whose timing file was not written
    candidate, count, op, run, open_ms, op_ms, cpu_ms, process_s = fields[:8]
    kib = fields[-1]
    process_cpu = sum(float(f) for f in fields[8:-1]) * 1000  # user + system, when timed
    rows[(int(count), op, candidate)].append(
        (float(open_ms), float(op_ms), int(kib), float(cpu_ms), float(process_s) * 1000,
         process_cpu))
counts = sorted({key[0] for key in rows})
candidates = list(dict.fromkeys(key[2] for key in rows))
ops = list(dict.fromkeys(key[1] for key in rows))
def t(ms):
    return f"{ms:.2f} ms" if ms < 10 else f"{ms:.1f} ms" if ms < 1000 else f"{ms / 1000:.2f} s"
for count in counts:
    print(f"\n{count:,} samples: the operation's median wall time / its CPU time; the whole "
          "process's (start, open, operation, close) median wall / CPU time; its largest peak RSS")
    print("| operation | " + " | ".join(candidates) + " |")
    print("|---|" + "---:|" * len(candidates))
    for op in ops:
        cells = []
        for candidate in candidates:
            runs = rows.get((count, op, candidate))
            if not runs:
                cells.append("—")
            elif op == "size":
                cells.append(f"{runs[0][2] / 1024:,.1f} MiB on disk")
            elif op == "generate":
                cells.append(f"{t(runs[0][1])}, {runs[0][2] / 1024:,.0f} MiB")
            else:
                # open: the open itself; others: the operation after the open
                column = 0 if op == "open" else 1
                wall = statistics.median(r[column] for r in runs)
                cpu = statistics.median(r[3] for r in runs)
                rss = max(r[2] for r in runs) / 1024
                process = statistics.median(r[4] for r in runs)
                process_cpu = statistics.median(r[5] for r in runs)
                cpu_text = "" if op == "open" else f" / {t(cpu)}"
                cells.append(f"{t(wall)}{cpu_text}; {t(process)} / {t(process_cpu)}; {rss:,.0f} MiB")
        print(f"| {op} | " + " | ".join(cells) + " |")
PY
