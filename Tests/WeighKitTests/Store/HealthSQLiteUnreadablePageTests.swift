import Foundation
import GRDB
import HealthSim
import Testing

@testable import WeighKit

/// `weigh check --repair` of a `health.sqlite` with pages SQLite cannot read
/// (`HealthSQLiteReadableRows`): the records after a damaged leaf are kept, the positions on
/// it reported; a damaged interior page costs the leaves under it; a damaged root is refused.
/// The fixture's 400 records are rebuilt with 512-byte pages, so that the record table has
/// three levels: a root, interior pages, and leaves of a few records each.
@Suite struct HealthSQLiteUnreadablePageTests {
  typealias Check = HealthSQLiteCheckFormat2Tests
  typealias Positions = HealthSQLiteStorage.UnreadablePositions

  /// A leaf of a table's b-tree: its page and the first and last keys on it.
  struct Leaf {
    var page: Int
    var first: Int64
    var last: Int64
  }

  /// The pages of a table's b-tree: its root, the interior pages under it (each with its
  /// leaves), and its leaves in key order.
  struct TablePages {
    var root: Int
    var interior: [(page: Int, leaves: [Leaf])] = []
    var leaves: [Leaf] = []
  }

  /// A format-3 file of the fixture in `directory`, with 512-byte pages; its contents.
  @discardableResult
  static func smallPages(in directory: TemporaryStoreDirectory) throws
    -> FormatOneFixture.Contents
  {
    let contents = try Check.formatTwo(in: directory)
    let queue = try DatabaseQueue(path: directory.file(HealthSQLiteStorage.fileName))
    try queue.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA journal_mode = DELETE")
      try db.execute(sql: "PRAGMA page_size = 512")
      try db.execute(sql: "VACUUM")
      try db.execute(sql: "PRAGMA journal_mode = WAL")
    }
    try queue.close()
    return contents
  }

  /// The pages of `table` in the file at `path` (closed: its log holds no page).
  static func pages(_ path: String, table: String = "record") throws -> TablePages {
    let queue = try DatabaseQueue(path: path)
    let (root, size) = try queue.read { db in
      (
        try #require(
          try Int.fetchOne(
            db, sql: "SELECT rootpage FROM sqlite_schema WHERE name = ?", arguments: [table])),
        try #require(try Int.fetchOne(db, sql: "PRAGMA page_size"))
      )
    }
    try queue.close()
    let file = Array(try #require(FileManager.default.contents(atPath: path)))
    func page(_ number: Int) -> ArraySlice<UInt8> {
      file[(number - 1) * size..<number * size]
    }
    func integer(_ bytes: ArraySlice<UInt8>, _ at: Int, _ width: Int) -> Int {
      bytes[bytes.startIndex + at..<bytes.startIndex + at + width].reduce(0) { $0 << 8 | Int($1) }
    }
    // SQLite's varint: seven bits a byte, most significant first, the ninth byte whole.
    func varint(_ bytes: ArraySlice<UInt8>, _ at: inout Int) -> Int64 {
      var value: Int64 = 0
      for index in 0..<9 {
        let byte = bytes[bytes.startIndex + at]
        at += 1
        if index == 8 { return value << 8 | Int64(truncatingIfNeeded: byte) }
        value = value << 7 | Int64(truncatingIfNeeded: byte & 0x7F)
        if byte < 0x80 { break }
      }
      return value
    }
    var pages = TablePages(root: root)
    func walk(_ number: Int, depth: Int) throws {
      let bytes = page(number)
      let cells = integer(bytes, 3, 2)
      if bytes.first == 13 {
        var keys: [Int64] = []
        for cell in 0..<cells {
          var at = integer(bytes, 8 + 2 * cell, 2)
          _ = varint(bytes, &at)
          keys.append(varint(bytes, &at))
        }
        pages.leaves.append(Leaf(page: number, first: keys.min()!, last: keys.max()!))
        if depth == 2 { pages.interior[pages.interior.count - 1].leaves.append(pages.leaves.last!) }
        return
      }
      try #require(bytes.first == 5, "page \(number)")
      if depth == 1 { pages.interior.append((number, [])) }
      var children = (0..<cells).map { integer(bytes, integer(bytes, 12 + 2 * $0, 2), 4) }
      children.append(integer(bytes, 8, 4))
      for child in children { try walk(child, depth: depth + 1) }
    }
    try walk(root, depth: 0)
    return pages
  }

  /// Writes four bytes 0xFF over the header of page `number` (its first freeblock and its
  /// cell count): SQLite reads the page as "database disk image is malformed".
  static func damage(page number: Int, of path: String) throws {
    let size = try #require(
      try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "PRAGMA page_size") })
    let descriptor = open(path, O_WRONLY)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    var bytes: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF]
    #expect(pwrite(descriptor, &bytes, 4, off_t((number - 1) * size + 1)) == 4)
  }

  /// Damages the leaves `damaged` (indexes into the table's leaves) of a small-page copy of
  /// the fixture, repairs it, and checks that every record of another leaf is kept, the
  /// positions of the damaged ones reported, and the file sound afterwards.
  func repairKeepsTheOtherLeaves(_ damaged: (TablePages) -> [Int]) throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let before = try Self.smallPages(in: directory)
    let path = directory.file(HealthSQLiteStorage.fileName)
    let pages = try Self.pages(path)
    try #require(pages.interior.count >= 2 && pages.leaves.count >= 20)
    let leaves = damaged(pages).map { pages.leaves[$0] }
    for leaf in leaves { try Self.damage(page: leaf.page, of: path) }
    let broken = directory.bytes(HealthSQLiteStorage.fileName)
    #expect(HealthSQLiteStorage.check(path: path).contains { $0.severity == .error })

    let report = try #require(
      try HealthSQLiteStorage.repair(path: path, directory: directory.path))
    let lost = leaves.map { $0.first...$0.last }
    let kept = before.records.filter { record in
      !lost.contains { $0.contains(HealthSQLiteRowParts(record).position) }
    }
    #expect(report.kept == kept.count)
    #expect(report.lost == 0)
    // Adjacent leaves make one span.
    var spans: [Positions] = []
    for leaf in leaves {
      if let last = spans.last?.last, last + 1 == leaf.first {
        spans[spans.count - 1].last = leaf.last
      } else {
        spans.append(Positions(first: leaf.first, last: leaf.last))
      }
    }
    #expect(report.unreadable == spans)
    #expect(report.unreadableOrigins.isEmpty)
    #expect(HealthSQLiteStorage.check(path: path).isEmpty)
    let after = try FormatOneFixture.contents(of: path)
    #expect(after.records == kept)
    #expect(after.state == before.state)
    #expect(after.pending == before.pending)
    // The old file is kept as it was.
    #expect(
      directory.bytes(report.copies + "/" + HealthSQLiteStorage.fileName) == broken)
  }

  @Test func theFirstLeaf() throws {
    try repairKeepsTheOtherLeaves { _ in [0] }
  }

  @Test func aMiddleLeaf() throws {
    try repairKeepsTheOtherLeaves { [$0.leaves.count / 2] }
  }

  @Test func theLastLeaf() throws {
    try repairKeepsTheOtherLeaves { [$0.leaves.count - 1] }
  }

  @Test func twoLeavesApart() throws {
    try repairKeepsTheOtherLeaves { [3, $0.leaves.count / 2] }
  }

  @Test func twoLeavesSideBySide() throws {
    try repairKeepsTheOtherLeaves { _ in [5, 6] }
  }

  @Test func twoLeavesWithOneBetween() throws {
    try repairKeepsTheOtherLeaves { _ in [5, 7] }
  }

  /// A damaged interior page hides every leaf under it: their records are lost, reported
  /// as one span; those of the other interior pages are kept.
  @Test func anInteriorPage() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let before = try Self.smallPages(in: directory)
    let path = directory.file(HealthSQLiteStorage.fileName)
    let pages = try Self.pages(path)
    try #require(pages.interior.count >= 3)
    let interior = pages.interior[1]
    try Self.damage(page: interior.page, of: path)
    let report = try #require(
      try HealthSQLiteStorage.repair(path: path, directory: directory.path))
    let lost = interior.leaves.first!.first...interior.leaves.last!.last
    let kept = before.records.filter { !lost.contains(HealthSQLiteRowParts($0).position) }
    #expect(report.kept == kept.count)
    #expect(report.unreadable == [Positions(first: lost.lowerBound, last: lost.upperBound)])
    #expect(HealthSQLiteStorage.check(path: path).isEmpty)
    #expect(try FormatOneFixture.contents(of: path).records == kept)
  }

  /// A damaged root: no record reads, and the repair refuses, the file as it was.
  @Test func theRootIsRefused() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    try Self.smallPages(in: directory)
    let path = directory.file(HealthSQLiteStorage.fileName)
    try Self.damage(page: try Self.pages(path).root, of: path)
    let broken = directory.bytes(HealthSQLiteStorage.fileName)
    #expect {
      try HealthSQLiteStorage.repair(path: path, directory: directory.path)
    } throws: { error in
      guard let error = error as? StoreError else { return false }
      return error.kind == .corrupt
        && error.message.hasPrefix("no Health record of health.sqlite can be read")
        && error.message.contains("the copy is in damaged/health-repair-")
    }
    #expect(directory.bytes(HealthSQLiteStorage.fileName) == broken)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasPrefix(HealthSQLiteStorage.fileName + ".tmp") }
    #expect(leftovers.isEmpty, "\(leftovers)")
  }

  /// `records` as a repair keeps them when the origins with ids in `unknown` are on a page
  /// SQLite cannot read: those that name one with `HealthSQLiteOrigin.unknown`, and the tally
  /// the repair reports of them, by origin.
  static func keptWithoutOrigins(
    _ records: [HealthRecord], naming: [Int64: Int64], unknown: ClosedRange<Int64>
  ) throws -> (records: [HealthRecord], tally: [HealthSQLiteStorage.UnknownOrigin]) {
    var tally: [Int64: HealthSQLiteStorage.UnknownOrigin] = [:]
    let kept = try records.map { record -> HealthRecord in
      var parts = HealthSQLiteRowParts(record)
      guard let origin = naming[parts.position], unknown.contains(origin) else { return record }
      HealthSQLiteStorage.UnknownOrigin.add(parts.position, origin: origin, to: &tally)
      parts.origin = .unknown
      return try parts.record()
    }
    return (kept, tally.values.sorted { $0.id < $1.id })
  }

  /// The origin each record names, by position.
  static func origins(_ path: String) throws -> [Int64: Int64] {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in
      var naming: [Int64: Int64] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT pos, origin FROM record") {
        naming[row[0]] = row[1]
      }
      return naming
    }
  }

  /// A damaged page of the origin table: its origins are reported, and the records that name
  /// them kept with their origin unknown (their own columns match their checksums), each
  /// origin's count and first and last positions reported; the others kept as they were. Its
  /// only page (its root) damaged: every record is kept so.
  @Test func anOriginPage() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let before = try Self.smallPages(in: directory)
    let path = directory.file(HealthSQLiteStorage.fileName)
    let origins = try Self.pages(path, table: "origin")
    try #require(origins.leaves.count >= 3, "\(origins.leaves.count) leaves")
    let leaf = origins.leaves[1]
    let naming = try Self.origins(path)
    try #require(naming.values.contains { (leaf.first...leaf.last).contains($0) })
    for (damaged, unknown) in [(leaf.page, leaf.first...leaf.last), (origins.root, 1...Int64.max)] {
      let copy = TemporaryStoreDirectory()
      defer { copy.remove() }
      directory.copy(to: copy)
      let path = copy.file(HealthSQLiteStorage.fileName)
      try Self.damage(page: damaged, of: path)
      let report = try #require(try HealthSQLiteStorage.repair(path: path, directory: copy.path))
      let expected = try Self.keptWithoutOrigins(before.records, naming: naming, unknown: unknown)
      try #require(!expected.tally.isEmpty)
      #expect(
        report.unreadableOrigins
          == [Positions(first: unknown.lowerBound, last: damaged == leaf.page ? leaf.last : nil)])
      #expect(report.unreadable.isEmpty)
      #expect(report.lost == 0)
      #expect(report.kept == before.records.count)
      #expect(report.unknownOrigins == expected.tally)
      #expect(HealthSQLiteStorage.check(path: path).isEmpty)
      #expect(try FormatOneFixture.contents(of: path).records == expected.records)
    }
  }

  /// Two damaged leaves one apart, the first of them wide in keys (four rows from 1000 to
  /// 4000, after 40 rows from 1 and before 40 from 4001): the doubling from the last key
  /// read passes the readable leaf between them, and the halving finds the first key past
  /// the second; the reading back down from there finds that leaf, and every row of a
  /// leaf not damaged is read, in key order, the two spans reported apart.
  @Test func twoLeavesOneApartPastAWideOne() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let path = directory.file("wide.sqlite")
    var keys: [Int64] = Array(1...40)
    keys += [1000, 2000, 3000, 4000]
    keys += Array(4001...4040)
    let queue = try DatabaseQueue(path: path)
    try queue.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA page_size = 512")
      try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, data BLOB NOT NULL)")
      for key in keys {
        try db.execute(sql: "INSERT INTO t VALUES (?, zeroblob(100))", arguments: [key])
      }
    }
    try queue.close()
    let leaves = try Self.pages(path, table: "t").leaves
    let wide = try #require(leaves.firstIndex { $0.first <= 1000 && 1000 <= $0.last })
    let width: Int64 = leaves[wide].last - leaves[wide].first
    try #require(wide + 3 < leaves.count)
    try #require(width >= 1000)
    let damaged = [leaves[wide], leaves[wide + 2]]
    for leaf in damaged { try Self.damage(page: leaf.page, of: path) }

    var read: [Int64] = []
    var spans: [HealthSQLiteUnreadableSpan] = []
    let reading = try DatabaseQueue(path: path)
    defer { try? reading.close() }
    try reading.inDatabase { db in
      try HealthSQLiteReadableRows.each(
        db, table: "t", key: "id", selection: "id, data", unreadable: { spans.append($0) }
      ) { row in read.append(row[0]) }
    }
    #expect(read == keys.filter { key in !damaged.contains { ($0.first...$0.last).contains(key) } })
    // Each span between the keys around its leaf.
    #expect(
      spans
        == damaged.map { leaf in
          HealthSQLiteUnreadableSpan(
            after: keys.last { $0 < leaf.first }, before: keys.first { $0 > leaf.last })
        })
  }

  /// The reading past damage finds the smallest bound whose first row reads, by seeks.
  @Test func theNextBoundIsTheFirstPastTheDamage() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    try Self.smallPages(in: directory)
    let path = directory.file(HealthSQLiteStorage.fileName)
    let pages = try Self.pages(path)
    let leaf = pages.leaves[4]
    try Self.damage(page: leaf.page, of: path)
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    try queue.inDatabase { db in
      typealias Rows = HealthSQLiteReadableRows
      let selection = HealthSQLiteFormat2.selection
      let found = try Rows.nextBound(db, "record", "pos", selection, after: leaf.first - 1)
      #expect(found.bound == leaf.last + 1)
      #expect(found.probe == .row(leaf.last + 1))
      #expect(try Rows.probe(db, "record", "pos", selection, from: leaf.last) == .unreadable)
      #expect(try Rows.probe(db, "record", "pos", selection, from: 401) == .end)
    }
  }
}

