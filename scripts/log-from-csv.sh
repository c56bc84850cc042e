#!/usr/bin/env bash
# Logs every line "YYYY-MM-DD HH:MM,WEIGHT" of a CSV file (e.g. 2026-01-03 07:30,68.5kg)
# in one weigh run, so the whole file goes in or, on the first bad line, the error names
# that line and nothing after it is logged.
#   scripts/log-from-csv.sh weights.csv [--store DIR]
set -euo pipefail
file=$1
shift
weigh=${WEIGH:-weigh}
awk -F, 'NF == 2 && $0 !~ /^#/ { printf "log %s at %s\n", $2, $1 }' "$file" | "$weigh" "$@"
