import Foundation
import HealthSim
import WeighKit

/// A store in the layout weigh wrote before `health.sqlite` (Health in `health.json`,
/// `health-sync.json` and the `health` document), at scale, for the measurements of its
/// migration (docs/performance.md, "hmig24"): `template` (a store of that layout,
/// `Tests/fixtures/health-json-store`) copied to `directory`, then `count` more records
/// streamed into its `health` table through the store's own writer, the live samples with
/// a sync identifier into `health-sync`, the `health` document's counter raised to the last
/// position, and a few records more left in the journal (as a store in use has them).
///
/// Of each 40 records one is a deletion; one sample in 10 has a sync identifier and
/// version; a position is skipped after every 50 (a sample deleted since), so the ids are
/// runs of 50. Body mass, steps and energy from four sources. The same `count` makes the
/// same rows (UUIDs from the record's place).
func makeHealthJSONStore(template: String, directory: String, count: Int) throws {
  guard !FileManager.default.fileExists(atPath: directory) else {
    throw BenchFailure("\(directory) exists; give a new directory")
  }
  let made = Date()
  try FileManager.default.copyItem(atPath: template, toPath: directory)
  try? FileManager.default.removeItem(atPath: directory + "/weigh.lock")
  let tables: [any StoreTableCodec.Type] = [HealthRecordCodec.self, HealthSyncIndexCodec.self]
  var store = try Store.open(.directory(directory), tables: tables)
  // The template's journal into its tables, so that runs stream after their rows.
  try store.compact()
  guard case .object(var health) = store.documents["health"],
    let counter = health["counter"]?.intValue
  else { throw BenchFailure("the template has no health document") }
  // checked: Int and Int64 have one width
  let base = Int64(counter)
  // checked: Int and Int64 have one width
  func position(_ place: Int) -> Int64 { base + 1 + Int64(place + place / 50) }

  for table in [HealthRecordCodec.tableName, HealthSyncIndexCodec.tableName] {
    store.beginBatch()
    guard store.beginStreamedRun(into: table, afterItsRows: true) else {
      throw BenchFailure("the \(table) table cannot take a streamed run")
    }
    var place = 0
    while place < count {
      var block: [HealthRecord] = []
      let end = min(count, place + 10_000)
      for index in place..<end {
        let record = jsonStoreRecord(index, position: position(index))
        if table == HealthRecordCodec.tableName {
          block.append(record)
        } else if case .sample(let sample, _) = record, sample.syncIdentifier != nil {
          block.append(record)
        }
      }
      if table == HealthRecordCodec.tableName {
        try store.streamRun(block, of: HealthRecordCodec.self)
      } else {
        try store.streamRun(block, of: HealthSyncIndexCodec.self)
      }
      place = end
    }
    guard let run = store.finishStreamedRun() else { throw BenchFailure("no rows streamed") }
    try store.commit([run])
    try store.endBatch()
    store.close()
    store = try Store.open(.directory(directory), tables: tables)
    try store.compact()
  }
  // Three records more, in the journal only, and the counter past them.
  var extra: [StoreChange] = []
  for index in count..<(count + 3) {
    let record = jsonStoreRecord(index, position: position(index))
    extra.append(.put(StoreRow(HealthRecordCodec.self, record)))
    if case .sample(let sample, _) = record, sample.syncIdentifier != nil {
      extra.append(.put(StoreRow(HealthSyncIndexCodec.self, record)))
    }
  }
  // checked: a position of the records just made, far below Int.max
  health["counter"] = .integer(Int(position(count + 2)))
  try store.commit(extra + [.setDocument(name: "health", value: .object(health))])
  store.close()
  let elapsed = Date().timeIntervalSince(made)
  print(
    String(
      format: "made %@: %d records more than the template's in %.1f s, %.1f MB on disk",
      directory, count, elapsed, Double(directorySize(directory)) / 1e6))
}

private let jsonStoreSources = [
  SourceRevision(
    source: HealthSource(name: "Withings", bundleIdentifier: "com.withings.wiScaleNG"),
    version: "6.1"),
  SourceRevision(
    source: HealthSource(name: "iPhone", bundleIdentifier: "com.apple.health.phone"),
    version: "17.1"),
  SourceRevision(
    source: HealthSource(name: "Apple Watch", bundleIdentifier: "com.apple.health.watch"),
    version: "10.1"),
  SourceRevision(
    source: HealthSource(name: "weigh", bundleIdentifier: "org.weigh.app"), version: "0.1.0"),
]

/// The record at `place` (see `makeHealthJSONStore`).
private func jsonStoreRecord(_ place: Int, position: Int64) -> HealthRecord {
  var mix = UInt64(truncatingIfNeeded: place) &* 0x9E37_79B9_7F4A_7C15 &+ 0x1234_5678
  func next() -> UInt64 {
    mix = mix &+ 0x9E37_79B9_7F4A_7C15
    var z = mix
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  let (high, low) = (next(), next())
  let uuid = withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { bytes in
    UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], 0x40 | bytes[6] & 0x0F,
        bytes[7], 0x80 | bytes[8] & 0x3F, bytes[9], bytes[10], bytes[11], bytes[12],
        bytes[13], bytes[14], bytes[15]
      ))
  }
  let start = Date(timeIntervalSince1970: 1_500_000_000 + Double(place) * 300)
  let source = jsonStoreSources[place % jsonStoreSources.count]
  let type: SampleType
  let value: Double
  switch place % 3 {
  case 0: (type, value) = (.bodyMass, 60 + Double(place % 400) / 10)
  case 1: (type, value) = (.stepCount, Double(10 + place % 900))
  default: (type, value) = (.activeEnergyBurned, 0.5 + Double(place % 50) / 10)
  }
  var metadata: Metadata = [:]
  if place % 10 == 3 {
    metadata[MetadataKey.syncIdentifier] = .string("sync-\(place)")
    metadata[MetadataKey.syncVersion] = .number(Double(1 + place % 3))
  }
  let sample = HealthSample(
    uuid: uuid, type: type, startDate: start,
    endDate: type.isInstantaneous ? start : start.addingTimeInterval(300), value: value,
    sourceRevision: source, device: nil, metadata: metadata,
    creationDate: start.addingTimeInterval(600), workout: nil)
  if place % 40 == 39 {
    return .deletion(
      DeletedObjectRecord(deleting: sample, at: start.addingTimeInterval(3600)),
      position: position)
  }
  return .sample(sample, position: position)
}
