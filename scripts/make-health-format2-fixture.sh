#!/bin/sh
# Makes Tests/fixtures/health-sqlite-format2-store: a store whose health.sqlite is format 2
# (the shared type indexes), for the migration to format 3's tests. Run it with a weigh
# that writes format 2 (one built from a commit before format 3, e.g. ab79d58):
#   scripts/make-health-format2-fixture.sh OLD-CHECKOUT/.build/release/weigh
set -eu
weigh=${1:?usage: make-health-format2-fixture.sh OLD-WEIGH}
out=Tests/fixtures/health-sqlite-format2-store
rm -rf "$out"
"$weigh" --store "$out" --clock "2026-01-01 06:00" \
  -e "observe on" -e "app background" \
  -e "simulate scale every 1d at 07:00 start 80kg noise 0.3kg" \
  -e "health add 70kg at 2025-12-30 08:00 source A sync-id a version 1" \
  -e "health add 71kg at 2025-12-31 08:00 source A sync-id a version 2" \
  -e "health add 5000steps at 2025-12-31 09:00 source Phone" \
  -e "health add 90mg/dL at 2025-12-31 09:30 source Meter" \
  -e "health add 30min exercise at 2025-12-31 11:00 source Watch" \
  -e "health add 69kg at 2025-12-31 10:00 source B" -e "health delete last" \
  -e "advance 120d" -e "log 72kg note fixture" >/dev/null
# A few changes left in the journal, after the compaction above.
"$weigh" --store "$out" --clock "2026-05-01 08:00" \
  -e "health add 68kg source C sync-id c version 1" -e "health add 67kg source D" \
  -e "sync" >/dev/null
rm -f "$out/weigh.lock"
