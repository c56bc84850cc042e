import Foundation
import GRDB
import GRDBSQLite
import HealthSim

/// One transaction per command across the two stores (docs/store.md, "One commit across
/// the two stores"): a command's Health writes are savepoints of one `BEGIN IMMEDIATE`
/// transaction, whose `COMMIT` also writes the app journal's record for the command into
/// `pending_journal`; that `COMMIT` is the command's commit point. The app then appends the
/// record to `journal.jsonl`; an open that finds the journal without it appends it.
extension HealthSQLiteStorage {
  /// The app journal's record a command committed with its Health changes.
  public struct PendingRecord: Hashable, Sendable {
    /// The app sequence the record takes.
    public var sequence: Int
    /// The journal line, with its newline, as `journal.jsonl` holds it; with `head`, what
    /// follows the head.
    public var bytes: [UInt8]
    /// The record's first bytes, where the journal already holds them (a streamed run's
    /// rows): copied from there a piece at a time, never held (nil: none).
    public var head: StoreRecordHead?

    /// A record: `head`'s bytes, if any, then `bytes`.
    public init(sequence: Int, bytes: [UInt8], head: StoreRecordHead? = nil) {
      self.sequence = sequence
      self.bytes = bytes
      self.head = head
    }

    /// The record's length in bytes.
    public var byteCount: Int { (head?.byteCount ?? 0) + bytes.count }

    /// The record with its head read into `bytes`: for a record small enough to hold.
    func whole() throws(StoreError) -> PendingRecord {
      guard let head else { return self }
      return PendingRecord(sequence: sequence, bytes: try head.bytes() + bytes)
    }
  }

  /// Opens the command's transaction (`BEGIN IMMEDIATE`) unless one is open: until
  /// `commitCommand` or `rollbackCommand`, every `apply` and `append` is a savepoint of it.
  public func beginCommand() throws(StoreError) {
    guard !isInCommand else { return }
    try checkOpen()
    try Self.mapped(path) { try queue.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") } }
    isInCommand = true
    owedSavepoints = OwedSavepoints()
  }

  /// Commits the command's transaction, with `pending` (the app journal's record for the
  /// command, when it changed the app's store) in `pending_journal` and the app sequence the
  /// database then matches in the `app_sequence` meta row. Does nothing when no command's
  /// transaction is open.
  ///
  /// - Throws: `StoreError`; the transaction is rolled back then, and nothing is kept.
  public func commitCommand(pending: PendingRecord?, appSequence: Int) throws(StoreError) {
    try commitCommand(appSequence: appSequence) { db in
      try Self.insertPending(pending, db)
      return pending != nil
    }
  }

  /// Commits the command's transaction as `commitCommand(pending:appSequence:)` does, with a
  /// pending record of `sequence` and `byteCount` bytes that `fill` hands to its `write` in
  /// order, never held whole when it is written in pieces (`pendingWriting.fromBytes` or
  /// more; a shorter one is gathered and written as `commitCommand(pending:appSequence:)`
  /// writes it): the migration of Health's tables, whose record removes every row.
  ///
  /// - Throws: `StoreError`, also when the pieces do not make `byteCount` bytes; the
  ///   transaction is rolled back then.
  func commitCommand(
    pendingSequence sequence: Int, byteCount: Int,
    fill: ((UnsafeRawBufferPointer) -> Void) throws -> Void, appSequence: Int
  ) throws(StoreError) {
    try commitCommand(appSequence: appSequence) { db in
      let writing = Self.pendingWriting
      guard byteCount >= writing.fromBytes else {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount)
        try fill { bytes.append(contentsOf: $0) }
        guard bytes.count == byteCount else {
          throw HealthSQLiteDamage(position: nil, "the pending journal record was cut short")
        }
        try Self.insertPending(PendingRecord(sequence: sequence, bytes: bytes), db)
        return true
      }
      let cacheKept = try Self.shrinkPageCache(byteCount: byteCount, db)
      let checksum = try Self.insertInPieces(
        sequence: sequence, byteCount: byteCount, db, fill: fill)
      try Self.setMeta(Self.pendingChecksumKey, Int64(truncatingIfNeeded: checksum), db)
      if let cacheKept { try db.execute(sql: "PRAGMA cache_size = \(cacheKept)") }
      return true
    }
  }

