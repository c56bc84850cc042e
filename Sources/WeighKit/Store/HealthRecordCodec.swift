import Foundation
import HealthSim

/// The simulated Health store's samples and deleted-object records, one row per change
/// position (`health.json`), e.g.
/// `{"pos":7,"kind":"sample","uuid":"…","type":"bodyMass","start":…,"end":…,"value":70.2,
/// "source":"Withings","bundle":"sim.withings","created":…}`.
///
/// The plain fields are read and written by hand: through Foundation's Codable, loading
/// 100,000 samples took 2.8 s, nearly all of it in JSONDecoder's per-field machinery. The
/// rare nested parts (device, metadata, workout) still go through Codable.
public enum HealthRecordCodec: StoreTableCodec {
  public static let tableName = "health"
  public static let formatName = "weigh-health"
  public static let formatVersion = 1

  // checked: positions stay below 2^53; Int and Int64 have one width
  public static func id(of row: HealthRecord) -> Int { Int(row.position) }

  public static func encode(_ row: HealthRecord, into writer: inout JSONWriter) {
    switch row {
    case .sample(let sample, let position):
      writer.raw("{\"pos\":")
      // checked: positions stay below 2^53; Int and Int64 have one width
      writer.write(Int(position))
      writer.raw(",\"kind\":\"sample\"")
      writeCommon(
        uuid: sample.uuid!, type: sample.type, start: sample.startDate, end: sample.endDate,
        source: sample.source, into: &writer)
      writer.raw(",\"value\":")
      writer.write(sample.value)
      if let revision = sample.sourceRevision {
        optional("version", revision.version, &writer)
        optional("product", revision.productType, &writer)
        optional("os", revision.operatingSystemVersion, &writer)
      }
      if let created = sample.creationDate {
        writer.raw(",\"created\":")
        writer.write(created.timeIntervalSince1970)
      }
      if let device = sample.device { write(device, into: &writer) }
      if !sample.metadata.isEmpty { nested("metadata", sample.metadata, &writer) }
      if let workout = sample.workout { nested("workout", workout, &writer) }
      writer.raw("}")
    case .deletion(let record, let position):
      writer.raw("{\"pos\":")
      // checked: positions stay below 2^53; Int and Int64 have one width
      writer.write(Int(position))
      writer.raw(",\"kind\":\"deletion\"")
      writeCommon(
        uuid: record.uuid, type: record.type, start: record.startDate, end: record.endDate,
        source: record.source, into: &writer)
      optional("sync_id", record.syncIdentifier, &writer)
      if let version = record.syncVersion {
        writer.raw(",\"sync_version\":")
        writer.write(version)
      }
      writer.raw(",\"deleted\":")
      writer.write(record.deletionDate.timeIntervalSince1970)
      writer.raw("}")
    }
  }

  private static func writeCommon(
    uuid: UUID, type: SampleType, start: Date, end: Date, source: HealthSource?,
    into writer: inout JSONWriter
  ) {
    writer.raw(",\"uuid\":")
    writer.write(uuid.uuidString)
    writer.raw(",\"type\":")
    writer.write(type.rawValue)
    writer.raw(",\"start\":")
    writer.write(start.timeIntervalSince1970)
    writer.raw(",\"end\":")
    writer.write(end.timeIntervalSince1970)
    if let source {
      writer.raw(",\"source\":")
      writer.write(source.name)
      writer.raw(",\"bundle\":")
      writer.write(source.bundleIdentifier)
    }
  }

  private static func optional(_ key: String, _ value: String?, _ writer: inout JSONWriter) {
    guard let value else { return }
    writer.raw(byte: UInt8(ascii: ","))
    writer.write(key)
    writer.raw(byte: UInt8(ascii: ":"))
    writer.write(value)
  }

  /// A device's fields in key order, as Codable wrote them before: an export has a device
  /// on most records, and encoding one through JSONEncoder cost a fifth of an import.
  private static func deviceFields(_ device: HealthDevice) -> [(String, String?)] {
    [
      ("firmwareVersion", device.firmwareVersion), ("hardwareVersion", device.hardwareVersion),
      ("localIdentifier", device.localIdentifier), ("manufacturer", device.manufacturer),
      ("model", device.model), ("name", device.name), ("softwareVersion", device.softwareVersion),
    ]
  }

  private static func write(_ device: HealthDevice, into writer: inout JSONWriter) {
    writer.raw(",\"device\":{")
    var first = true
    for (key, value) in deviceFields(device) {
      guard let value else { continue }
      if !first { writer.raw(byte: UInt8(ascii: ",")) }
      first = false
      writer.write(key)
      writer.raw(byte: UInt8(ascii: ":"))
      writer.write(value)
    }
    writer.raw("}")
  }

  private static func readDevice(_ reader: inout JSONReader) throws(JSONSyntaxError)
    -> HealthDevice
  {
    var fields: [String: String] = [:]
    try reader.beginObject()
    while let key = try reader.nextKey() {
      let name = try reader.decode(key)
      if reader.readNullIfPresent() { continue }
      fields[name] = try reader.readString()
    }
    return HealthDevice(
      name: fields["name"], manufacturer: fields["manufacturer"], model: fields["model"],
      hardwareVersion: fields["hardwareVersion"], firmwareVersion: fields["firmwareVersion"],
      softwareVersion: fields["softwareVersion"], localIdentifier: fields["localIdentifier"])
  }

