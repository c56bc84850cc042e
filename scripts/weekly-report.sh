#!/usr/bin/env bash
# Prints the last week's entries and the latest weight, and fails when no weight was
# logged in the last three days. Copy it into cron or a shell profile.
#   scripts/weekly-report.sh [--store DIR]
set -euo pipefail
weigh=${WEIGH:-weigh}
"$weigh" "$@" -e 'echo "== the last 7 days"' -e 'list week'
if ! "$weigh" "$@" -e 'list 3d' -e 'expect output != "no entries"' >/dev/null 2>&1; then
  echo "no weight logged in the last three days" >&2
  exit 1
fi