  /// Commits the command's transaction as `commitCommand(pending:appSequence:)` does, with
  /// the pending record of the database at `source` (if any) copied a piece at a time
  /// (`copyPendingRecord`): a repair's rebuild.
  func commitCommand(
    copyingPendingFrom source: String, damaged: DamagedPendingRecord, appSequence: Int
  ) throws(StoreError) {
    var configuration = Configuration()
    configuration.readonly = true
    let sourceQueue = try Self.mapped(source) {
      try DatabaseQueue(path: source, configuration: configuration)
    }
    defer { try? sourceQueue.close() }
    try commitCommand(appSequence: appSequence) { db in
      try sourceQueue.read { sourceDB in
        try Self.copyPendingRecord(from: sourceDB, to: db, damaged: damaged)
      }
    }
  }

  /// Commits the command's transaction, `writePending` writing `pending_journal`'s row (or
  /// none) into the database emptied of the one before; it returns whether it wrote one.
  private func commitCommand(
    appSequence: Int, writePending: (Database) throws -> Bool
  ) throws(StoreError) {
    guard isInCommand else { return }
    var wrotePending = false
    do throws(StoreError) {
      try checkOpen()
      try Self.mapped(path) {
        try queue.inDatabase { db in
          try settleSavepoints(db)
          try flushCommandWriter(db)
          try HealthSQLiteBinding(try db.cachedStatement(sql: "DELETE FROM pending_journal"))
            .run()
          try Self.forgetPendingChecksum(db)
          wrotePending = try writePending(db)
          // checked: Int and Int64 have one width
          try Self.setMeta("app_sequence", Int64(appSequence), db, statements)
          try Self.setMeta(
            "commands", (try Self.meta("commands", db, statements) ?? 0) &+ 1, db, statements)
          try db.execute(sql: "COMMIT")
        }
      }
      isInCommand = false
      owedSavepoints = OwedSavepoints()
    } catch {
      rollbackCommand()
      throw error
    }
    // A database built aside: the rename that puts it in place is the commit point.
    try placeAside(markLog: wrotePending)
  }

  /// Inserts `pending` as `pending_journal`'s row: in pieces from
  /// `pendingWriting.fromBytes`, else whole.
  private static func insertPending(_ pending: PendingRecord?, _ db: Database) throws {
    let writing = pendingWriting
    if let pending, pending.byteCount >= writing.fromBytes {
      let cacheKept = try shrinkPageCache(for: pending, db)
      try insertInPieces(pending, pieceBytes: writing.pieceBytes, db)
      if let cacheKept { try db.execute(sql: "PRAGMA cache_size = \(cacheKept)") }
    } else if let pending = try pending?.whole() {
      // Prepared once per connection (GRDB's cache) and bound straight to SQLite: a
      // command of ten simulated years commits a 600 KB record, which `Data` and GRDB's
      // arguments copied twice more before SQLite's own copy.
      var insert = HealthSQLiteBinding(
        try db.cachedStatement(
          sql: "INSERT INTO pending_journal (id, seq, record, crc) VALUES (1, ?, ?, ?)"))
      // checked: Int and Int64 have one width
      insert.bind(1, integer: Int64(pending.sequence))
      insert.bind(3, integer: Int64(truncatingIfNeeded: pendingChecksum(pending)))
      // Not copied by SQLite, whose record for the row is a copy already: a streamed
      // import's record (150 MB at 1,000,000 weights) was held three times here.
      let cacheKept = try shrinkPageCache(for: pending, db)
      try pending.bytes.withUnsafeBytes { bytes in
        insert.bind(2, unchangingBlob: bytes)
        try insert.run()
      }
      if let cacheKept { try db.execute(sql: "PRAGMA cache_size = \(cacheKept)") }
    }
  }

  /// For a record of `StoreJournal.largeRecordBytes` or more, sets the connection's page
  /// cache to SQLite's default (2 MiB) and returns the size it had: the record's pages then
  /// go to the log as they are written (SQLite spills the dirty pages of a full cache
  /// within the transaction; only the commit makes them count) instead of filling an
  /// import's cache (`HealthImportPlan.pageCacheMebibytes`) beside the record and SQLite's
  /// row. hpend20, a new store's import of 1,000,000 weights with `types`: 344 → 305 MiB
  /// at the peak (nothing measurable at 4,000,000).
  static func shrinkPageCache(for pending: PendingRecord, _ db: Database) throws -> Int? {
    try shrinkPageCache(byteCount: pending.byteCount, db)
  }

