import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// A live row's checksum in two parts (`HealthSQLiteRowChecksumSplit`): the sum with zeros
/// for the position, UUID, origin id and creation time, and those columns added after, is
/// the whole row's sum for every row.
@Suite struct HealthSQLiteRowChecksumSplitTests {
  /// The parts of a live row of any sync identifier and `extra` (of every length, so that
  /// both ways through the suffix are taken), with a creation time of any bits.
  static func liveParts(_ random: inout SeededGenerator) -> HealthSQLiteRowParts {
    var parts: HealthSQLiteRowParts
    repeat {
      parts = HealthSQLiteRowParts(HealthSQLiteRowPartsTests.record(&random, position: 1))
    } while parts.isDeletion
    let lengths = [0, 1, 2, 5, 6, 7, 8, 13, 14, 30, 200]
    switch Int.random(in: 0..<4, using: &random) {
    case 0:
      parts.syncIdentifier = String(repeating: "s", count: lengths.randomElement(using: &random)!)
    case 1:
      parts.extra = (0..<lengths.randomElement(using: &random)!).map { _ in
        UInt8.random(in: 0...255, using: &random)
      }
    default:
      break
    }
    parts.created = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &random))
    return parts
  }

  @Test func theSplitSumIsTheWholeSum() {
    var random = SeededGenerator(seed: 1717)
    var (short, long) = (0, 0)
    for _ in 1...5_000 {
      var parts = Self.liveParts(&random)
      var fixed = parts
      fixed.position = 0
      fixed.uuid = HealthSQLiteRowChecksumSplit.zeroUUID
      fixed.created = 0
      let fixedSum = fixed.checksum(originID: 0)
      let suffix = HealthSQLiteRowChecksumSplit.suffixLength(of: parts)
      parts.position = Int64.random(in: Int64.min...Int64.max, using: &random)
      parts.uuid = UUID()
      let originID = Int64.random(in: Int64.min...Int64.max, using: &random)
      let split = HealthSQLiteRowChecksumSplit.checksum(
        fixed: fixedSum, suffixLength: suffix, position: parts.position, uuid: parts.uuid,
        originID: originID, created: parts.created!)
      #expect(split == parts.checksum(originID: originID), "\(parts)")
      #expect(split == HealthSQLiteRowChecksumTests.columnByColumn(parts, originID: originID))
      if suffix <= 16 { short += 1 } else { long += 1 }
    }
    // Both ways through the suffix are taken often.
    #expect(short > 1_000 && long > 1_000)
  }
}
