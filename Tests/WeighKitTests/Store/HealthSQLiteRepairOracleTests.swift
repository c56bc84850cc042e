import Foundation
import GRDB
import HealthSim
import Testing

@testable import WeighKit

/// The repair writes each record into the new file as it reads it, and asks the new file
/// whether a live UUID came before (`HealthSQLiteStorage.RepairWriting`). The repair of
/// before, which held every record in an array and the live UUIDs in a set, is kept here as
/// its oracle (`oracleRepair`): on random damage of a format-3 and of a format-1 file, both
/// write the same tables and say the same. (The oracle reads past a page SQLite cannot read
/// as the repair does, `HealthSQLiteReadableRows`: a damaged leaf's records are left out,
/// the others kept; and since hrep25, as the repair, it keeps a record whose origin is on
/// such a page with its origin unknown, where both lost it, and no longer refuses a file
/// whose origin table does not read at all.)
@Suite struct HealthSQLiteRepairOracleTests {
  typealias Check = HealthSQLiteCheckFormat2Tests

  /// A damage of the file at `path`, drawn from `random`.
  static func damage(
    _ path: String, formatThree: Bool, _ random: inout SeededGenerator
  ) throws -> String {
    let (live, deletions) = try Check.positionsByKind(path)
    let all = (live + deletions).sorted()
    let shapes = formatThree ? Array(0..<7) : [0, 1, 2, 6]
    switch shapes.randomElement(using: &random)! {
    case 0:
      let position = all.randomElement(using: &random)!
      try Check.change(path, "UPDATE record SET value = value + 1 WHERE pos = ?", [position])
      return "checksum at \(position)"
    case 1:
      // Bytes of a page past the schema's: a b-tree SQLite cannot read part way, an index,
      // or nothing that is read.
      let size = Int(try #require(StoreFileSystem.size(path)))
      let offset = Int.random(in: 8192..<size - 64, using: &random)
      let descriptor = open(path, O_WRONLY)
      try #require(descriptor >= 0)
      defer { close(descriptor) }
      var bytes = (0..<48).map { _ in UInt8.random(in: 0...255, using: &random) }
      #expect(pwrite(descriptor, &bytes, bytes.count, off_t(offset)) == bytes.count)
      return "page bytes at \(offset)"
    case 2:
      let damage = HealthSQLitePendingCopyTests.damages.filter {
        HealthSQLitePendingCopyTests.damages($0, inPieces: false)
      }.randomElement(using: &random)!
      try Check.change(path, damage)
      return damage
    case 3:
      let from = live.randomElement(using: &random)!
      let to = live.randomElement(using: &random)!
      guard from != to else { return "none" }
      try Check.giveUUID(of: from, to: to, path)
      return "uuid of \(from) to \(to)"
    case 4:
      let from = live.randomElement(using: &random)!
      let to = deletions.randomElement(using: &random)!
      try Check.giveUUID(of: from, to: to, path)
      return "uuid of \(from) to deletion \(to)"
    case 6:
      // A leaf of the record table that SQLite cannot read: the reading passes it.
      let leaf = try secondLeaf(path)
      let descriptor = open(path, O_WRONLY)
      try #require(descriptor >= 0)
      defer { close(descriptor) }
      var bytes: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF]
      #expect(pwrite(descriptor, &bytes, bytes.count, off_t(leaf.offset)) == bytes.count)
      return "leaf page \(leaf.page)"
    default:
      // A position that goes back: the record moved before the first, its checksum made
      // again.
      let position = all.randomElement(using: &random)!
      let moved = -Int64.random(in: 0..<5, using: &random)
      let queue = try DatabaseQueue(path: path)
      try queue.write { db in
        var (parts, originID) = try Check.parts(position, db)
        guard
          try Int64.fetchOne(
            db, sql: "SELECT count(*) FROM record WHERE pos = ?", arguments: [moved]) == 0
        else { return }
        parts.position = moved
        try db.execute(
          sql: "UPDATE record SET pos = ?, crc = ? WHERE pos = ?",
          arguments: [moved, Int64(parts.checksum(originID: originID)), position])
      }
      try queue.close()
      return "position \(position) to \(moved)"
    }
  }

