import Foundation
import GRDB
import GRDBSQLite

/// The disk's writing of a database built aside (`health.sqlite.tmp`) started before the
/// UUID index's sort at its first command's commit, so that the sort's second of CPU hides
/// it and the sync of the file (`placeAside`) waits for the index's pages only.
///
/// The file is written without syncs (`synchronous = OFF`), so the kernel held all of it in
/// the page cache until that sync: 144 MB for the 1 GB all-types import, 84–137 ms of the
/// command's wall time spent waiting in one `fsync` at its end (strace, hsql17). Before
/// `CREATE INDEX record_uuid`, SQLite's dirty pages are written into the file
/// (`sqlite3_db_cacheflush`: what the sort's small page cache would spill during the sort
/// anyway) and their writing to the disk is started (`StoreWriteback`), which does not wait:
/// the `fsync` then took 22–32 ms, and the command's end after the sort 0.10 s against
/// 0.16–0.19 s (perf; docs/performance.md, "hsql17: the commit's tail").
///
/// Nothing of the crash story changes (docs/store.md, "A new store's first Health command
/// built aside"): the file is nobody's until its rename; the sync is made where it was, and
/// nothing counts on a byte being on the disk before it returns. The pages written early
/// are those a spill writes, with the same bytes, and the commit writes the rest.
final class HealthSQLiteAsideWriteback {
  /// A descriptor of the temporary file of the writeback's own, opened beside SQLite's:
  /// closed only after SQLite has closed the file (`close()`), since closing any
  /// descriptor of a file drops every POSIX lock the process holds on it, SQLite's too.
  private var descriptor: Int32
  /// The writeback request made on another thread (`start`), waited for by `close()`.
  private let requests = DispatchGroup()

  /// Opens `temporary`, the file a storage built aside writes (nil when it cannot be
  /// opened: the sync writes everything then, as before).
  init?(_ temporary: String) {
    descriptor = open(temporary, O_RDONLY | O_CLOEXEC)
    if descriptor < 0 { return nil }
  }

  /// Writes SQLite's dirty pages of the transaction open on `db` into the file and has the
  /// disk's writing of the file started on another thread: asking for 100 MB of writes at
  /// once waits for the disk's queue (12–65 ms on the command's thread at 1 GB, strace,
  /// load 5), which the sort's first moments then hide too. Best effort: a failure here is
  /// one the `COMMIT` or the sync meets again and reports.
  func start(_ db: Database) {
    guard descriptor >= 0 else { return }
    _ = sqlite3_db_cacheflush(db.sqliteConnection)
    let descriptor = descriptor
    DispatchQueue.global().async(group: requests) {
      StoreWriteback.start(descriptor, from: 0)
    }
  }

  /// Closes the descriptor: after the storage's connection is closed, and once the request
  /// made on another thread is done (the descriptor's number is then free for reuse).
  func close() {
    guard descriptor >= 0 else { return }
    requests.wait()
    StoreFileSystem.closeDescriptor(descriptor)
    descriptor = -1
  }

  deinit { close() }
}