  /// `shrinkPageCache(for:_:)` for a record of `byteCount` bytes.
  static func shrinkPageCache(byteCount: Int, _ db: Database) throws -> Int? {
    guard byteCount >= StoreJournal.largeRecordBytes,
      let size = try Int.fetchOne(db, sql: "PRAGMA cache_size"), size < -2000 || size > 2000
    else { return nil }
    try db.execute(sql: "PRAGMA cache_size = -2000")
    return size
  }

  /// Drops the command's transaction, if one is open: nothing of it is kept.
  public func rollbackCommand() {
    guard isInCommand else { return }
    isInCommand = false
    commandWriter = nil
    owedSavepoints = OwedSavepoints()
    // An origin the command inserted is gone, and its id free again.
    statements.forgetOrigins()
    guard !isClosed else { return }
    try? queue.inDatabase { db in
      if !db.isInsideTransaction { return }
      try db.execute(sql: "ROLLBACK")
    }
  }

  /// Runs `body` as a savepoint of the command's transaction: when it throws, what it
  /// wrote is undone, and the rest of the command's transaction stays.
  public func step(_ body: () throws -> Void) throws {
    try checkOpen()
    // Kept prepared and run straight through SQLite (`HealthSQLiteStatements.execute`): a
    // command of ten years takes a step per delivery.
    try Self.mapped(path) {
      try queue.inDatabase { db in
        try settleSavepoints(db)
        try statements.execute(.stepOpen, db)
      }
    }
    let writerBefore = commandWriter
    do {
      try body()
      try Self.mapped(path) {
        try queue.inDatabase { db in
          try settleSavepoints(db)
          try statements.execute(.stepRelease, db)
        }
      }
    } catch {
      try? queue.inDatabase { db in
        try? settleSavepoints(db)
        try statements.execute(.stepRollBack, db)
        try statements.execute(.stepRelease, db)
      }
      commandWriter = writerBefore
      // The step's origins are gone with it (`HealthSQLiteStatements.origins`).
      statements.forgetOrigins()
      throw error
    }
  }

  /// Opens a savepoint of the command's transaction that stays open until
  /// `releaseSavepoint()` or `rollBackSavepoint()`: what a Health store writes between two
  /// of the command's commits, undone alone when the app refuses its part.
  ///
  /// Within a command's transaction its `SAVEPOINT` is owed, not run: the next call that
  /// writes runs it first (`settleSavepoints`), and a release or rollback with nothing
  /// written since drops it. Each statement then costs no call of its own into GRDB's queue
  /// (a delivery of ten simulated years took four, now two).
  public func openSavepoint() throws(StoreError) {
    try checkOpen()
    if isInCommand, !owedSavepoints.open {
      owedSavepoints.open = true
    } else {
      try Self.mapped(path) {
        try queue.inDatabase { db in
          try settleSavepoints(db)
          try statements.execute(.writesOpen, db)
        }
      }
    }
    commandWriter?.forgetRecent()
    savepointWriter = commandWriter
  }

  /// Keeps what was written since `openSavepoint()` in the command's transaction.
  ///
  /// Within a command's transaction, when nothing was written since the savepoint's owed
  /// `SAVEPOINT`, there is nothing to release; otherwise the `RELEASE` is owed to the next
  /// call that writes, or to `commitCommand` (the savepoint only matters to a rollback).
  public func releaseSavepoint() throws(StoreError) {
    try checkOpen()
    if isInCommand, owedSavepoints.open {
      owedSavepoints.open = false
    } else if isInCommand, !owedSavepoints.release {
      owedSavepoints.release = true
    } else {
      try Self.mapped(path) {
        try queue.inDatabase { db in
          try settleSavepoints(db)
          try statements.execute(.writesRelease, db)
        }
      }
    }
  }

