import Foundation
import HealthSim
import WeighKit

/// The generated history, the same for every candidate: sample `i` (from 0) starts 30 s
/// after sample `i - 1`, from 2020-01-01T00:00Z. By `i % 4`: heart rate (0 and 2), steps
/// with a sync identifier `steps-i` (1, as apps that sync write them), active energy (3);
/// three sources in turn. Steps and heart rate dominate real exports.
enum Workload {
  static let epoch = Date(timeIntervalSince1970: 1_577_836_800)
  static let spacing: TimeInterval = 30
  static let sources = [
    HealthSource(name: "Apple Watch", bundleIdentifier: "com.apple.health.watch"),
    HealthSource(name: "iPhone", bundleIdentifier: "com.apple.health.phone"),
    HealthSource(name: "Withings", bundleIdentifier: "com.withings.wiScaleNG"),
  ]

  static func type(_ index: Int) -> SampleType {
    switch index % 4 {
    case 1: .stepCount
    case 3: .activeEnergyBurned
    default: .heartRate
    }
  }

  /// A UUID that names sample `index` (the same in every store): version 4's fixed bits,
  /// the index in the last seven bytes.
  static func uuid(_ index: Int) -> UUID {
    let value = UInt64(truncatingIfNeeded: index)
    var bytes: [UInt8] = [0x5E, 0x1F, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x80]
    for shift in 0..<7 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(shift)))) }
    return UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
        bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      ))
  }

  static func start(_ index: Int) -> Date { epoch.addingTimeInterval(Double(index) * spacing) }

  /// Sample `index`, as the store keeps it (UUID, source, creation date set).
  static func sample(_ index: Int) -> HealthSample {
    let type = type(index)
    let start = start(index)
    var metadata: Metadata = [:]
    var end = start
    let value: Double
    switch type {
    case .stepCount:
      value = Double(20 + index % 97)
      end = start.addingTimeInterval(spacing)
      metadata[MetadataKey.syncIdentifier] = .string("steps-\(index)")
      metadata[MetadataKey.syncVersion] = .number(1)
    case .activeEnergyBurned:
      value = 0.5 + Double(index % 13) / 10
      end = start.addingTimeInterval(spacing)
    default:
      value = 0.9 + Double(index % 61) / 100  // counts per second: 54–90 per minute
    }
    let revision = SourceRevision(
      source: sources[index % sources.count], version: "1.0", productType: "Watch6,1")
    return HealthSample(
      uuid: uuid(index), type: type, startDate: start, endDate: end, value: value,
      sourceRevision: revision, device: nil, metadata: metadata,
      creationDate: end.addingTimeInterval(5), workout: nil)
  }
}

/// A stable small number for each sample type, for keys and columns.
enum TypeCode {
  private static let codes: [SampleType: Int64] = Dictionary(
    uniqueKeysWithValues: SampleType.allCases.enumerated().map { ($1, Int64($0)) })

  static func of(_ type: SampleType) -> Int64 { codes[type] ?? 0 }
}

/// CRC-32 (IEEE), the checksum weigh's store uses.
enum CRC32 {
  private static let table: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
    return value
  }

  static func of<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    return crc ^ 0xFFFF_FFFF
  }
}

/// The JSON row of a record, as `health.json` holds it.
func encodeRow(_ record: HealthRecord) -> [UInt8] {
  var writer = JSONWriter()
  HealthRecordCodec.encode(record, into: &writer)
  return writer.bytes
}

/// A record from its JSON row.
func decodeRow<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws -> HealthRecord {
  try JSONReader.withReader(over: Array(bytes)) { (reader) throws(JSONSyntaxError) in
    try HealthRecordCodec.decode(from: &reader)
  }
}
