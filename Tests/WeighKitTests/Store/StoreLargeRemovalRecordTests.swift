import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// A large last record of removals only (an undo's, after a kill before its compaction) is
/// read a piece at a time (`StoreJournal.parse(_:removals:…)`), into what parsing it whole
/// makes of it; any other record, or any damage, reads the journal whole, as before.
@Suite struct StoreLargeRemovalRecordTests {
  static let entries = (1...6_000).map { sampleEntry($0) }
  /// Removals in order with gaps, ids no row has, and ids that go back.
  static let removed = Array(100...2_000) + Array(2_500...3_598) + [9_999, 50, 51, 52]

  /// A store whose journal ends with a record of `changes`, not compacted.
  static func store(_ changes: [StoreChange]) throws -> TemporaryStoreDirectory {
    let directory = TemporaryStoreDirectory()
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    try store.commit(StoreChange.putEntries(Self.entries))
    try store.compact()
    try store.commit([.setDocument(name: "app", value: ["anchor": 1])])
    try store.commit(changes)
    store.close()
    return directory
  }

  /// What an inspection says of the journal and the store, as text to compare.
  static func summary(_ directory: TemporaryStoreDirectory, largeRecords: Int) -> [String] {
    let inspection = StoreLargeRecordTests.inspect(directory, largeRecords: largeRecords)
    let journal = inspection.journal
    return journal.transactions.map { "\($0.sequence) \($0.line) \($0.end) \($0.changes)" }
      + [
        "\(journal.completeLength) \(journal.completeLines) \(journal.version)",
        "\(String(describing: journal.problem))", "\(String(describing: inspection.torn))",
        "\(inspection.errors)", "\(String(describing: inspection.journalSize))",
      ]
  }

  static func pieceRead(
    _ directory: TemporaryStoreDirectory, pieceBytes: Int = StoreFileSystem.tailPiece
  ) throws -> StoreJournal.Contents? {
    let path = directory.file(StoreJournal.fileName)
    let read = try #require(try StoreFileSystem.readLines(path, largeLine: 1_000))
    let large = try #require(read.large)
    return try StoreJournal.parse(
      read.lines, removals: large, size: read.size, path: path,
      table: { $0 == EntryCodec.tableName ? TableStorage<EntryCodec>(empty: false) : nil },
      pieceBytes: pieceBytes)
  }

  @Test func aRecordOfRemovalsIsReadInPiecesAsItIsReadWhole() throws {
    let directory = try Self.store(Self.removed.map { .removeEntry(id: $0) })
    defer { directory.remove() }
    let pieces = try #require(try Self.pieceRead(directory))
    guard case .removeRun("entries", let ids) = pieces.transactions.last?.changes.first else {
      Issue.record("not a run: \(pieces.transactions)")
      return
    }
    #expect(ids.ranges == [100...2_000, 2_500...3_598, 9_999...9_999, 50...52])
    // Changes and the checksum split between pieces anywhere.
    for pieceBytes in [1, 7, 29, 1_000, 4_099] {
      let read = try #require(try Self.pieceRead(directory, pieceBytes: pieceBytes))
      #expect("\(read.transactions.last!.changes)" == "\(pieces.transactions.last!.changes)")
      #expect(read.completeLength == pieces.completeLength)
    }
    #expect(
      Self.summary(directory, largeRecords: 1_000) == Self.summary(directory, largeRecords: .max))

