#!/bin/sh
# Makes Tests/fixtures/health-json-store: a store in the layout weigh wrote before
# health.sqlite (Health in health.json, health-sync.json and the `health` document), for
# the migration's tests. Run it with a weigh built from a commit before health.sqlite
# (e.g. `git worktree add /tmp/old <commit>; cd /tmp/old; swift build`):
#   scripts/make-health-json-fixture.sh /tmp/old/.build/debug/weigh
set -eu
weigh=${1:?usage: make-health-json-fixture.sh OLD-WEIGH}
out=Tests/fixtures/health-json-store
rm -rf "$out"
"$weigh" --store "$out" --clock "2026-01-01 06:00" \
  -e "observe on" -e "app background" \
  -e "simulate scale every 1d at 07:00 start 80kg noise 0.3kg" \
  -e "health add 70kg at 2025-12-30 08:00 source A sync-id a version 1" \
  -e "health add 71kg at 2025-12-31 08:00 source A sync-id a version 2" \
  -e "health add 5000steps at 2025-12-31 09:00 source Phone" \
  -e "health add 69kg at 2025-12-31 10:00 source B" -e "health delete last" \
  -e "advance 120d" -e "log 72kg note fixture" >/dev/null
# A few changes left in the journal, after the compaction above.
"$weigh" --store "$out" --clock "2026-05-01 08:00" \
  -e "health add 68kg source C sync-id c version 1" -e "health add 67kg source D" \
  -e "sync" >/dev/null
rm -f "$out/weigh.lock"
