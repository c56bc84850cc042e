import Foundation
import GRDB
import HealthSim
import Testing

@testable import WeighKit

/// A sample of −0.0 in `health.sqlite`: SQLite reads a REAL −0.0 back as +0.0, and the
/// columns' checksum was of −0.0's bits, so `health add -0 steps` left a store no command
/// could read ("the columns do not match their checksum"). The columns now keep +0.0, and a
/// row an earlier weigh wrote that way reads again.
@Suite struct HealthSQLiteNegativeZeroTests {
  static func negativeZero(_ number: Int) -> HealthSample {
    HealthSample(
      uuid: HealthSQLiteStorageTests.uuid(number), type: .stepCount,
      startDate: Date(timeIntervalSince1970: 1_767_254_400 + Double(number) * 60),
      endDate: Date(timeIntervalSince1970: 1_767_254_460 + Double(number) * 60), value: -0.0,
      sourceRevision: SourceRevision(source: .health), device: nil, metadata: [:],
      creationDate: Date(timeIntervalSince1970: 1_767_254_400), workout: nil)
  }

  static func withStorage(_ body: (String, HealthSQLiteStorage) throws -> Void) throws {
    let folder = FileManager.default.temporaryDirectory.appending(
      path: "weigh-zero-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appending(path: HealthSQLiteStorage.fileName).path
    let storage = try HealthSQLiteStorage(path: path)
    try body(path, storage)
  }

  @Test func aSampleOfNegativeZeroReadsBackAndChecksClean() throws {
    try Self.withStorage { path, storage in
      try storage.apply([.sampleSaved(Self.negativeZero(1), position: 1)])
      // In a command too, where rows wait and are kept for the anchored read.
      try storage.beginCommand()
      try storage.openSavepoint()
      try storage.apply([.sampleSaved(Self.negativeZero(2), position: 2)])
      try storage.releaseSavepoint()
      try storage.commitCommand(pending: nil, appSequence: 0)
      try storage.close()
      let reopened = try HealthSQLiteStorage(path: path)
      defer { try? reopened.close() }
      let records = try reopened.records(after: 0, limit: 10)
      #expect(records.count == 2)
      for record in records {
        guard case .sample(let sample, _) = record else {
          Issue.record("not a sample: \(record)")
          continue
        }
        #expect(sample.value == 0)
      }
      #expect(
        try reopened.statistics(
          of: .stepCount,
          boundaries: [
            Date(timeIntervalSince1970: 1_767_254_400), Date(timeIntervalSince1970: 1_767_340_800),
          ], bundle: nil
        ).count == 1)
      #expect(HealthSQLiteStorage.check(path: path).filter { $0.severity == .error }.isEmpty)
    }
  }

  /// In format 1, which a read-only store still reads.
  @Test func aRowAnEarlierWeighWroteWithNegativeZeroReadsAgain() throws {
    try Self.withStorage { format2, storage in
      try storage.close()
      let path = format2 + ".v1"
      try HealthSQLiteFormat1Fixture.write([.sample(Self.negativeZero(3), position: 1)], to: path)
      // The checksum an earlier weigh wrote: of the columns with −0.0's bits.
      let queue = try DatabaseQueue(path: path)
      try queue.write { db in
        let rowChecksum = try Int64.fetchOne(db, sql: "SELECT row_crc FROM record WHERE pos = 1")
        var columns = HealthSQLiteColumns(
          Self.negativeZero(3), position: 1, rowChecksum: UInt32(rowChecksum ?? 0))
        columns.value = -0.0
        try db.execute(
          sql: "UPDATE record SET crc = ? WHERE pos = 1", arguments: [Int64(columns.checksum)])
      }
      try queue.close()
      let reopened = try HealthSQLiteStorage(path: path, readOnly: true)
      defer { try? reopened.close() }
      #expect(try reopened.records(after: 0, limit: 10).count == 1)
      // Another value is still found changed.
      let damaged = try DatabaseQueue(path: path)
      try damaged.write { try $0.execute(sql: "UPDATE record SET value = 1 WHERE pos = 1") }
      try damaged.close()
      #expect(throws: StoreError.self) { try reopened.records(after: 0, limit: 10) }
    }
  }
}