    let gone = Set(Self.removed)
    var policy = CompactionPolicy.manual
    policy.largeRecordBytes = 1_000
    let reopened = try Store.open(.directory(directory.path), compaction: policy)
    #expect(try reopened.entries() == Self.entries.filter { !gone.contains($0.id) })
    reopened.close()
    #expect(Store.check(.directory(directory.path), largeRecordBytes: 1_000).isEmpty)
  }

  /// The record of an undo that also sets documents back (an import that brought its
  /// settings into an empty log): the removals, then the documents. Objects of one key:
  /// the changes are compared as text, and a dictionary's order is not fixed.
  static let documents: [StoreChange] = [
    .setDocument(name: "app", value: ["anchor": 2]),
    .setDocument(name: "note", value: [2, "a ] , { \"remove\":\"entries\",\"id\":3}"]),
  ]

  @Test func aRecordOfRemovalsThenDocumentsIsReadInPiecesAsItIsReadWhole() throws {
    for documents in [Array(Self.documents.prefix(1)), Self.documents] {
      let directory = try Self.store(Self.removed.map { .removeEntry(id: $0) } + documents)
      defer { directory.remove() }
      let pieces = try #require(try Self.pieceRead(directory))
      let changes = try #require(pieces.transactions.last?.changes)
      guard case .removeRun("entries", let ids) = changes.first else {
        Issue.record("not a run: \(pieces.transactions)")
        return
      }
      #expect(ids.ranges == [100...2_000, 2_500...3_598, 9_999...9_999, 50...52])
      #expect("\(changes.dropFirst())" == "\(documents[...])")
      for pieceBytes in [1, 7, 29, 1_000, 4_099] {
        let read = try #require(try Self.pieceRead(directory, pieceBytes: pieceBytes))
        #expect("\(read.transactions.last!.changes)" == "\(changes)")
        #expect(read.completeLength == pieces.completeLength)
      }
      #expect(
        Self.summary(directory, largeRecords: 1_000)
          == Self.summary(directory, largeRecords: .max))
      let gone = Set(Self.removed)
      var policy = CompactionPolicy.manual
      policy.largeRecordBytes = 1_000
      let reopened = try Store.open(.directory(directory.path), compaction: policy)
      #expect(try reopened.entries() == Self.entries.filter { !gone.contains($0.id) })
      #expect(reopened.documents["app"] == ["anchor": 2])
      reopened.close()
      #expect(Store.check(.directory(directory.path), largeRecordBytes: 1_000).isEmpty)
    }
  }

  /// The record of the migration of Health's tables (hmig24): the removals of `health`'s
  /// rows, then of `health-sync`'s, then documents; a stretch of one table after another's
  /// is read in pieces as the whole read makes it (a run from 1,024 removals, removals of
  /// their own below), for every order and length of the stretches.
  @Test func stretchesOfSeveralTablesAreReadInPiecesAsTheyAreReadWhole() throws {
    let tables: [String: any AnyTableStorage] = [
      EntryCodec.tableName: TableStorage<EntryCodec>(empty: false),
      HealthRecordCodec.tableName: TableStorage<HealthRecordCodec>(empty: false),
      HealthSyncIndexCodec.tableName: TableStorage<HealthSyncIndexCodec>(empty: false),
    ]
    func removals(_ table: String, _ ids: [Int]) -> [StoreChange] {
      ids.map { .remove(table: table, id: $0) }
    }
    let health = removals("health", Array(1...1_500) + [1_600])
    let synced = removals("health-sync", [3, 7, 9, 1_200])
    let manySynced = removals("health-sync", Array(2...1_100))
    for changes in [
      health + synced + Self.documents,
      health + manySynced,
      synced + health + Self.documents,
      health + synced + health + Self.documents,
      Self.removed.map { .removeEntry(id: $0) } + synced + manySynced,
    ] {
      let directory = TemporaryStoreDirectory()
      defer { directory.remove() }
      do {
        let store = try Store.open(
          .directory(directory.path), tables: Session.storeTables, compaction: .manual)
        try store.commit(StoreChange.putEntries(Array(Self.entries.prefix(10))))
        try store.compact()
        try store.commit(changes)
        store.close()
      }
      let path = directory.file(StoreJournal.fileName)
      func inspect(_ largeRecords: Int) -> StoreInspection {
        StoreInspection.inspect(
          directory: directory.path, tables: tables, rows: .ends, largeRecords: largeRecords)
      }
      let whole = inspect(.max)
      #expect(whole.errors.isEmpty)
      let wholeChanges = "\(whole.journal.transactions.last!.changes)"
      for pieceBytes in [1, 7, 29, 1_000, 4_099] {
        let read = try #require(try StoreFileSystem.readLines(path, largeLine: 1_000))
        let large = try #require(read.large)
        let parsed = try StoreJournal.parse(
          read.lines, removals: large, size: read.size, path: path, table: { tables[$0] },
          pieceBytes: pieceBytes)
        let pieces = try #require(parsed)
        #expect("\(pieces.transactions.last!.changes)" == wholeChanges)
        #expect(pieces.completeLength == whole.journal.completeLength)
      }
      let inPieces = inspect(1_000)
      #expect(
        "\(inPieces.journal.transactions.map(\.changes))"
          == "\(whole.journal.transactions.map(\.changes))")
      #expect(inPieces.errors.isEmpty)
    }
  }

  @Test func otherRecordsAreNotReadInPieces() throws {
    let removals: [StoreChange] = Self.removed.map { .removeEntry(id: $0) }
    for changes in [
      removals + Self.documents + [.removeEntry(id: 5)],
      removals + Self.documents + [.putEntry(sampleEntry(7_000))],
      removals + [.putEntry(sampleEntry(7_000))] + Self.documents,
      [.putEntry(sampleEntry(7_000))] + removals,
      Array(removals.prefix(1_023)) + [.putEntry(sampleEntry(7_000))],
      Array(removals.prefix(1_023)) + Self.documents,
    ] {
      let directory = try Self.store(changes)
      defer { directory.remove() }
      #expect(try Self.pieceRead(directory) == nil)
      #expect(
        Self.summary(directory, largeRecords: 1_000) == Self.summary(directory, largeRecords: .max))
    }
  }

  @Test func fewerRemovalsThanAStretchAreNotReadInPieces() throws {
    let directory = try Self.store((1...1_023).map { .removeEntry(id: $0) })
    defer { directory.remove() }
    #expect(try Self.pieceRead(directory) == nil)
    #expect(
      Self.summary(directory, largeRecords: 1_000) == Self.summary(directory, largeRecords: .max))
  }

  /// Damage in the record (a flipped bit anywhere, the line cut, bytes after it) is found
  /// and said as when the journal is read whole.
  @Test(arguments: [UInt64(1), 2, 3], [false, true])
  func damageIsSaidAsWhenTheRecordIsReadWhole(_ seed: UInt64, documents: Bool) throws {
    let sound = try Self.store(
      Self.removed.map { .removeEntry(id: $0) } + (documents ? Self.documents : []))
    defer { sound.remove() }
    let bytes = sound.bytes(StoreJournal.fileName)!
    let start = bytes.dropLast().lastIndex(of: 0x0A)! + 1
    var generator = SeededGenerator(seed: seed)
    for round in 0..<12 {
      let directory = TemporaryStoreDirectory()
      defer { directory.remove() }
      sound.copy(to: directory)
      var damaged = bytes
      switch round % 3 {
      case 0:
        let offset = Int.random(in: start..<bytes.count, using: &generator)
        damaged[offset] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
      case 1:
        damaged.removeLast(Int.random(in: 1..<(bytes.count - start), using: &generator))
      default:
        damaged += Array("{\"seq\":9,\"chan".utf8)
      }
      directory.write(StoreJournal.fileName, damaged)
      #expect(
        Self.summary(directory, largeRecords: 1_000) == Self.summary(directory, largeRecords: .max),
        "round \(round)")
      #expect(
        Store.check(.directory(directory.path), largeRecordBytes: 1_000)
          == Store.check(.directory(directory.path), largeRecordBytes: .max), "round \(round)")
    }
  }
}
