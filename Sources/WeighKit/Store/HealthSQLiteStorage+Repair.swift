import Foundation
import GRDB
import HealthSim

/// `weigh check --repair` for `health.sqlite`: a database that `check(path:)` finds damaged
/// is rebuilt from what is intact, the old file kept as it was.
extension HealthSQLiteStorage {
  /// What a repair of `health.sqlite` did.
  public struct RepairReport: Sendable {
    /// What was wrong, as `check(path:)` said.
    public var problems: [String] = []
    /// How many records were kept, and how many were lost (their checksums did not match).
    public var kept = 0
    public var lost = 0
    /// Where the old file was copied, relative to the store.
    public var copies = ""
    /// The records left out because they are on pages SQLite cannot read, a span of
    /// positions each.
    public var unreadable: [UnreadablePositions] = []
    /// The origins (formats 2 and 3) on pages SQLite cannot read, a span of ids each: the
    /// records that name them are kept with their origin unknown (`unknownOrigins`).
    public var unreadableOrigins: [UnreadablePositions] = []
    /// The records kept whose origin is on a page SQLite cannot read, by that origin's id:
    /// each now has `HealthSQLiteOrigin.unknown`, no source and no device. (Those the new
    /// file leaves out as repeats of a position or a live UUID are among `lost` too.)
    public var unknownOrigins: [UnknownOrigin] = []
  }

  /// The records of one origin on a page SQLite cannot read that a repair kept without it.
  public struct UnknownOrigin: Equatable, Sendable {
    /// The origin's id, which the records name.
    public var id: Int64
    /// How many records name it, and the positions of the first and the last of them.
    public var count: Int
    public var first: Int64
    public var last: Int64

    public init(id: Int64, count: Int, first: Int64, last: Int64) {
      self.id = id
      self.count = count
      self.first = first
      self.last = last
    }

    /// `tally` with the record at `position`, whose origin is `id`, added.
    static func add(_ position: Int64, origin id: Int64, to tally: inout [Int64: UnknownOrigin]) {
      if var known = tally[id] {
        known.count += 1
        known.first = min(known.first, position)
        known.last = max(known.last, position)
        tally[id] = known
      } else {
        tally[id] = UnknownOrigin(id: id, count: 1, first: position, last: position)
      }
    }
  }

  /// Positions (or origin ids) on pages SQLite cannot read: from `first` to `last`, at most
  /// (nil: to the end of the table, whose last position is not known).
  public struct UnreadablePositions: Equatable, Sendable {
    public var first: Int64
    public var last: Int64?

    public init(first: Int64, last: Int64?) {
      self.first = first
      self.last = last
    }

    /// The span between the keys read around it (`span`); nil when no key fits between them.
    /// `end` is the last key the table can hold, when known.
    init?(_ span: HealthSQLiteUnreadableSpan, end: Int64?) {
      guard span.after != Int64.max, span.before != Int64.min else { return nil }
      first = (span.after ?? 0) + 1
      last = span.before.map { $0 - 1 } ?? end
      if let last, last < first { return nil }
    }

    /// How many keys the span holds, when it has an end: the records lost, at most (each
    /// record has a position of its own; those a repair left out before are not there).
    public var count: Int64? {
      guard let last else { return nil }
      let (gap, overflow) = last.subtractingReportingOverflow(first)
      return overflow || gap == Int64.max ? Int64.max : gap + 1
    }
  }

  /// Rebuilds the database at `path`, in the store `directory`, when `check(path:)` finds
  /// it damaged: copies it (and its log) into `damaged/health-repair-<UTC time>/`, then
  /// writes a new database, by a temporary file and a rename, with every record whose
  /// checksums match and whose position is new (the first of two live samples with one
  /// UUID), the small state, and the pending journal record. Nil when there is nothing to
  /// repair. A page SQLite cannot read is passed, the positions on it reported
  /// (`HealthSQLiteReadableRows`, `RepairReport.unreadable`).
  ///
  /// - Throws: `StoreError` when the state cannot be read (a Health without its state
  ///   cannot be rebuilt: restore the file from a backup), when no record of the record
  ///   table (its root page damaged) or no origin can be read, or a file cannot be written.
  public static func repair(path: String, directory: String) throws(StoreError) -> RepairReport? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    let lock = try StoreLock(directory: directory, timeout: .seconds(5))
    defer { lock.release() }
    let findings = check(path: path)
    guard findings.contains(where: { $0.severity == .error }) else { return nil }
    var report = RepairReport()
    report.problems = findings.map(\.message)