  private static func nested<T: Encodable>(_ key: String, _ value: T, _ writer: inout JSONWriter) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return }
    writer.raw(byte: UInt8(ascii: ","))
    writer.write(key)
    writer.raw(byte: UInt8(ascii: ":"))
    writer.bytes.append(contentsOf: data)
  }

  public static func decode(from reader: inout JSONReader) throws(JSONSyntaxError) -> HealthRecord {
    var position: Int?
    var isSample: Bool?
    var uuid: UUID?
    var type: SampleType?
    var start: Double?
    var end: Double?
    var value = 0.0
    var sourceName: String?
    var bundle: String?
    var version: String?
    var product: String?
    var os: String?
    var created: Double?
    var device: HealthDevice?
    var metadata: Metadata = [:]
    var workout: WorkoutDetails?
    var syncID: String?
    var syncVersion: Double?
    var deleted: Double?
    try reader.beginObject()
    while let key = try reader.nextKey() {
      if key.equals("pos") {
        position = try reader.readInt()
      } else if key.equals("kind") {
        isSample = try reader.readString() == "sample"
      } else if key.equals("uuid") {
        let offset = reader.offset
        guard let parsed = UUID(uuidString: try reader.readString()) else {
          throw reader.error("not a UUID", at: offset)
        }
        uuid = parsed
      } else if key.equals("type") {
        let offset = reader.offset
        guard let parsed = SampleType(rawValue: try reader.readString()) else {
          throw reader.error("not a sample type", at: offset)
        }
        type = parsed
      } else if key.equals("start") {
        start = try reader.readDouble()
      } else if key.equals("end") {
        end = try reader.readDouble()
      } else if key.equals("value") {
        value = try reader.readDouble()
      } else if key.equals("source") {
        sourceName = try reader.readString()
      } else if key.equals("bundle") {
        bundle = try reader.readString()
      } else if key.equals("version") {
        version = try reader.readString()
      } else if key.equals("product") {
        product = try reader.readString()
      } else if key.equals("os") {
        os = try reader.readString()
      } else if key.equals("created") {
        created = try reader.readDouble()
      } else if key.equals("device") {
        device = try readDevice(&reader)
      } else if key.equals("metadata") {
        metadata = try nested(Metadata.self, &reader)
      } else if key.equals("workout") {
        workout = try nested(WorkoutDetails.self, &reader)
      } else if key.equals("sync_id") {
        syncID = try reader.readString()
      } else if key.equals("sync_version") {
        syncVersion = try reader.readDouble()
      } else if key.equals("deleted") {
        deleted = try reader.readDouble()
      } else {
        try reader.skipValue()
      }
    }
    guard let position, let isSample, let uuid, let type, let start, let end else {
      throw reader.error("a Health record needs pos, kind, uuid, type, start and end")
    }
    let source = sourceName.map { HealthSource(name: $0, bundleIdentifier: bundle ?? "") }
    if isSample {
      let revision = source.map {
        SourceRevision(
          source: $0, version: version, productType: product, operatingSystemVersion: os)
      }
      let sample = HealthSample(
        uuid: uuid, type: type, startDate: Date(timeIntervalSince1970: start),
        endDate: Date(timeIntervalSince1970: end), value: value, sourceRevision: revision,
        device: device, metadata: metadata,
        creationDate: created.map { Date(timeIntervalSince1970: $0) }, workout: workout)
      // checked: positions stay below 2^53; Int and Int64 have one width
      return .sample(sample, position: Int64(position))
    }
    guard let deleted else { throw reader.error("a deletion record needs \"deleted\"") }
    // A deletion record keeps the sync identifier and version, which it reads from the
    // deleted sample's metadata.
    var kept: Metadata = [:]
    if let syncID { kept[MetadataKey.syncIdentifier] = .string(syncID) }
    if let syncVersion { kept[MetadataKey.syncVersion] = .number(syncVersion) }
    let sample = HealthSample(
      uuid: uuid, type: type, startDate: Date(timeIntervalSince1970: start),
      endDate: Date(timeIntervalSince1970: end), value: 0,
      sourceRevision: source.map { SourceRevision(source: $0) }, device: nil, metadata: kept,
      creationDate: nil, workout: nil)
    let record = DeletedObjectRecord(deleting: sample, at: Date(timeIntervalSince1970: deleted))
    // checked: positions stay below 2^53; Int and Int64 have one width
    return .deletion(record, position: Int64(position))
  }

  private static func nested<T: Decodable>(_ type: T.Type, _ reader: inout JSONReader)
    throws(JSONSyntaxError) -> T
  {
    let offset = reader.offset
    let value = try reader.readValue()
    var writer = JSONWriter()
    writer.write(value)
    do {
      return try JSONDecoder().decode(type, from: Data(writer.bytes))
    } catch {
      throw reader.error("not a valid \(T.self): \(error)", at: offset)
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
