import Foundation
import Testing

@testable import WeighKit

/// The app journal's record a command commits into `pending_journal`, bound straight to
/// SQLite and checksummed in two parts (sequence, then record): what an earlier weigh wrote
/// still reads, and what is written reads back whole.
@Suite struct HealthSQLitePendingRecordTests {
  /// The checksum as weigh computed it before: the sequence's eight bytes, least
  /// significant first, joined to the record, then summed.
  static func joinedChecksum(_ pending: HealthSQLiteStorage.PendingRecord) -> UInt32 {
    var bytes: [UInt8] = []
    let sequence = UInt64(truncatingIfNeeded: pending.sequence)
    for shift in stride(from: 0 as UInt64, to: 64, by: 8) {
      bytes.append(UInt8(truncatingIfNeeded: sequence >> shift))
    }
    bytes += pending.bytes
    return bytes.withUnsafeBufferPointer { StoreChecksum.of($0) }
  }

  @Test(arguments: [0, 1, 255, 256, 70_000, Int.max])
  func checksumIsTheJoinedBytesChecksum(sequence: Int) {
    for length in [0, 1, 7, 4_096, 600_001] {
      let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ sequence) }
      let pending = HealthSQLiteStorage.PendingRecord(sequence: sequence, bytes: bytes)
      #expect(
        HealthSQLiteStorage.pendingChecksum(pending) == Self.joinedChecksum(pending),
        "sequence \(sequence), \(length) bytes")
    }
  }

  /// Two commands' records, the second larger than many pages: each reads back as written,
  /// the first replaced by the second.
  @Test func committedRecordReadsBackWhole() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let sqlite = try HealthSQLiteStorage(path: directory.file(HealthSQLiteStorage.fileName))
    defer { try? sqlite.close() }
    let small = HealthSQLiteStorage.PendingRecord(sequence: 1, bytes: Array("{\"seq\":1}\n".utf8))
    try sqlite.beginCommand()
    try sqlite.commitCommand(pending: small, appSequence: 1)
    #expect(try sqlite.pendingRecord().record == small)
    #expect(try sqlite.pendingRecord().appSequence == 1)

    let large = HealthSQLiteStorage.PendingRecord(
      sequence: 2, bytes: (0..<300_000).map { UInt8(truncatingIfNeeded: $0 % 251) } + [0x0A])
    try sqlite.beginCommand()
    try sqlite.commitCommand(pending: large, appSequence: 2)
    #expect(try sqlite.pendingRecord().record == large)

    try sqlite.beginCommand()
    try sqlite.commitCommand(pending: nil, appSequence: 2)
    #expect(try sqlite.pendingRecord().record == nil)
    #expect(try sqlite.pendingRecord().appSequence == 2)
  }
}
