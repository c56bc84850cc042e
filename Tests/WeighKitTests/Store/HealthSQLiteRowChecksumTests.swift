import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// Format 2's row checksum (`HealthSQLiteRowParts.checksum(originID:)`), gathered in one
/// buffer, is the sum it replaces: each column's bytes summed on its own, in the same order.
/// A store written before must read clean, so every bit of every kind of row counts.
@Suite struct HealthSQLiteRowChecksumTests {
  /// The checksum as each column's bytes were summed one at a time (hfmt10's code): the
  /// reference the gathered sum must equal.
  static func columnByColumn(_ parts: HealthSQLiteRowParts, originID: Int64) -> UInt32 {
    var crc = ZipCRC32()
    func add(_ value: UInt64) {
      withUnsafeBytes(of: value.littleEndian) { crc.update($0) }
    }
    func add(byte: UInt8) {
      withUnsafeBytes(of: byte) { crc.update($0) }
    }
    func add(optional value: Double?) {
      add(byte: value == nil ? 0 : 1)
      if let value { add(value.bitPattern) }
    }
    add(UInt64(bitPattern: parts.position))
    add(byte: parts.isDeletion ? 1 : 0)
    add(UInt64(bitPattern: HealthSQLiteTypeCode.code(parts.type)))
    withUnsafeBytes(of: parts.uuid.uuid) { crc.update($0) }
    add(parts.start.bitPattern)
    add(parts.end.bitPattern)
    add(parts.value.bitPattern)
    add(UInt64(bitPattern: originID))
    add(optional: parts.created)
    add(byte: parts.syncIdentifier == nil ? 0 : 1)
    if let syncIdentifier = parts.syncIdentifier {
      let utf8 = Array(syncIdentifier.utf8)
      add(UInt64(utf8.count))
      utf8.withUnsafeBytes { crc.update($0) }
    }
    add(optional: parts.deleted)
    add(byte: parts.extra == nil ? 0 : 1)
    if let extra = parts.extra {
      add(UInt64(extra.count))
      extra.withUnsafeBytes { crc.update($0) }
    }
    return crc.value
  }

  @Test func theGatheredSumIsTheColumnByColumnSum() {
    var random = SeededGenerator(seed: 1212)
    var (synced, extras, deletions, created) = (0, 0, 0, 0)
    for index in 1...5_000 {
      let position = Int64.random(in: 1...Int64.max, using: &random)
      var parts = HealthSQLiteRowParts(
        HealthSQLiteRowPartsTests.record(&random, position: index == 1 ? 1 : position))
      // Texts of every length (the empty one, a long one past the buffer) and numbers of
      // any bits, the parts' own rules aside.
      if Int.random(in: 0..<4, using: &random) == 0 {
        let length = [0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 200].randomElement(using: &random)!
        parts.syncIdentifier = String(repeating: "é", count: length)
      }
      if Int.random(in: 0..<4, using: &random) == 0 {
        parts.start = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &random))
        parts.created = Bool.random(using: &random) ? -0.0 : .infinity
      }
      let originID = Int64.random(in: Int64.min...Int64.max, using: &random)
      #expect(
        parts.checksum(originID: originID) == Self.columnByColumn(parts, originID: originID),
        "\(parts)")
      if parts.syncIdentifier != nil { synced += 1 }
      if parts.extra != nil { extras += 1 }
      if parts.isDeletion { deletions += 1 }
      if parts.created != nil { created += 1 }
    }
    // Every optional column is reached, with and without its value.
    for count in [synced, extras, deletions, created] { #expect(count > 500 && count < 4_500) }
  }

  @Test func everyColumnChangesTheSum() {
    var random = SeededGenerator(seed: 7)
    let parts = HealthSQLiteRowParts(HealthSQLiteRowPartsTests.record(&random, position: 9))
    let sum = parts.checksum(originID: 3)
    var changed: [HealthSQLiteRowParts] = []
    func with(_ change: (inout HealthSQLiteRowParts) -> Void) {
      var copy = parts
      change(&copy)
      changed.append(copy)
    }
    with { $0.position += 1 }
    with { $0.isDeletion.toggle() }
    with { $0.type = $0.type == .stepCount ? .bodyMass : .stepCount }
    with { $0.uuid = UUID() }
    with { $0.start += 1 }
    with { $0.end += 1 }
    with { $0.value += 1 }
    with { $0.created = ($0.created ?? 0) + 1 }
    with { $0.syncIdentifier = ($0.syncIdentifier ?? "") + "x" }
    with { $0.deleted = ($0.deleted ?? 0) + 1 }
    with { $0.extra = ($0.extra ?? []) + [0x20] }
    for other in changed { #expect(other.checksum(originID: 3) != sum, "\(other)") }
    #expect(parts.checksum(originID: 4) != sum)
  }
}
