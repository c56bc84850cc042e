import HealthSim

/// The live Health samples that carry a sync identifier, again, by change position
/// (`health-sync.json`, rows as in `health.json`). A store reopened without its older
/// Health records reads this small table instead, to match and replace sync identifiers.
public enum HealthSyncIndexCodec: StoreTableCodec {
  public static let tableName = "health-sync"
  public static let formatName = "weigh-health-sync"
  public static let formatVersion = 1

  public static func id(of row: HealthRecord) -> Int { HealthRecordCodec.id(of: row) }

  public static func encode(_ row: HealthRecord, into writer: inout JSONWriter) {
    HealthRecordCodec.encode(row, into: &writer)
  }

  public static func decode(from reader: inout JSONReader) throws(JSONSyntaxError) -> HealthRecord {
    try HealthRecordCodec.decode(from: &reader)
  }
}
