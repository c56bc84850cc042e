#include <sqlite3.h>

/// Keeps the last connection's close from checkpointing the WAL (and so from syncing the
/// database file at the end of every command). `sqlite3_db_config` is variadic, which Swift
/// cannot call.
int health_storage_no_checkpoint_on_close(sqlite3 *db);