  /// The second leaf page of the record table (its root an interior page: the fixture's 400
  /// rows take several leaves), and its offset in the file.
  static func secondLeaf(_ path: String) throws -> (page: Int, offset: Int) {
    let queue = try DatabaseQueue(path: path)
    let (root, size) = try queue.read { db in
      (
        try #require(
          try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_schema WHERE name = 'record'")),
        try #require(try Int.fetchOne(db, sql: "PRAGMA page_size"))
      )
    }
    try queue.close()
    let file = try #require(FileManager.default.contents(atPath: path))
    let page = Array(file[(root - 1) * size..<root * size])
    // An interior table page (type 5): the cell pointers after its 12-byte header, each
    // cell's first four bytes its child's page number (big-endian).
    try #require(page[0] == 5)
    let cell = Int(page[14]) << 8 | Int(page[15])
    let child = page[cell..<cell + 4].reduce(0) { $0 << 8 | Int($1) }
    return (child, (child - 1) * size)
  }

  @Test(arguments: 0..<24)
  func theRepairWritesWhatTheRepairOfBeforeWrote(seed: UInt64) throws {
    let base = TemporaryStoreDirectory()
    defer { base.remove() }
    let formatThree = seed % 3 != 0
    if formatThree {
      try Check.formatTwo(in: base)
    } else {
      try FormatOneFixture.make(in: base)
    }
    let path = base.file(HealthSQLiteStorage.fileName)
    var random = SeededGenerator(seed: seed)
    var damages: [String] = []
    for _ in 0..<Int.random(in: 1...3, using: &random) {
      damages.append(try Self.damage(path, formatThree: formatThree, &random))
      // The file's rows no longer read in full: no damage is chosen after it.
      if damages.last!.hasPrefix("leaf") { break }
    }
    let (old, new) = (TemporaryStoreDirectory(), TemporaryStoreDirectory())
    defer {
      old.remove()
      new.remove()
    }
    base.copy(to: old)
    base.copy(to: new)
    let oldPath = old.file(HealthSQLiteStorage.fileName)
    let newPath = new.file(HealthSQLiteStorage.fileName)
    let expected = Result { try Self.oracleRepair(path: oldPath, directory: old.path) }
    let found = Result { try HealthSQLiteStorage.repair(path: newPath, directory: new.path) }
    switch (expected, found) {
    case (.success(let expected), .success(let found)):
      #expect(found?.problems == expected?.problems, "\(damages)")
      #expect(found?.kept == expected?.kept, "\(damages)")
      #expect(found?.lost == expected?.lost, "\(damages)")
      #expect(found?.unreadable == expected?.unreadable, "\(damages)")
      #expect(found?.unreadableOrigins == expected?.unreadableOrigins, "\(damages)")
      #expect(found?.unknownOrigins == expected?.unknownOrigins, "\(damages)")
      if damages.contains(where: { $0.hasPrefix("leaf") }) {
        #expect(found?.unreadable.isEmpty == false, "\(damages)")
      }
      #expect((found == nil) == (expected == nil), "\(damages)")
      #expect(found.map { $0.copies.hasPrefix(Store.damagedFolder + "/health-repair-") } != false)
    case (.failure(let expected), .failure(let found)):
      // (A leaf SQLite cannot read failed both, at the end of the reading: "the database is
      // damaged (sqlite: database disk image is malformed)"; both now pass it.)
      #expect(
        "\(found)".replacing(new.path, with: "")
          == "\(expected)".replacing(old.path, with: ""), "\(damages)")
      #expect(new.bytes(HealthSQLiteStorage.fileName) == base.bytes(HealthSQLiteStorage.fileName))
      #expect(old.bytes(HealthSQLiteStorage.fileName) == base.bytes(HealthSQLiteStorage.fileName))
      return
    default:
      Issue.record("\(damages): before \(expected), now \(found)")
    }
    #expect(try Self.digest(newPath) == Self.digest(oldPath), "\(damages)")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: new.path)
      .filter { $0.hasPrefix(HealthSQLiteStorage.fileName + ".tmp") }
    #expect(leftovers.isEmpty, "\(leftovers)")
  }

  /// Every table's rows (each value quoted by SQLite: blobs in hex), the schema, and
  /// `PRAGMA integrity_check`.
  static func digest(_ path: String) throws -> [String] {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in
      var lines = try String.fetchAll(
        db,
        sql: "SELECT type || ' ' || name || ' ' || ifnull(sql, '') FROM sqlite_schema ORDER BY name"
      )
      let tables = try String.fetchAll(
        db, sql: "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      for table in tables {
        let columns = try String.fetchAll(
          db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table])
        let quoted = columns.map { "quote(\($0))" }.joined(separator: " || '|' || ")
        lines.append(table)
        lines += try String.fetchAll(db, sql: "SELECT \(quoted) FROM \(table) ORDER BY rowid")
      }
      lines += try String.fetchAll(db, sql: "PRAGMA integrity_check")
      return lines
    }
  }

  /// The repair of before (main at 0fe84bf): every sound record read into an array, the live
  /// samples' UUIDs into a set, then the new file built from the array
  /// (`HealthSQLiteStorage.build`). The oracle of the repair that holds neither.
  static func oracleRepair(path: String, directory: String) throws(StoreError)
    -> HealthSQLiteStorage.RepairReport?
  {
    typealias Storage = HealthSQLiteStorage
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    let lock = try StoreLock(directory: directory, timeout: .seconds(5))
    defer { lock.release() }
    let findings = Storage.check(path: path)
    guard findings.contains(where: { $0.severity == .error }) else { return nil }
    var report = Storage.RepairReport()
    report.problems = findings.map(\.message)
    let damaged = StoreLocation.joinPath(directory, Store.damagedFolder)
    try StoreFileSystem.makeDirectory(damaged)
    let name = Store.uniqueName(in: damaged, stem: "health-repair", suffix: "")
    let folder = StoreLocation.joinPath(damaged, name)
    try StoreFileSystem.makeDirectory(folder)
    for suffix in ["", "-wal"] {
      guard let size = StoreFileSystem.size(path + suffix) else { continue }
      try StoreFileSystem.create(
        StoreLocation.joinPath(folder, Storage.fileName + suffix), copying: 0..<size,
        of: path + suffix
      ) { _ in }
    }
    try StoreFileSystem.syncDirectory(damaged)
    report.copies = Store.damagedFolder + "/" + name
    var records: [HealthRecord] = []
    var state: HealthSmallState?
    var copiesPending = false
    var appSequence = 0
    var spans: [HealthSQLiteUnreadableSpan] = []
    var originSpans: [HealthSQLiteUnreadableSpan] = []
    var unknownOrigins: [Int64: Storage.UnknownOrigin] = [:]
    var lastPosition: Int64?
    try Storage.mapped(path) {
      var configuration = Configuration()
      configuration.readonly = true
      _ = HealthSQLiteLibrary.configured
      let queue = try DatabaseQueue(path: path, configuration: configuration)
      defer { try? queue.close() }
      try queue.inDatabase { db in
        state = try? Storage.readState(db)
        var live = Set<UUID>()
        var last: Int64 = 0
        let version = (try? Int64.fetchOne(db, sql: "PRAGMA user_version")) ?? 1
        guard version <= Storage.formatVersion else {
          throw Storage.NewerHealthFormat(found: version)
        }
        let origins =
          version >= HealthSQLiteFormat2.version
          ? (try? Storage.checkedOrigins(db, unreadable: { originSpans.append($0) }) { _ in })
            ?? [:] : [:]
        lastPosition = try? Storage.meta("last_position", db)
        try Storage.eachRecord(
          db, version: version, origins: origins, unreadable: { spans.append($0) },
          unreadableOrigins: originSpans
        ) { read in
          guard case .success(let checked) = read else {
            report.lost += 1
            return
          }
          // Tallied as read, repeats too (the repair's writer says only how many it left out).
          if let origin = checked.unknownOrigin {
            Storage.UnknownOrigin.add(checked.position, origin: origin, to: &unknownOrigins)
          }
          guard checked.position > last, checked.isDeletion || live.insert(checked.uuid).inserted
          else {
            report.lost += 1
            return
          }
          last = checked.position
          records.append(checked.record)
        }
        appSequence = Int(clamping: (try? Storage.meta("app_sequence", db)) ?? 0)
        copiesPending = Storage.pendingRecordReads(db)
      }
    }
    guard let state else {
      throw StoreError(
        .corrupt, file: path,
        message:
          "Health's state cannot be read, so health.sqlite cannot be rebuilt; the copy is in "
          + "\(report.copies); restore health.sqlite from a backup")
    }
    let nothing = HealthSQLiteUnreadableSpan(after: nil, before: nil)
    if spans.contains(nothing) {
      let table = "record"
      throw StoreError(
        .corrupt, file: path,
        message:
          "no Health record of health.sqlite can be read (the \(table) table's pages are "
          + "damaged), so it cannot be rebuilt; the copy is in \(report.copies); restore "
          + "health.sqlite from a backup")
    }
    report.kept = records.count
    report.unknownOrigins = unknownOrigins.values.sorted { $0.id < $1.id }
    report.unreadableOrigins = originSpans.compactMap {
      Storage.UnreadablePositions($0, end: nil)
    }
    report.unreadable = spans.compactMap {
      Storage.UnreadablePositions($0, end: lastPosition)
    }
    try Storage.build(
      at: path, records: records, state: state, pending: nil,
      copyingPendingFrom: copiesPending ? path : nil, appSequence: appSequence,
      directory: directory)
    return report
  }
}
