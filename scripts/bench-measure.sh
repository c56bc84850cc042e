# Shared by the benchmark scripts: `measure KEY RUNS PREPARE COMMAND` times COMMAND RUNS
# times (hyperfine when installed, else its own timing) into $results/KEY.times as lines
# "wall cpu", and its peak RSS into $results/KEY.rss. $warmup sets hyperfine's warm-up runs.
# `instructions` and `usage` count one run (callgrind; /usr/bin/time).

measure() {
  local key="$1" runs="$2" prepare="$3" command="$4"
  echo "measuring $key: $command" >&2
  if command -v hyperfine >/dev/null; then
    local options=(--warmup "${warmup:-1}" --runs "$runs" --export-json "$results/$key.json" --style none)
    if [[ -n "$prepare" ]]; then options+=(--prepare "$prepare"); else options+=(-N); fi
    hyperfine "${options[@]}" "$command" >/dev/null
    python3 -c '
import json, sys
result = json.load(open(sys.argv[1]))["results"][0]
for wall in result["times"]:
    print(wall, result["user"] + result["system"])' "$results/$key.json" >"$results/$key.times"
  else
    for _ in $(seq "$runs"); do
      [[ -z "$prepare" ]] || bash -c "$prepare"
      python3 -c '
import resource, subprocess, sys, time
before = resource.getrusage(resource.RUSAGE_CHILDREN)
start = time.perf_counter()
subprocess.run(sys.argv[1], shell=True, check=True, stdout=subprocess.DEVNULL)
wall = time.perf_counter() - start
after = resource.getrusage(resource.RUSAGE_CHILDREN)
print(wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)' \
        "$command" >>"$results/$key.times"
    done
  fi
  [[ -z "$prepare" ]] || bash -c "$prepare"
  /usr/bin/time -f %M -o "$results/$key.rss" bash -c "$command" >/dev/null
}

# instructions COMMAND…: the instructions callgrind counts for COMMAND (its children too);
# 0 when INSTRUCTIONS=0.
instructions() {
  [ "${INSTRUCTIONS:-1}" != 0 ] || { echo 0; return; }
  valgrind --tool=callgrind --trace-children=yes --callgrind-out-file=/dev/null "$@" \
    2>&1 >/dev/null | awk '/Collected :/ {sum += $NF} END {printf "%.0f\n", sum}'
}

# usage COMMAND…: "wall-seconds, cpu-seconds, peak-MiB" of one run ($data/.usage holds it).
usage() {
  /usr/bin/time -f '%e %U %S %M' -o "$data/.usage" "$@" >/dev/null 2>&1 || true
  awk '{printf "%.3f s, %.3f s, %.0f MiB", $1, $2 + $3, $4 / 1024}' "$data/.usage"
}

# `instruction_table_start`: bench-data/ made, the machine and its load said, and the header
# of the table `bench-health-open.sh` and `bench-health-disk.sh` print (one row a run).
instruction_table_start() {
  data=bench-data
  mkdir -p "$data"
  echo "machine: $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "| benchmark | binary | instructions | wall, cpu, peak RSS |"
  echo "|---|---|---:|---:|"
}