    // The old file as it is, first.
    let damaged = StoreLocation.joinPath(directory, Store.damagedFolder)
    try StoreFileSystem.makeDirectory(damaged)
    let name = Store.uniqueName(in: damaged, stem: "health-repair", suffix: "")
    let folder = StoreLocation.joinPath(damaged, name)
    try StoreFileSystem.makeDirectory(folder)
    // Copied a piece at a time: read whole, the file (512 MiB of it a pending record) was
    // held while the record was read (docs/performance.md, "rep22").
    for suffix in ["", "-wal"] {
      guard let size = StoreFileSystem.size(path + suffix) else { continue }
      try StoreFileSystem.create(
        StoreLocation.joinPath(folder, fileName + suffix), copying: 0..<size, of: path + suffix
      ) { _ in }
    }
    try StoreFileSystem.syncDirectory(damaged)
    report.copies = Store.damagedFolder + "/" + name

    // What reads, written into the new file as it is read (`RepairWriting`).
    let temporary = path + ".tmp"
    var writing: RepairWriting?
    defer { writing?.abandon() }
    var copiesPending = false
    var appSequence = 0
    var spans: [HealthSQLiteUnreadableSpan] = []
    var originSpans: [HealthSQLiteUnreadableSpan] = []
    var unknownOrigins: [Int64: UnknownOrigin] = [:]
    var lastPosition: Int64?
    try mapped(path) {
      var configuration = Configuration()
      configuration.readonly = true
      _ = HealthSQLiteLibrary.configured
      let queue = try DatabaseQueue(path: path, configuration: configuration)
      defer { try? queue.close() }
      // Each statement on its own, not in one read transaction: its COMMIT threw again the
      // error of a page SQLite cannot read, which the reading passes, and the repair failed.
      try queue.inDatabase { db in
        let state = try? readState(db)
        // Each record as its format's queries read it (the header's version: the format
        // row may be the damage).
        let version = (try? Int64.fetchOne(db, sql: "PRAGMA user_version")) ?? 1
        guard version <= formatVersion else {
          throw NewerHealthFormat(found: version)
        }
        guard let state else { return }
        let origins =
          version >= HealthSQLiteFormat2.version
          ? (try? checkedOrigins(db, unreadable: { originSpans.append($0) }) { _ in }) ?? [:]
          : [:]
        lastPosition = try? meta("last_position", db)
        let new = try RepairWriting(temporary: temporary, state: state)
        writing = new
        // A page SQLite cannot read is passed: what comes after it is kept too, and the
        // positions between the records read around it are reported. A record whose
        // origin is on such a page is kept with its origin unknown, and reported.
        try eachRecord(
          db, version: version, origins: origins, unreadable: { spans.append($0) },
          unreadableOrigins: originSpans
        ) { read in
          guard case .success(let checked) = read else {
            report.lost += 1
            return
          }
          if let origin = checked.unknownOrigin {
            UnknownOrigin.add(checked.position, origin: origin, to: &unknownOrigins)
          }
          try new.add(checked.record)
        }
        try new.finishRecords()
        appSequence = Int(clamping: (try? meta("app_sequence", db)) ?? 0)
        // Read to its end here, a piece at a time, so that a record SQLite cannot read is
        // left out as before; the new file's copy reads it again (`copyPendingRecord`), never
        // whole: a 512 MiB record took 1,051 MiB to repair, 32 MiB so (with the copy of
        // the old file below; docs/performance.md, "rep22").
        copiesPending = pendingRecordReads(db)
      }
    }
    guard let new = writing else {
      throw StoreError(
        .corrupt, file: path,
        message:
          "Health's state cannot be read, so health.sqlite cannot be rebuilt; the copy is in "
          + "\(report.copies); restore health.sqlite from a backup")
    }
    // Nothing of the record table reads (its root page, or every leaf): a new file would
    // hold no record, which is no repair. (Nothing of the origin table: every record is
    // kept with its origin unknown, and said so.)
    let nothing = HealthSQLiteUnreadableSpan(after: nil, before: nil)
    if spans.contains(nothing) {
      new.abandon()
      writing = nil
      removingLeftovers(of: temporary)
      throw StoreError(
        .corrupt, file: path,
        message:
          "no Health record of health.sqlite can be read (the record table's pages are "
          + "damaged), so it cannot be rebuilt; the copy is in \(report.copies); restore "
          + "health.sqlite from a backup")
    }
    report.kept = new.kept
    report.lost += new.skipped
    report.unreadable = spans.compactMap { UnreadablePositions($0, end: lastPosition) }
    report.unreadableOrigins = originSpans.compactMap { UnreadablePositions($0, end: nil) }
    report.unknownOrigins = unknownOrigins.values.sorted { $0.id < $1.id }

