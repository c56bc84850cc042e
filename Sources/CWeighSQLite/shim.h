#include <sqlite3.h>

// sqlite3_config is variadic, which Swift cannot call: the two settings weigh makes, each
// before SQLite's first use in the process (it returns SQLITE_MISUSE after).

// SQLITE_CONFIG_MULTITHREAD: a connection takes no mutex of its own (GRDB uses each
// connection on one thread at a time, through its queue).
static inline int weigh_sqlite3_config_multithread(void) {
  return sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
}

// SQLITE_CONFIG_MEMSTATUS off: SQLite's allocations are not counted, so each malloc and
// free takes no global mutex.
static inline int weigh_sqlite3_config_no_memstatus(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
