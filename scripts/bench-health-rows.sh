#!/usr/bin/env bash
# The cost of inserting the 1 GB export's Health rows into health.sqlite, layout by layout,
# in the sqlite3 shell alone (docs/performance.md, "health.sqlite format 2: the row measured
# first"): what SQLite and the kernel need whatever weigh does around them.
#
# Usage: scripts/bench-health-rows.sh [ROWS] [LAYOUT…]
#   ROWS defaults to 1250000 (the 1 GB export: 1,076,694 steps, 167,749 energy, 3,989
#   workouts, 1,248,432 in all); the layouts default to all of them:
#   v1       today's record table (format 1): type and bundle as text, the record's JSON
#            row (376 bytes on average on the generated exports), five indexes, the UUID
#            index made at the end (as a command that fills an empty table makes it)
#   origin   (a) as v1, but the source, bundle, version and device in an `origin` table
#            and one small integer per row; the row only what the columns do not hold:
#            end, created and the origin id in a 24-byte binary row
#   cols     (a) with no row at all for a plain sample: end and created as REAL columns,
#            `extra` (metadata, workout, objects…) NULL unless present
#   cols-int (a)+(b): as cols, and the type as a small integer
#   cols-end (a)+(b)+(c): as cols-int, and the two type indexes made at the end with the
#            UUID index (the table began empty)
#   cols-wr  (a)+(b)+(c): as cols-int, a WITHOUT ROWID table keyed (type, pos) instead of
#            record_type_pos (the position then needs its own index)
# Each layout is one new file (8 KiB pages, WAL, synchronous = FULL, 64 MiB page cache,
# temp_store = FILE and 8 MiB for the index builds, as the storage runs), one transaction;
# printed: user and system CPU, peak RSS and the file's size after the checkpoint.
# The rows are made by generate_series inside the timed statement; "gen" times making them
# alone (the same for every layout, to subtract). Scratch files under $TMPDIR (/tmp).
set -euo pipefail
rows=${1:-1250000}
shift || true
layouts=("$@")
[ ${#layouts[@]} -gt 0 ] || layouts=(gen v1 origin cols cols-int cols-end cols-wr)
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-health-rows.XXXXXX")
trap 'rm -rf "$dir"' EXIT

# Row i: a step count (86 %), an energy sample (13.4 %) or a workout (0.3 %), starts in
# order, random UUIDs, three origins (phone, watch, scale).
type_text="CASE WHEN value % 1000 < 862 THEN 'stepCount' WHEN value % 1000 < 996
  THEN 'activeEnergyBurned' ELSE 'workout' END"
type_int="CASE WHEN value % 1000 < 862 THEN 1 WHEN value % 1000 < 996 THEN 2 ELSE 3 END"
pragmas="PRAGMA page_size = 8192; PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;
PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY;"
# The indexes made at the end: with a bounded sort, as HealthSQLiteUUIDIndex makes them.
at_end() {
  echo "PRAGMA temp_store = FILE; PRAGMA cache_size = -8192;"
  for index in "$@"; do echo "$index;"; done
}
uuid_index="CREATE INDEX record_uuid ON record(uuid)"
common_tail="CREATE INDEX record_sync ON record(sync_id) WHERE sync_id IS NOT NULL;
CREATE INDEX record_deleted ON record(deleted) WHERE kind = 1;
CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL, crc INTEGER NOT NULL) STRICT;"
origin_table="CREATE TABLE origin (id INTEGER PRIMARY KEY, source TEXT NOT NULL,
  bundle TEXT NOT NULL, revision BLOB NOT NULL, crc INTEGER NOT NULL) STRICT;
INSERT INTO origin VALUES (1, 'Anna''s iPhone', 'sim.anna-s-iphone', randomblob(160), 0),
  (2, 'Anna''s Apple Watch', 'sim.anna-s-apple-watch', randomblob(160), 0),
  (3, 'Withings', 'sim.withings', randomblob(40), 0);"
# The columns of a plain sample in the lean layouts.
cols_table() { # $1: the type's column type, $2: the table's options
  echo "CREATE TABLE record (pos INTEGER ${3:-PRIMARY KEY}, kind INTEGER NOT NULL,
    type $1 NOT NULL, uuid BLOB NOT NULL, start REAL NOT NULL, end REAL NOT NULL,
    value REAL NOT NULL, origin INTEGER NOT NULL, created REAL, sync_id TEXT, deleted REAL,
    extra BLOB, crc INTEGER NOT NULL ${4:-}) $2;"
}
cols_insert() { # $1: the type's expression
  echo "INSERT INTO record SELECT value, 0, $1, randomblob(16), 1e9 + value * 60,
    1e9 + value * 60 + 300, value % 500, value % 3 + 1, 7258118400.0, NULL, NULL,
    CASE WHEN value % 1000 = 999 THEN randomblob(1500) END, value
    FROM generate_series(1, $rows);"
}

