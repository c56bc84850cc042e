import Foundation
import HealthSim

/// The simulated Health store's samples and deleted-object records, one row per change
/// position (`health.json`), e.g.
/// `{"pos":7,"kind":"sample","uuid":"…","type":"bodyMass","start":…,"end":…,"value":70.2,
/// "source":"Withings","bundle":"sim.withings","created":…}`.
///
/// The plain fields are read and written by hand: through Foundation's Codable, loading
/// 100,000 samples took 2.8 s, nearly all of it in JSONDecoder's per-field machinery. The
/// rare nested parts (device, metadata, workout, a correlation's objects) still go through
/// Codable.
public enum HealthRecordCodec: StoreTableCodec {
  public static let tableName = "health"
  public static let formatName = "weigh-health"
  public static let formatVersion = 1

  // checked: positions stay below 2^53; Int and Int64 have one width
  public static func id(of row: HealthRecord) -> Int { Int(row.position) }

  public static func encode(_ row: HealthRecord, into writer: inout JSONWriter) {
    switch row {
    case .sample(let sample, let position):
      encode(sample, position: position, into: &writer)
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

  /// The JSON row of a live sample at `position`, as `encode(_:into:)` writes it, without
  /// a record around the sample (the storage's save writes it from the sample it has).
  static func encode(_ sample: HealthSample, position: Int64, into writer: inout JSONWriter) {
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
    if let device = sample.device {
      writer.raw(byte: UInt8(ascii: ","))
      writeDevice(device, into: &writer)
    }
    writeNested(of: sample, into: &writer)
    writer.raw("}")
  }

  /// The members of `sample`'s JSON row written through Codable (metadata, workout,
  /// objects), as `encode` writes them, without a comma before the first: what format 2
  /// keeps in a row's `extra` (`HealthSQLiteRowParts`). Nothing for a sample without them.
  /// A number that is not finite is written as `null` and marks `writer`
  /// (`wroteNonFiniteNumber`): such parts are never stored.
  static func writeNestedParts(of sample: HealthSample, into writer: inout JSONWriter) {
    var parts = JSONWriter()
    writeNested(of: sample, into: &parts)
    writer.bytes.append(contentsOf: parts.bytes.dropFirst())
    if parts.wroteNonFiniteNumber { writer.noteNonFiniteNumber() }
  }

  /// The members metadata, workout and objects, each after a comma, when the sample has
  /// them. Metadata and a workout are written by hand (`HealthRecordCodec+Workout.swift`),
  /// the same bytes as `JSONEncoder`'s; a correlation's objects still through it.
  private static func writeNested(of sample: HealthSample, into writer: inout JSONWriter) {
    if !sample.metadata.isEmpty {
      writer.raw(",\"metadata\":")
      writeMetadata(sample.metadata, into: &writer)
    }
    if let workout = sample.workout {
      writer.raw(",\"workout\":")
      writeWorkout(workout, into: &writer)
    }
    if let objects = sample.objects { nested("objects", objects, &writer) }
  }

  /// The record a query decodes from the JSON row `encode(_:position:into:)` writes for
  /// `sample` at `position`, made from the sample instead of the row: for a sample with a
  /// row shape only (`HealthRowShape`: no metadata, workout or objects, every number within
  /// its rule), whose row holds its texts and numbers as they stand. It is what `decode`
  /// builds from such a row: the dates through seconds since 1970 (the row's numbers, which
  /// read back as the same Doubles), the other fields as they are. Reading back the first
  /// row of each shape checks the encoder's steps for the shape; this saves decoding the
  /// others (a command's writer keeps them for the anchored read of what it just wrote:
  /// 10,700 instructions a row, 4 % of ten simulated years on disk).
  /// `HealthRecordLoadedTests` checks it against `decode` for 2,000 random samples of
  /// several hundred shapes. The value is kept with +0.0 for a zero of either sign, as
  /// format 2's `value` column reads back (`HealthSQLiteRowParts`).
  static func loaded(_ sample: HealthSample, position: Int64) -> HealthRecord {
    func throughRow(_ date: Date) -> Date {
      Date(timeIntervalSince1970: date.timeIntervalSince1970)
    }
    let loaded = HealthSample(
      uuid: sample.uuid, type: sample.type, startDate: throughRow(sample.startDate),
      endDate: throughRow(sample.endDate), value: sample.value + 0.0,
      sourceRevision: sample.sourceRevision, device: sample.device, metadata: [:],
      creationDate: sample.creationDate.map(throughRow), workout: nil, objects: nil)
    return .sample(loaded, position: position)
  }

  private static func writeCommon(
    uuid: UUID, type: SampleType, start: Date, end: Date, source: HealthSource?,
    into writer: inout JSONWriter
  ) {
    writer.raw(",\"uuid\":")
    UUIDText.write(uuid, into: &writer)
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
  /// on most records, and encoding one through JSONEncoder cost a fifth of an import. The
  /// keys are written as they stand (no array of the fields: 6,000 instructions a sample).
  static func writeDevice(_ device: HealthDevice, into writer: inout JSONWriter) {
    writer.raw("\"device\":{")
    var first = true
    func field(_ key: StaticString, _ value: String?) {
      guard let value else { return }
      if !first { writer.raw(byte: UInt8(ascii: ",")) }
      first = false
      writer.raw(key)
      writer.write(value)
    }
    field("\"firmwareVersion\":", device.firmwareVersion)
    field("\"hardwareVersion\":", device.hardwareVersion)
    field("\"localIdentifier\":", device.localIdentifier)
    field("\"manufacturer\":", device.manufacturer)
    field("\"model\":", device.model)
    field("\"name\":", device.name)
    field("\"softwareVersion\":", device.softwareVersion)
    writer.raw("}")
  }

  static func readDevice(_ reader: inout JSONReader) throws(JSONSyntaxError)
    -> HealthDevice
  {
    // Each field by its key, as the keys are read (a dictionary of the fields cost a third
    // of reading a row back); a repeated key keeps its last value, null is no value, and
    // another key's value must still be a string.
    var name: String?
    var manufacturer: String?
    var model: String?
    var hardware: String?
    var firmware: String?
    var software: String?
    var local: String?
    try reader.beginObject()
    while let key = try reader.nextKey() {
      let value = reader.readNullIfPresent() ? nil : try reader.readString()
      if key.equals("name") {
        name = value
      } else if key.equals("manufacturer") {
        manufacturer = value
      } else if key.equals("model") {
        model = value
      } else if key.equals("hardwareVersion") {
        hardware = value
      } else if key.equals("firmwareVersion") {
        firmware = value
      } else if key.equals("softwareVersion") {
        software = value
      } else if key.equals("localIdentifier") {
        local = value
      }
    }
    return HealthDevice(
      name: name, manufacturer: manufacturer, model: model, hardwareVersion: hardware,
      firmwareVersion: firmware, softwareVersion: software, localIdentifier: local)
  }

  /// Writes `,"key":` and `value` through `JSONEncoder`. It throws only for a number that
  /// is not finite: then `null` stands in its place and the writer is marked
  /// (`wroteNonFiniteNumber`), so the row is refused instead of stored without the member.
  private static func nested<T: Encodable>(_ key: String, _ value: T, _ writer: inout JSONWriter) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    writer.raw(byte: UInt8(ascii: ","))
    writer.write(key)
    writer.raw(byte: UInt8(ascii: ":"))
    guard let data = try? encoder.encode(value) else {
      writer.raw("null")
      writer.noteNonFiniteNumber()
      return
    }
    writer.bytes.append(contentsOf: data)
  }

  /// The range of a sample's `value`, by type, in the type's canonical unit.
  static func valueRule(for type: SampleType) -> StoredValueRule {
    switch type {
    case .bodyMass: .kilograms
    case .bloodGlucose: .glucose
    case .stepCount: .steps
    case .activeEnergyBurned: .kilocalories
    case .appleExerciseTime: .exerciseMinutes
    case .workout: .workoutMinutes
    case .height: .healthAmount("a height", unit: "m")
    case .bodyMassIndex: .healthAmount("a body mass index", unit: "kg/m²")
    case .bodyFatPercentage: .bodyFatFraction
    case .leanBodyMass: .healthAmount("a lean body mass", unit: "kg")
    case .basalEnergyBurned: .healthAmount("a basal energy", unit: "kcal")
    case .distanceWalkingRunning: .healthAmount("a distance", unit: "m")
    case .heartRate: .healthAmount("a heart rate", unit: "count/min")
    case .bloodPressureSystolic, .bloodPressureDiastolic:
      .healthAmount("a blood pressure", unit: "mmHg")
    case .bloodPressure: .correlationValue
    }
  }

  /// Reads one record. Every value is checked where it stands (`StoredValueRule`): times
  /// in 1900–9999, a sample's value in its type's range, whole sync versions and positions;
  /// a wrong type or an out-of-range value is an error at the value. Unknown members are
  /// skipped; `sync_id`, `sync_version`, `created`, `device`, `metadata`, `workout` and
  /// `objects` (a correlation's samples) are optional.
  public static func decode(from reader: inout JSONReader) throws(JSONSyntaxError) -> HealthRecord {
    let objectStart = reader.offset
    var position: Int?
    var isSample: Bool?
    var uuid: UUID?
    var type: SampleType?
    var start: Double?
    var end: Double?
    var endOffset = 0
    var value: Double?
    var valueOffset = 0
    var sourceName: String?
    var bundle: String?
    var version: String?
    var product: String?
    var os: String?
    var created: Double?
    var device: HealthDevice?
    var metadata: Metadata = [:]
    var metadataOffset = 0
    var workout: WorkoutDetails?
    var workoutOffset = 0
    var objects: [HealthSample]?
    var syncID: String?
    var syncVersion: Double?
    var deleted: Double?
    try reader.beginObject()
    while let key = try reader.nextKey() {
      if key.equals("pos") {
        position = try reader.readWhole("pos", .position)
      } else if key.equals("kind") {
        reader.skipWhitespace()
        let offset = reader.offset
        let kind = try reader.readString("kind")
        guard kind == "sample" || kind == "deletion" else {
          throw reader.error("expected kind \"sample\" or \"deletion\"", at: offset)
        }
        isSample = kind == "sample"
      } else if key.equals("uuid") {
        reader.skipWhitespace()
        let offset = reader.offset
        guard let parsed = UUIDText.parse(try reader.readString("uuid")) else {
          throw reader.error("not a UUID", at: offset)
        }
        uuid = parsed
      } else if key.equals("type") {
        reader.skipWhitespace()
        let offset = reader.offset
        guard let parsed = SampleType(rawValue: try reader.readString("type")) else {
          throw reader.error(
            "not a sample type; expected one of "
              + SampleType.allCases.map(\.rawValue).joined(separator: ", "), at: offset)
        }
        type = parsed
      } else if key.equals("start") {
        start = try reader.readNumber("start", .instant)
      } else if key.equals("end") {
        reader.skipWhitespace()
        endOffset = reader.offset
        end = try reader.readNumber("end", .instant)
      } else if key.equals("value") {
        reader.skipWhitespace()
        valueOffset = reader.offset
        guard let byte = reader.peek(), byte == 0x2D || (0x30...0x39).contains(byte) else {
          throw reader.wrongType("value", "a number")
        }
        value = try reader.readDouble()
      } else if key.equals("source") {
        sourceName = try reader.readString("source")
      } else if key.equals("bundle") {
        bundle = try reader.readString("bundle")
      } else if key.equals("version") {
        version = try reader.readString("version")
      } else if key.equals("product") {
        product = try reader.readString("product")
      } else if key.equals("os") {
        os = try reader.readString("os")
      } else if key.equals("created") {
        created = try reader.readNumber("created", .instant)
      } else if key.equals("device") {
        device = try readDevice(&reader)
      } else if key.equals("metadata") {
        reader.skipWhitespace()
        metadataOffset = reader.offset
        metadata = try nested(Metadata.self, &reader, readMetadata)
      } else if key.equals("workout") {
        reader.skipWhitespace()
        workoutOffset = reader.offset
        workout = try nested(WorkoutDetails.self, &reader, readWorkout)
      } else if key.equals("objects") {
        objects = try nested([HealthSample].self, &reader)
      } else if key.equals("sync_id") {
        syncID = try reader.readString("sync_id")
      } else if key.equals("sync_version") {
        syncVersion = try reader.readNumber("sync_version", .syncVersion)
      } else if key.equals("deleted") {
        deleted = try reader.readNumber("deleted", .instant)
      } else {
        try reader.skipValue()
      }
    }
    guard let position, let isSample, let uuid, let type, let start, let end else {
      let missing = [
        position == nil ? "pos" : nil, isSample == nil ? "kind" : nil, uuid == nil ? "uuid" : nil,
        type == nil ? "type" : nil, start == nil ? "start" : nil, end == nil ? "end" : nil,
      ].compactMap { $0 }
      throw reader.error(
        "a Health record needs pos, kind, uuid, type, start and end; this one lacks "
          + missing.joined(separator: ", "), at: objectStart)
    }
    guard end >= start else {
      throw reader.error(
        "\"end\" is before \"start\"; a sample cannot end before it starts",
        at: endOffset)
    }
    let source = sourceName.map { HealthSource(name: $0, bundleIdentifier: bundle ?? "") }
    if isSample {
      guard let value else {
        throw reader.error("a sample needs \"value\"", at: objectStart)
      }
      let rule = valueRule(for: type)
      guard rule.contains(value) else {
        var probe = JSONReader(bytes: reader.bytes, offset: valueOffset)
        _ = try probe.readNumberText()
        let text = String(
          decoding: UnsafeBufferPointer(rebasing: reader.bytes[valueOffset..<probe.offset]),
          as: UTF8.self)
        throw reader.error(rule.message(member: "value", found: text), at: valueOffset)
      }
      try check(metadata, at: metadataOffset, &reader)
      if let workout { try check(workout, at: workoutOffset, &reader) }
      let revision = source.map {
        SourceRevision(
          source: $0, version: version, productType: product, operatingSystemVersion: os)
      }
      let sample = HealthSample(
        uuid: uuid, type: type, startDate: Date(timeIntervalSince1970: start),
        endDate: Date(timeIntervalSince1970: end), value: value, sourceRevision: revision,
        device: device, metadata: metadata,
        creationDate: created.map { Date(timeIntervalSince1970: $0) }, workout: workout,
        objects: objects)
      // checked: positions stay below 2^53; Int and Int64 have one width
      return .sample(sample, position: Int64(position))
    }
    guard let deleted else {
      throw reader.error("a deletion record needs \"deleted\"", at: objectStart)
    }
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

  /// Checks the metadata values weigh computes with: the sync version is a whole number in
  /// range, dates are in 1900–9999, numbers are finite.
  private static func check(_ metadata: Metadata, at offset: Int, _ reader: inout JSONReader)
    throws(JSONSyntaxError)
  {
    for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
      let problem: String?
      switch value {
      case .number(let number) where key == MetadataKey.syncVersion:
        problem =
          StoredValueRule.syncVersion.contains(number)
          ? nil : StoredValueRule.syncVersion.message(member: key, found: "\(number)")
      case .string where key == MetadataKey.syncVersion, .bool where key == MetadataKey.syncVersion,
        .date where key == MetadataKey.syncVersion:
        problem = "\"\(key)\" must be a number (the sync version)"
      case .number(let number):
        problem = number.isFinite ? nil : "metadata \"\(key)\" is not a finite number"
      case .date(let date):
        problem =
          StoredValueRule.instant.contains(date.timeIntervalSince1970)
          ? nil
          : StoredValueRule.instant.message(
            member: key, found: "\(date.timeIntervalSinceReferenceDate)")
      case .string, .bool:
        problem = nil
      }
      if let problem { throw reader.error("in \"metadata\": \(problem)", at: offset) }
    }
  }

  /// Checks a workout's duration, energy and distance, its events' durations and the dates
  /// of its events, statistics and routes.
  private static func check(_ workout: WorkoutDetails, at offset: Int, _ reader: inout JSONReader)
    throws(JSONSyntaxError)
  {
    var problem: String?
    if !StoredValueRule.durationSeconds.contains(workout.duration) {
      problem = StoredValueRule.durationSeconds.message(
        member: "duration", found: "\(workout.duration)")
    } else if let energy = workout.totalEnergyBurned, !StoredValueRule.kilocalories.contains(energy)
    {
      problem = StoredValueRule.kilocalories.message(
        member: "totalEnergyBurned", found: "\(energy)")
    } else if let distance = workout.totalDistance, !StoredValueRule.meters.contains(distance) {
      problem = StoredValueRule.meters.message(member: "totalDistance", found: "\(distance)")
    } else if let event = workout.events.first(where: {
      !StoredValueRule.durationSeconds.contains($0.duration)
    }) {
      problem = StoredValueRule.durationSeconds.message(
        member: "events.duration", found: "\(event.duration)")
    } else if let date = workoutDates(workout).first(where: {
      !StoredValueRule.instant.contains($0.timeIntervalSince1970)
    }) {
      problem = StoredValueRule.instant.message(
        member: "a date in events, statistics or routes",
        found: "\(date.timeIntervalSinceReferenceDate)")
    }
    if let problem { throw reader.error("in \"workout\": \(problem)", at: offset) }
  }

  /// Every date inside a workout's events, statistics and routes.
  private static func workoutDates(_ workout: WorkoutDetails) -> [Date] {
    let routeDates = workout.routes.flatMap {
      [$0.startDate, $0.endDate] + ($0.creationDate.map { [$0] } ?? [])
    }
    return workout.events.map(\.date)
      + workout.statistics.flatMap { [$0.startDate, $0.endDate] } + routeDates
  }

  /// The value at the reader, read by `byHand` when it can (nil otherwise: then through
  /// `JSONDecoder`, whose answer, value or error, is the one given before `byHand` existed).
  private static func nested<T: Decodable>(
    _ type: T.Type, _ reader: inout JSONReader, _ byHand: (JSONValue) -> T? = { _ in nil }
  ) throws(JSONSyntaxError) -> T {
    let offset = reader.offset
    let value = try reader.readValue()
    if let read = byHand(value) { return read }
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
  /// `value` as a JSON document.
  ///
  /// - Throws: `StoreError.invalidChange` when it cannot be encoded (a non-finite number):
  ///   such a document is not stored, rather than stored as `null`.
  static func encode<T: Encodable>(_ value: T) throws(StoreError) -> JSONValue {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data: Data
    do {
      data = try encoder.encode(value)
    } catch {
      throw StoreError(.invalidChange, message: "cannot encode \(T.self): \(error)")
    }
    do throws(JSONSyntaxError) {
      return try JSONReader.withReader(over: Array(data)) { reader throws(JSONSyntaxError) in
        try reader.readValue()
      }
    } catch {
      throw StoreError(
        .invalidChange, message: "cannot read back \(T.self) as encoded: \(error.message)")
    }
  }

  static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) -> T? {
    var writer = JSONWriter()
    writer.write(value)
    return try? JSONDecoder().decode(type, from: Data(writer.bytes))
  }
}

extension UUIDText {
  private static let upperHexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

  /// Writes `uuid` as a JSON string, as `uuidString` spells it (upper case, `8-4-4-4-12`),
  /// without Foundation's `snprintf` (6,000 instructions a UUID, every saved sample's).
  static func write(_ uuid: UUID, into writer: inout JSONWriter) {
    writer.raw(byte: UInt8(ascii: "\""))
    withUnsafeBytes(of: uuid.uuid) { bytes in
      for (index, byte) in bytes.enumerated() {
        if index == 4 || index == 6 || index == 8 || index == 10 {
          writer.raw(byte: UInt8(ascii: "-"))
        }
        writer.raw(byte: upperHexDigits[Int(byte >> 4)])  // checked: a 4-bit nibble
        writer.raw(byte: upperHexDigits[Int(byte & 0xF)])  // checked: a 4-bit nibble
      }
    }
    writer.raw(byte: UInt8(ascii: "\""))
  }
}

/// UUIDs in text, read without Foundation's parser (which runs `sscanf`: 8,000 instructions
/// a UUID, 3 % of ten simulated years on disk, where each Health row read decodes one).
enum UUIDText {
  /// The UUID `text` spells in the canonical form (`8-4-4-4-12` hex digits, either case);
  /// any other text is left to Foundation, so that what it reads is read the same.
  static func parse(_ text: String) -> UUID? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(16)
    var high: UInt8?
    var index = 0
    for character in text.utf8 {
      defer { index += 1 }
      if index == 8 || index == 13 || index == 18 || index == 23 {
        guard character == UInt8(ascii: "-") else { return UUID(uuidString: text) }
        continue
      }
      let digit: UInt8
      switch character {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = character - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = character - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = character - UInt8(ascii: "A") + 10
      default: return UUID(uuidString: text)
      }
      if let first = high {
        bytes.append(first << 4 | digit)
        high = nil
      } else {
        high = digit
      }
    }
    guard index == 36, bytes.count == 16 else { return UUID(uuidString: text) }
    return UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      ))
  }
}