/// `weigh check --repair`'s report of a bench store (`weigh-bench health-store`, 4,500
/// samples in 8 KiB pages) whose second leaf SQLite cannot read, and of one whose record
/// table's root it cannot read.
@Suite struct HealthSQLiteUnreadablePageReportTests {
  typealias Pages = HealthSQLiteUnreadablePageTests

  /// A bench store of 4,500 samples in `directory`.
  static func benchStore(_ directory: String) throws {
    let built = builtProduct(named: "weigh-bench")
    try #require(FileManager.default.isExecutableFile(atPath: built), "build weigh-bench first")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: built)
    process.arguments = ["health-store", directory, "3500"]
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0)
  }

  /// `text` with the UTC time in folder names made fixed.
  static func fixed(_ text: String) -> String {
    text.replacingOccurrences(
      of: #"-\d{8}T\d{6}Z"#, with: "-TIME", options: .regularExpression)
  }

  @Test func theReportSaysWhichPositionsAreLost() throws {
    let parent = TemporaryStoreDirectory()
    defer { parent.remove() }
    let directory = parent.file("bench")
    try Self.benchStore(directory)
    let path = StoreLocation.joinPath(directory, HealthSQLiteStorage.fileName)
    let pages = try Pages.pages(path)
    try #require(pages.leaves.count >= 3)
    let leaf = pages.leaves[1]
    try Pages.damage(page: leaf.page, of: path)
    let count = leaf.last - leaf.first + 1

    let repair = StoreCheck.repair(.directory(directory))
    #expect(repair.status == .success)
    #expect(
      Self.fixed(repair.text) == """
        damaged: health.sqlite: the database cannot be read: database disk image is malformed
        kept: \(4500 - count) Health records in health.sqlite
        lost: up to \(count) Health records of health.sqlite, at positions \(leaf.first) to \
        \(leaf.last), on a page SQLite cannot read
        copy of health.sqlite as it was: damaged/health-repair-TIME
        repaired: the store reads in full

        """)
    #expect(StoreCheck.run(.directory(directory)).text == "ok: the store reads in full\n")
  }

  /// The origin table's only page (its root) damaged: every record is kept with its origin
  /// unknown, and the report says so, origin by origin.
  @Test func theReportSaysWhichRecordsLostTheirOrigin() throws {
    let parent = TemporaryStoreDirectory()
    defer { parent.remove() }
    let directory = parent.file("bench")
    try Self.benchStore(directory)
    let path = StoreLocation.joinPath(directory, HealthSQLiteStorage.fileName)
    let queue = try DatabaseQueue(path: path)
    let origins = try queue.read { db in
      try Row.fetchAll(
        db,
        sql: "SELECT origin, count(*), min(pos), max(pos) FROM record GROUP BY origin ORDER BY 1"
      ).map { row -> String in
        let (id, count, first, last): (Int64, Int, Int64, Int64) = (row[0], row[1], row[2], row[3])
        return
          "kept: \(count) Health records of health.sqlite that name origin \(id) (positions "
          + "\(first) to \(last), the first and the last): their source and device are unknown "
          + "now, none is kept (HealthKit shows the Health app as their source)\n"
      }
    }
    try queue.close()
    try #require(origins.count >= 2)
    try Pages.damage(page: try Pages.pages(path, table: "origin").root, of: path)

    let head = """
      damaged: health.sqlite: the database cannot be read: database disk image is malformed
      kept: 4500 Health records in health.sqlite
      lost: the origins of health.sqlite with ids from 1 on, on a page SQLite cannot read \
      (the records that name them are kept without one)

      """
    let tail = """
      copy of health.sqlite as it was: damaged/health-repair-TIME
      repaired: the store reads in full

      """
    let repair = StoreCheck.repair(.directory(directory))
    #expect(repair.status == .success)
    #expect(Self.fixed(repair.text) == head + origins.joined() + tail)
    #expect(StoreCheck.run(.directory(directory)).text == "ok: the store reads in full\n")
  }

  @Test func aDamagedRootIsNotRepaired() throws {
    let parent = TemporaryStoreDirectory()
    defer { parent.remove() }
    let directory = parent.file("bench")
    try Self.benchStore(directory)
    let path = StoreLocation.joinPath(directory, HealthSQLiteStorage.fileName)
    try Pages.damage(page: try Pages.pages(path).root, of: path)
    let broken = FileManager.default.contents(atPath: path)

    let repair = StoreCheck.repair(.directory(directory))
    #expect(repair.status == .unreadableStore)
    #expect(
      Self.fixed(repair.text).replacing(directory, with: "STORE") == """
        STORE/health.sqlite: error: no Health record of health.sqlite can be read (the record \
        table's pages are damaged), so it cannot be rebuilt; the copy is in \
        damaged/health-repair-TIME; restore health.sqlite from a backup
        health.sqlite was not repaired

        """)
    #expect(FileManager.default.contents(atPath: path) == broken)
  }
}