sql_for() {
  echo "$pragmas"
  case "$1" in
  gen)
    echo "SELECT count(*) FROM (SELECT value, randomblob(16), randomblob(376)
      FROM generate_series(1, $rows));"
    return ;;
  v1)
    echo "CREATE TABLE record (pos INTEGER PRIMARY KEY, kind INTEGER NOT NULL,
      type TEXT NOT NULL, uuid BLOB NOT NULL, start REAL NOT NULL, value REAL NOT NULL,
      bundle TEXT NOT NULL, sync_id TEXT, deleted REAL, row_crc INTEGER NOT NULL,
      crc INTEGER NOT NULL, row BLOB NOT NULL) STRICT;
      CREATE INDEX record_type_pos ON record(type, pos);
      CREATE INDEX record_type_start ON record(type, start);
      $common_tail BEGIN IMMEDIATE;
      INSERT INTO record SELECT value, 0, $type_text, randomblob(16), 1e9 + value * 60,
        value % 500, CASE value % 3 WHEN 0 THEN 'sim.anna-s-iphone'
        WHEN 1 THEN 'sim.anna-s-apple-watch' ELSE 'sim.withings' END, NULL, NULL, value,
        value, randomblob(376) FROM generate_series(1, $rows);"
    at_end "$uuid_index" ;;
  origin)
    echo "CREATE TABLE record (pos INTEGER PRIMARY KEY, kind INTEGER NOT NULL,
      type TEXT NOT NULL, uuid BLOB NOT NULL, start REAL NOT NULL, value REAL NOT NULL,
      origin INTEGER NOT NULL, sync_id TEXT, deleted REAL, row_crc INTEGER NOT NULL,
      crc INTEGER NOT NULL, row BLOB NOT NULL) STRICT;
      CREATE INDEX record_type_pos ON record(type, pos);
      CREATE INDEX record_type_start ON record(type, start);
      $common_tail $origin_table BEGIN IMMEDIATE;
      INSERT INTO record SELECT value, 0, $type_text, randomblob(16), 1e9 + value * 60,
        value % 500, value % 3 + 1, NULL, NULL, value, value, randomblob(24)
        FROM generate_series(1, $rows);"
    at_end "$uuid_index" ;;
  cols | cols-int | cols-end)
    local type=TEXT expression=$type_text
    [ "$1" = cols ] || { type=INTEGER; expression=$type_int; }
    cols_table "$type" STRICT
    local type_indexes=("CREATE INDEX record_type_pos ON record(type, pos)"
      "CREATE INDEX record_type_start ON record(type, start)")
    if [ "$1" = cols-end ]; then
      echo "$common_tail $origin_table BEGIN IMMEDIATE;"
      cols_insert "$expression"
      at_end "${type_indexes[@]}" "$uuid_index"
    else
      for index in "${type_indexes[@]}"; do echo "$index;"; done
      echo "$common_tail $origin_table BEGIN IMMEDIATE;"
      cols_insert "$expression"
      at_end "$uuid_index"
    fi ;;
  cols-wr)
    cols_table INTEGER "STRICT, WITHOUT ROWID" "NOT NULL" ", PRIMARY KEY (type, pos)"
    echo "CREATE UNIQUE INDEX record_pos ON record(pos);
      CREATE INDEX record_type_start ON record(type, start);
      $common_tail $origin_table BEGIN IMMEDIATE;"
    cols_insert "$type_int"
    at_end "$uuid_index" ;;
  *) echo "unknown layout $1" >&2; exit 64 ;;
  esac
  echo "COMMIT; PRAGMA wal_checkpoint(TRUNCATE);"
}

printf '%-9s %10s %10s %10s %12s\n' layout "user s" "system s" "peak KB" "file bytes"
for layout in "${layouts[@]}"; do
  rm -f "$dir"/db*
  sql_for "$layout" >"$dir/q.sql"
  /usr/bin/time -f "%U %S %M" -o "$dir/time" sqlite3 -bail "$dir/db" <"$dir/q.sql" >/dev/null
  read -r user system peak <"$dir/time"
  size=$(stat -c %s "$dir/db" 2>/dev/null || echo 0)
  printf '%-9s %10s %10s %10s %12s\n' "$layout" "$user" "$system" "$peak" "$size"
done