  /// Undoes what was written since `openSavepoint()`; the rest of the command's
  /// transaction stays.
  public func rollBackSavepoint() {
    guard isInCommand, !isClosed else { return }
    if owedSavepoints.open {
      // Nothing was written since the savepoint, whose `SAVEPOINT` never ran.
      owedSavepoints.open = false
    } else {
      try? queue.inDatabase { db in
        try? settleSavepoints(db)
        try statements.execute(.writesRollBack, db)
        try statements.execute(.writesRelease, db)
      }
    }
    commandWriter = savepointWriter
    // The savepoint's origins are gone with it (`HealthSQLiteStatements.origins`).
    statements.forgetOrigins()
  }

  /// The savepoint statements owed to the connection (`openSavepoint()`,
  /// `releaseSavepoint()`), in the order they were asked for: a release, then an opening.
  struct OwedSavepoints {
    /// `RELEASE health_writes` is owed.
    var release = false
    /// `SAVEPOINT health_writes` is owed.
    var open = false
  }

  /// Runs the owed savepoint statements on `db`, first in every call that writes within the
  /// command's transaction, so that its writes fall in the savepoint as they did when each
  /// statement ran at once.
  func settleSavepoints(_ db: Database) throws {
    if owedSavepoints.release {
      owedSavepoints.release = false
      try statements.execute(.writesRelease, db)
    }
    if owedSavepoints.open {
      owedSavepoints.open = false
      try statements.execute(.writesOpen, db)
    }
  }

  /// The app journal's record the last command committed with, if it changed the app's
  /// store, and the app sequence the database matches (0 before the first command).
  public func pendingRecord() throws(StoreError) -> (record: PendingRecord?, appSequence: Int) {
    try checkOpen()
    return try Self.mapped(path) { () throws -> (record: PendingRecord?, appSequence: Int) in
      // Not `read`, which expires the cached statements (see `read(_:)`).
      try queue.inDatabase { db in
        let appSequence = Int(clamping: try Self.meta("app_sequence", db, statements) ?? 0)
        guard
          let row = try Row.fetchOne(db, sql: "SELECT seq, record, crc FROM pending_journal")
        else { return (nil, appSequence) }
        let seq: DatabaseValue = row[0]
        let record: DatabaseValue = row[1]
        let crc: DatabaseValue = row[2]
        guard case .int64(let sequence) = seq.storage, case .blob(let bytes) = record.storage,
          case .int64(let rowChecksum) = crc.storage
        else {
          throw HealthSQLiteDamage(position: nil, "the pending journal record is malformed")
        }
        let checksum = try Self.pendingChecksum(row: rowChecksum, db, statements)
        let pending = PendingRecord(sequence: Int(clamping: sequence), bytes: Array(bytes))
        guard checksum == Int64(truncatingIfNeeded: Self.pendingChecksum(pending)) else {
          throw HealthSQLiteDamage(
            position: nil, "the pending journal record does not match its checksum (damaged)")
        }
        return (pending, appSequence)
      }
    }
  }

  /// How many commands committed: another process's command raises it (the REPL, which
  /// releases the store between commands, reads Health again then).
  public func commandCount() throws(StoreError) -> Int64 {
    try checkOpen()
    return try Self.mapped(path) {
      try queue.inDatabase { db in try Self.meta("commands", db, statements) ?? 0 }
    }
  }

  /// Makes closing keep the log's file, emptied (`SQLITE_FCNTL_PERSIST_WAL` with a
  /// `journal_size_limit` of 0: the last connection's checkpoint then truncates it instead of
  /// removing it). Best effort: a failure only removes the mark.
  func keepLogFile() {
    try? queue.inDatabase { db in
      var persist: Int32 = 1
      _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
      try db.execute(sql: "PRAGMA journal_size_limit = 0")
    }
  }

  /// The CRC-32 of the sequence's eight bytes (least significant first), then the record:
  /// summed in two parts, not over a copy of the record joined to them.
  static func pendingChecksum(_ pending: PendingRecord) -> UInt32 {
    var sequence = UInt64(truncatingIfNeeded: pending.sequence).littleEndian
    var crc = ZipCRC32()
    withUnsafeBytes(of: &sequence) { crc.update($0) }
    pending.bytes.withUnsafeBytes { crc.update($0) }
    return crc.value
  }

}
