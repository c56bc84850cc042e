import Foundation
import HealthSim

/// The simulated Health store's samples and deleted-object records, one row per change
/// position (`health.json`).
///
/// Rows go through Foundation's Codable: Health tables in scripts and tests are small; a
/// hand-written codec like `EntryCodec` is the step to take when a measurement asks for it.
public enum HealthRecordCodec: StoreTableCodec {
  public static let tableName = "health"
  public static let formatName = "weigh-health"
  public static let formatVersion = 1

  public static func id(of row: HealthRecord) -> Int { Int(row.position) }

  public static func encode(_ row: HealthRecord, into writer: inout JSONWriter) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(row)) ?? Data("null".utf8)
    writer.bytes.append(contentsOf: data)
  }

  public static func decode(from reader: inout JSONReader) throws(JSONSyntaxError) -> HealthRecord {
    let value = try reader.readValue()
    var writer = JSONWriter()
    writer.write(value)
    do {
      return try JSONDecoder().decode(HealthRecord.self, from: Data(writer.bytes))
    } catch {
      throw reader.error("not a Health record: \(error)")
    }
  }
}

/// Converts Codable values to and from store documents.
enum DocumentCoding {
  static func encode<T: Encodable>(_ value: T) -> JSONValue {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let data = try? encoder.encode(value) else { return .null }
    return
      (try? JSONReader.withReader(over: Array(data)) { reader throws(JSONSyntaxError) in
        try reader.readValue()
      }) ?? .null
  }

  static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) -> T? {
    var writer = JSONWriter()
    writer.write(value)
    return try? JSONDecoder().decode(type, from: Data(writer.bytes))
  }
}
