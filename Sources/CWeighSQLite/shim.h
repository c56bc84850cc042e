#include <sqlite3.h>

// sqlite3_config is variadic, which Swift cannot call. Only before SQLite's first use in the
// process (it returns SQLITE_MISUSE after).

// SQLITE_CONFIG_MEMSTATUS off: SQLite's allocations are not counted, so each malloc and
// free takes no global mutex.
static inline int weigh_sqlite3_config_no_memstatus(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