    // The new file.
    try new.commit(
      copyingPendingFrom: copiesPending ? path : nil, appSequence: appSequence)
    writing = nil
    try moveIntoPlace(temporary, to: path, directory: directory)
    return report
  }

  /// The new file of a repair, written while the old one is read: each sound record goes
  /// into `path.tmp`'s one transaction as it is read, a batch at a time, and the table
  /// being built answers whether a position or a live UUID came before
  /// (`appendSkippingRepeats`). Held in an array with a set of the live UUIDs, the records
  /// took the memory: the repair of 1,001,000 samples peaked at 357 MiB, 57 MiB so; of
  /// 10,001,015, 3,745 MiB, 58 MiB so, in 0.96× the CPU (docs/performance.md, "hrep23").
  ///
  /// The migration of Health's tables writes through it too (`skipsRepeats` false): its
  /// records are the app store's rows, read a piece at a time, and a repeat there fails the
  /// migration, as `append` of them all did (docs/store.md, "The migration streamed").
  final class RepairWriting {
    /// The records a batch holds before it is written.
    static let batchSize = 4096
    private let storage: HealthSQLiteStorage
    private let state: HealthSmallState
    private let skipsRepeats: Bool
    private var batch: [HealthRecord] = []
    /// The records written, and those left out as repeats.
    private(set) var kept = 0
    private(set) var skipped = 0

    /// Opens a new database at `temporary` (a leftover of a repair cut short removed first)
    /// and begins its one transaction. Without `skipsRepeats`, a record that repeats a
    /// position or a live UUID throws (`append(_:changesFrom:)`) instead of being left out.
    init(temporary: String, state: HealthSmallState, skipsRepeats: Bool = true) throws(StoreError) {
      removingLeftovers(of: temporary)
      storage = try HealthSQLiteStorage(path: temporary)
      self.state = state
      self.skipsRepeats = skipsRepeats
      do throws(StoreError) {
        try storage.beginCommand()
      } catch {
        try? storage.close()
        throw error
      }
      batch.reserveCapacity(Self.batchSize)
    }

    /// Adds `record`, written with its batch.
    func add(_ record: HealthRecord) throws(StoreError) {
      batch.append(record)
      if batch.count >= Self.batchSize { try finishRecords() }
    }

    /// Writes the records added and not written yet.
    func finishRecords() throws(StoreError) {
      guard !batch.isEmpty else { return }
      guard skipsRepeats else {
        try mapped(storage.path) { try storage.append(batch, changesFrom: kept) }
        kept += batch.count
        batch.removeAll(keepingCapacity: true)
        return
      }
      let left = try mapped(storage.path) { try storage.appendSkippingRepeats(batch) }
      skipped += left
      kept += batch.count - left
      batch.removeAll(keepingCapacity: true)
    }

    /// Writes the state, commits the transaction with the pending record (of the database
    /// at `source`, or none) and closes the file.
    func commit(copyingPendingFrom source: String?, appSequence: Int) throws(StoreError) {
      try finishRecords()
      try mapped(storage.path) { try storage.apply([.stateChanged(state)]) }
      if let source {
        try storage.commitCommand(
          copyingPendingFrom: source, damaged: .keptDamaged, appSequence: appSequence)
      } else {
        try storage.commitCommand(pending: nil, appSequence: appSequence)
      }
      try storage.close()
    }

    /// Writes the state and commits the transaction with a pending record of `sequence` and
    /// `byteCount` bytes that `fill` writes a piece at a time
    /// (`commitCommand(pendingSequence:byteCount:fill:appSequence:)`), then closes the file.
    func commit(
      pendingSequence sequence: Int, byteCount: Int,
      fill: ((UnsafeRawBufferPointer) -> Void) throws -> Void, appSequence: Int
    ) throws(StoreError) {
      try finishRecords()
      try mapped(storage.path) { try storage.apply([.stateChanged(state)]) }
      try storage.commitCommand(
        pendingSequence: sequence, byteCount: byteCount, fill: fill, appSequence: appSequence)
      try storage.close()
    }

    /// Rolls the transaction back and closes the file (a repair that failed: the temporary
    /// file is nobody's, and the next repair removes it).
    func abandon() {
      storage.rollbackCommand()
      try? storage.close()
    }
  }
}
