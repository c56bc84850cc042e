import Foundation
import HealthSim

/// Maps Health samples to the records and workouts of Apple's export format and back.
///
/// Export writes each value in its type's canonical unit (kg, mg/dL, count, kcal, min), so
/// the number written is the number stored and reading it back gives the same Double.
enum HealthExportMapping {
  /// The object address written into device descriptions; Apple's vary per record and
  /// identify nothing, so a stable one keeps exports reproducible.
  static let deviceAddress: UInt64 = 0x2_82a4_5810

  // MARK: Samples to export items

  /// The `Record` for a quantity sample, dates in `zone` with each moment's own offset.
  static func record(for sample: HealthSample, zone: ZonedClock) -> HealthExportRecord {
    HealthExportRecord(
      type: sample.type.identifier, sourceName: sample.source?.name ?? "Health",
      sourceVersion: sample.sourceRevision?.version,
      device: sample.device.map(deviceText), unit: sample.type.canonicalUnit.unitString,
      creationDate: sample.creationDate.map { exportDate($0, zone) },
      startDate: exportDate(sample.startDate, zone),
      endDate: exportDate(sample.endDate, zone), value: number(sample.value),
      metadata: metadataEntries(sample.metadata, zone: zone))
  }

  /// The `Correlation` for a correlation sample (its records are written by the caller).
  static func correlation(for sample: HealthSample, zone: ZonedClock)
    -> HealthExportCorrelation
  {
    HealthExportCorrelation(
      type: sample.type.identifier, sourceName: sample.source?.name ?? "Health",
      sourceVersion: sample.sourceRevision?.version, device: sample.device.map(deviceText),
      creationDate: sample.creationDate.map { exportDate($0, zone) },
      startDate: exportDate(sample.startDate, zone),
      endDate: exportDate(sample.endDate, zone),
      metadata: metadataEntries(sample.metadata, zone: zone))
  }

  /// The `Workout` for a workout sample: duration in min, distance in km, energy in kcal,
  /// and its events, statistics and routes.
  static func workout(for sample: HealthSample, zone: ZonedClock) -> HealthExportWorkout {
    let details = sample.workout
    let parts = exportParts(of: details, zone: zone)
    return HealthExportWorkout(
      activityType: (details?.activityType ?? .other).exportName,
      duration: number(sample.value), durationUnit: "min",
      totalDistance: details?.totalDistance.map { number($0 / 1000) },
      totalDistanceUnit: details?.totalDistance == nil ? nil : "km",
      totalEnergyBurned: details?.totalEnergyBurned.map(number),
      totalEnergyBurnedUnit: details?.totalEnergyBurned == nil ? nil : "kcal",
      sourceName: sample.source?.name ?? "Health", sourceVersion: sample.sourceRevision?.version,
      device: sample.device.map(deviceText),
      creationDate: sample.creationDate.map { exportDate($0, zone) },
      startDate: exportDate(sample.startDate, zone),
      endDate: exportDate(sample.endDate, zone),
      metadata: metadataEntries(sample.metadata, zone: zone), events: parts.events,
      statistics: parts.statistics, routes: parts.routes)
  }

  /// Apple's description of a device.
  static func deviceText(_ device: HealthDevice) -> String {
    HealthExportDevice(
      name: device.name, manufacturer: device.manufacturer, model: device.model,
      hardware: device.hardwareVersion, firmware: device.firmwareVersion,
      software: device.softwareVersion, localIdentifier: device.localIdentifier
    ).exportDescription(address: deviceAddress)
  }

  /// Metadata sorted by key, values as Apple prints them (booleans 0/1, dates like the
  /// record's own dates).
  static func metadataEntries(_ metadata: Metadata, zone: ZonedClock)
    -> [HealthExportMetadataEntry]
  {
    metadata.keys.sorted().map { key in
      let value = metadata[key]!
      let text: String
      if case .date(let date) = value {
        text = exportDate(date, zone).description
      } else {
        text = value.description
      }
      return HealthExportMetadataEntry(key: key, value: text)
    }
  }

  /// A number as short as reads back exactly: `70`, `68.5`, `0.1`.
  static func number(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15, let whole = Int64(exactly: value) {
      return String(whole)
    }
    return "\(value)"
  }

  static func exportDate(_ date: Date, _ zone: ZonedClock) -> HealthExportDate {
    HealthExportDate(instant: Instant.seconds(of: date), zone: zone)
  }

  // MARK: Export items to samples

  /// A sample to save and the revision to save it as.
  struct Imported {
    var sample: HealthSample
    var revision: SourceRevision
  }

  /// Devices and sources already read in one import: an export repeats a few of each
  /// over hundreds of thousands of records, and reading a device string costs more than
  /// the rest of a record (half of an import's time, measured with perf, before this).
  final class Cache {
    /// Devices by the text after the object address (`>, name:…>`), for descriptions in
    /// Apple's form whose address is plain ASCII (`fieldsStart`).
    private var devices: [String: HealthDevice] = [:]
    /// Devices by their whole text, for any other text.
    private var otherDevices: [String: HealthDevice] = [:]
    /// The text after the address of the last few devices read, and the devices: records
    /// come from two or three devices in turn. The oldest is replaced first.
    private var recent: [(fields: [UInt8], device: HealthDevice)] = []
    private var nextRecent = 0
    /// Sources by name, made once each (the bundle is derived from the name).
    private var sources: [String: HealthSource] = [:]

    func device(_ text: String) -> HealthDevice {
      var contiguous = text
      return contiguous.withUTF8 { bytes in
        guard let start = Self.fieldsStart(bytes) else {
          if let known = otherDevices[text] { return known }
          let device = HealthExportMapping.device(text)
          otherDevices[text] = device
          return device
        }
        let fields = UnsafeBufferPointer(rebasing: bytes[start...])
        // By index: a copy of each entry would copy its device's seven strings.
        for index in recent.indices where recent[index].fields.count == fields.count {
          let same = recent[index].fields.withUnsafeBufferPointer {
            memcmp($0.baseAddress!, fields.baseAddress!, fields.count) == 0
          }
          if same { return recent[index].device }
        }
        let key = String(decoding: fields, as: UTF8.self)
        let device: HealthDevice
        if let known = devices[key] {
          device = known
        } else {
          // Reads the whole text: the address is skipped there. A description Apple's parse
          // refuses names the device by the whole text, address and all: not kept by its
          // fields, or every later record with those fields would get the first one's name.
          guard let parsed = HealthExportMapping.appleDevice(text) else {
            return HealthDevice(name: text)
          }
          device = parsed
          devices[key] = device
        }
        if recent.count < 4 {
          recent.append((Array(fields), device))
        } else {
          recent[nextRecent] = (Array(fields), device)
          nextRecent = (nextRecent + 1) % 4
        }
        return device
      }
    }

    /// Where the fields of Apple's description start (its first `>`), when the device it
    /// describes depends on them alone: the text starts with `<<HKDevice:`, everything
    /// before the `>` is ASCII and what follows it is ASCII too, so that `>` is a character
    /// of its own (`HealthExportDevice(exportDescription:)` skips the address up to it).
    /// Nil for any other text.
    static func fieldsStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
      let prefix: StaticString = "<<HKDevice:"
      let count = prefix.utf8CodeUnitCount
      guard bytes.count > count else { return nil }
      for k in 0..<count where bytes[k] != prefix.utf8Start[k] { return nil }
      var k = count
      while k < bytes.count {
        let byte = bytes[k]
        if byte >= 0x80 { return nil }
        if byte == 0x3E { break }
        k += 1
      }
      // The `>` is the last byte (no fields: an empty suffix) or one of ASCII is after it.
      guard k + 1 < bytes.count, bytes[k + 1] < 0x80 else { return nil }
      return k
    }

    /// The last few unit texts read and their units: records of two or three types take
    /// turns (steps and energy), and `HealthUnit(from:)` compares the text with each unit it
    /// knows (with the last unit alone, the 10 MB export asked it 25,575 times). The oldest
    /// is replaced first.
    // Unchecked, the units and revisions: asked once a record each, their dynamic exclusivity
    // checks cost about 70 instructions a call (1.8 M of thread 2's 214 M, callgrind, 10 MB
    // export). Neither method calls out while it accesses them.
    @exclusivity(unchecked) private var recentUnits: [(text: String, unit: HealthUnit?)] = []
    @exclusivity(unchecked) private var nextRecentUnit = 0

    /// `HealthUnit(from: text)`.
    func unit(_ text: String) -> HealthUnit? {
      for entry in recentUnits where entry.text == text { return entry.unit }
      let unit = HealthUnit(from: text)
      if recentUnits.count < 4 {
        recentUnits.append((text, unit))
      } else {
        recentUnits[nextRecentUnit] = (text, unit)
        nextRecentUnit = (nextRecentUnit + 1) % 4
      }
      return unit
    }

    /// The revisions made so far, one for each source name and version: every sample of one
    /// revision shares its revision's storage (`SourceRevision` is a reference to its fields),
    /// and no record makes a new one (one allocation and its release a record before).
    @exclusivity(unchecked) private var revisions: [RevisionKey: SourceRevision] = [:]
    /// The last few revisions handed out, compared before the dictionary is asked: their
    /// texts come from the reader's memos, so equal ones share storage and compare at once.
    @exclusivity(unchecked) private var recentRevisions:
      [(key: RevisionKey, revision: SourceRevision)] = []
    @exclusivity(unchecked) private var nextRecentRevision = 0

    struct RevisionKey: Hashable {
      var name: String
      var version: String?
    }

    /// The revision of `name` at `version`: the same one (one storage) for equal texts.
    func revision(_ name: String, _ version: String?) -> SourceRevision {
      // By index: a copy of each entry would retain its texts.
      for index in recentRevisions.indices
      where recentRevisions[index].key.name == name && recentRevisions[index].key.version == version
      {
        return recentRevisions[index].revision
      }
      let key = RevisionKey(name: name, version: version)
      let revision: SourceRevision
      if let known = revisions[key] {
        revision = known
      } else {
        revision = SourceRevision(source: source(name), version: version)
        revisions[key] = revision
      }
      if recentRevisions.count < 4 {
        recentRevisions.append((key, revision))
      } else {
        recentRevisions[nextRecentRevision] = (key, revision)
        nextRecentRevision = (nextRecentRevision + 1) % 4
      }
      return revision
    }

    /// The source called `name`, made once.
    private func source(_ name: String) -> HealthSource {
      if let known = sources[name] { return known }
      let source = HealthExportMapping.revision(name, nil).source
      sources[name] = source
      return source
    }
  }

  /// The sample of a record of a type weigh models (`types` names it), or why not.
  ///
  /// The unit is read from the record and converted to the canonical unit; values are
  /// checked as `health add` checks them.
  static func sample(
    from record: HealthExportRecord, type: SampleType, line: Int, cache: Cache = Cache()
  ) throws(ImportRejection) -> Imported {
    let name = typeName(type)
    guard let unitText = record.unit, let unit = cache.unit(unitText),
      unit.dimension == type.canonicalUnit.dimension
    else {
      let written = record.unit.map { "unit '\($0)'" } ?? "no unit"
      throw ImportRejection(
        line: line, reason: "\(name) with \(written); expected \(expectedUnits(type))")
    }
    guard let text = record.value, let number = numberValue(text) else {
      throw ImportRejection(
        line: line, reason: "\(name) value '\(record.value ?? "")' is not a number")
    }
    let value = number * unit.canonicalFactor / type.canonicalUnit.canonicalFactor
    let measure: Measure? =
      switch type {
      case .bodyMass: .mass
      case .bloodGlucose: .glucose
      case .stepCount: .steps
      case .activeEnergyBurned: .energy
      case .appleExerciseTime: .exerciseMinutes
      case .height: .height
      case .leanBodyMass: .mass
      case .workout, .bodyMassIndex, .bodyFatPercentage, .basalEnergyBurned,
        .distanceWalkingRunning, .heartRate, .bloodPressureSystolic, .bloodPressureDiastolic,
        .bloodPressure:
        nil
      }
    if let measure, !measure.contains(value) {
      throw ImportRejection(
        line: line,
        reason:
          "\(name) \(text) \(unitText) is out of range: \(measure.noun) must be \(measure.rangeText)"
      )
    }
    guard record.endDate.instant >= record.startDate.instant else {
      throw ImportRejection(line: line, reason: "\(name) ends before it starts")
    }
    try checkStored(
      type, value: value, written: "\(text) \(unitText)",
      instants: record.startDate.instant, record.endDate.instant, line: line)
    let start = Date(timeIntervalSince1970: TimeInterval(record.startDate.instant))
    let end =
      type.isInstantaneous
      ? start : Date(timeIntervalSince1970: TimeInterval(record.endDate.instant))
    let sample = HealthSample(
      type: type, value: value, start: start, end: end,
      device: record.resolvedDevice ?? record.device.map(cache.device),
      metadata: try metadata(record.metadata, line: line))
    return Imported(
      sample: sample, revision: cache.revision(record.sourceName, record.sourceVersion))
  }

  /// The sample of a workout, or why not. Activity types weigh does not model become
  /// `other`; distance and energy are read in their written units.
  static func sample(from workout: HealthExportWorkout, line: Int, cache: Cache = Cache())
    throws(ImportRejection) -> Imported
  {
    guard workout.endDate.instant >= workout.startDate.instant else {
      throw ImportRejection(line: line, reason: "workout ends before it starts")
    }
    let seconds: Double
    if workout.duration != nil {
      guard let minutes = workout.durationMinutes, minutes.isFinite, minutes >= 0 else {
        throw ImportRejection(
          line: line,
          reason:
            "workout duration '\(workout.duration ?? "")' \(workout.durationUnit ?? "") is not a number of min, s or hr"
        )
      }
      seconds = minutes * 60
      guard seconds <= Double(ValueLimits.durationSeconds.upperBound) else {
        throw ImportRejection(
          line: line,
          reason: "workout duration '\(workout.duration ?? "")' is longer than 1000 years")
      }
    } else {
      seconds = Double(workout.endDate.instant - workout.startDate.instant)
    }
    // iOS 16 and later may leave the totals out and give WorkoutStatistics sums instead.
    let energyStatistics = workout.statistics.first {
      $0.type == SampleType.activeEnergyBurned.identifier && $0.sum != nil
    }
    let distanceStatistics = workout.statistics.first {
      $0.type.hasPrefix("HKQuantityTypeIdentifierDistance") && $0.sum != nil
    }
    let energy = try quantity(
      workout.totalEnergyBurned ?? energyStatistics?.sum,
      unit: workout.totalEnergyBurned != nil
        ? workout.totalEnergyBurnedUnit : energyStatistics?.unit,
      default: "kcal", in: .kilocalorie, what: "workout energy", line: line)
    let distance = try distance(
      workout.totalDistance ?? distanceStatistics?.sum,
      unit: workout.totalDistance != nil ? workout.totalDistanceUnit : distanceStatistics?.unit,
      line: line)
    try checkStored(
      .workout, value: seconds / 60, written: "of \(seconds / 60) min",
      instants: workout.startDate.instant, workout.endDate.instant, line: line)
    if let energy, !StoredValueRule.kilocalories.contains(energy) {
      throw ImportRejection(
        line: line,
        reason:
          "workout energy \(energy) kcal is out of range: \(StoredValueRule.kilocalories.range)")
    }
    if let distance, !StoredValueRule.meters.contains(distance) {
      throw ImportRejection(
        line: line,
        reason: "workout distance \(distance) m is out of range: \(StoredValueRule.meters.range)")
    }
    let details = WorkoutDetails(
      activityType: activityType(workout.activityType), duration: seconds,
      totalEnergyBurned: energy, totalDistance: distance,
      events: try events(of: workout, line: line),
      statistics: try statistics(of: workout, line: line),
      routes: try routes(of: workout, line: line, cache: cache))
    let start = Date(timeIntervalSince1970: TimeInterval(workout.startDate.instant))
    let sample = HealthSample(
      workout: details, start: start,
      end: Date(timeIntervalSince1970: TimeInterval(workout.endDate.instant)),
      device: workout.device.map(cache.device), metadata: try metadata(workout.metadata, line: line)
    )
    return Imported(
      sample: sample, revision: cache.revision(workout.sourceName, workout.sourceVersion))
  }

  /// `DecimalText.parseJSONNumber(text)`, read from the text's bytes: the generic reading
  /// checks every byte through the string's view first (about 350 instructions a record of
  /// three digits; callgrind, 10 MB export).
  static func numberValue(_ text: String) -> Double? {
    var text = text
    return text.withUTF8 { DecimalText.parseJSONNumber(utf8: $0) }
  }

  /// The event types by their export spelling, as `WorkoutEventType(exportName:)` finds
  /// them: that initializer spells each case out through reflection, about 95,000
  /// instructions a lookup (callgrind, 10 MB export: 6.1 M for its 64 events).
  static let eventTypes: [String: WorkoutEventType] = Dictionary(
    uniqueKeysWithValues: WorkoutEventType.allCases.map { ($0.exportName, $0) })

  /// `HKWorkoutActivityTypeRunning` → `.running`; unknown activities → `.other`.
  static func activityType(_ exportName: String) -> HealthSim.WorkoutActivityType {
    let prefix = "HKWorkoutActivityType"
    guard exportName.hasPrefix(prefix) else { return .other }
    let rest = exportName.dropFirst(prefix.count)
    let raw = rest.prefix(1).lowercased() + rest.dropFirst()
    return HealthSim.WorkoutActivityType(rawValue: raw) ?? .other
  }

  /// A device from Apple's description; text in another shape becomes the device's name.
  static func device(_ text: String) -> HealthDevice {
    appleDevice(text) ?? HealthDevice(name: text)
  }

  /// The device of Apple's description, or nil for text in another shape.
  static func appleDevice(_ text: String) -> HealthDevice? {
    guard let parsed = HealthExportDevice(exportDescription: text) else { return nil }
    return HealthDevice(
      name: parsed.name, manufacturer: parsed.manufacturer, model: parsed.model,
      hardwareVersion: parsed.hardware, firmwareVersion: parsed.firmware,
      softwareVersion: parsed.software, localIdentifier: parsed.localIdentifier)
  }

  /// Metadata from an export: HealthKit's boolean and number keys become numbers again so
  /// that `user-entered` and sync versions work; everything else stays the text it was.
  static func metadata(_ entries: [HealthExportMetadataEntry], line: Int)
    throws(ImportRejection) -> Metadata
  {
    var metadata: Metadata = [:]
    for entry in entries {
      if numericKeys.contains(entry.key), let number = DecimalText.parseJSONNumber(entry.value) {
        // The store reads back only finite numbers and sync versions in range.
        let rule: StoredValueRule? =
          entry.key == MetadataKey.syncVersion ? .syncVersion : nil
        guard number.isFinite, rule?.contains(number) ?? true else {
          throw ImportRejection(
            line: line,
            reason: "metadata \(entry.key) '\(entry.value)' is out of range"
              + (rule.map { ": \($0.noun) is \($0.range)" } ?? ""))
        }
        metadata[entry.key] = .number(number)
      } else if entry.key == MetadataKey.syncVersion {
        throw ImportRejection(
          line: line, reason: "metadata \(entry.key) '\(entry.value)' is not a number")
      } else {
        metadata[entry.key] = .string(entry.value)
      }
    }
    return metadata
  }

  static let numericKeys: Set<String> = [MetadataKey.wasUserEntered, MetadataKey.syncVersion]

  /// The revision a record's source saves as; the bundle is derived from the name, as
  /// `health add` derives it.
  static func revision(_ name: String, _ version: String?) -> SourceRevision {
    SourceRevision(
      source: HealthSource(name: name, bundleIdentifier: HealthAddCommand.bundle(for: name)),
      version: version)
  }

  /// The language's word for a type (`glucose`), for messages.
  static func typeName(_ type: SampleType) -> String {
    switch type {
    case .bodyMass: "weight"
    case .bloodGlucose: "glucose"
    case .stepCount: "steps"
    case .activeEnergyBurned: "energy"
    case .appleExerciseTime: "exercise"
    case .workout: "workout"
    case .height: "height"
    case .bodyMassIndex: "body mass index"
    case .bodyFatPercentage: "body fat"
    case .leanBodyMass: "lean body mass"
    case .basalEnergyBurned: "basal energy"
    case .distanceWalkingRunning: "walking and running distance"
    case .heartRate: "heart rate"
    case .bloodPressureSystolic: "systolic blood pressure"
    case .bloodPressureDiastolic: "diastolic blood pressure"
    case .bloodPressure: "blood pressure"
    }
  }

  static func expectedUnits(_ type: SampleType) -> String {
    switch type {
    case .bodyMass: "kg, lb, g or st"
    case .bloodGlucose: "mg/dL or mmol/L"
    case .stepCount: "count"
    case .activeEnergyBurned: "kcal, Cal or kJ"
    case .appleExerciseTime, .workout: "min, s or hr"
    case .height, .distanceWalkingRunning: "m, cm, km, in, ft or mi"
    case .bodyMassIndex: "count"
    case .bodyFatPercentage: "%"
    case .leanBodyMass: "kg, lb, g or st"
    case .basalEnergyBurned: "kcal, Cal or kJ"
    case .heartRate: "count/min"
    case .bloodPressureSystolic, .bloodPressureDiastolic: "mmHg"
    case .bloodPressure: "no unit (a correlation)"
    }
  }

  /// Rejects what the store would refuse to load (`StoredValueRule`): a value outside its
  /// type's range, or a time outside 1900–9999.
  private static func checkStored(
    _ type: SampleType, value: Double, written: @autoclosure () -> String,
    instants start: Int64, _ end: Int64, line: Int
  ) throws(ImportRejection) {
    let rule = HealthRecordCodec.valueRule(for: type)
    guard rule.contains(value) else {
      throw ImportRejection(
        line: line,
        reason: "\(typeName(type)) \(written()) is out of range: \(rule.noun) is \(rule.range)")
    }
    guard StoredValueRule.wholeInstant.contains(start), StoredValueRule.wholeInstant.contains(end)
    else {
      throw ImportRejection(
        line: line, reason: "\(typeName(type)) is dated outside 1900-01-01 to 9999-12-31")
    }
  }

  private static func quantity(
    _ text: String?, unit: String?, default defaultUnit: String, in target: HealthUnit,
    what: String, line: Int
  ) throws(ImportRejection) -> Double? {
    guard let text else { return nil }
    guard let number = DecimalText.parseJSONNumber(text), number >= 0,
      let unit = HealthUnit(from: unit ?? defaultUnit), unit.dimension == target.dimension
    else {
      throw ImportRejection(
        line: line, reason: "\(what) '\(text)' \(unit ?? "") is not a number of kcal, Cal or kJ")
    }
    return number * unit.canonicalFactor / target.canonicalFactor
  }

  private static func distance(_ text: String?, unit: String?, line: Int)
    throws(ImportRejection) -> Double?
  {
    guard let text else { return nil }
    let metres: [String: Double] = ["m": 1, "km": 1000, "mi": 1609.344, "yd": 0.9144, "ft": 0.3048]
    guard let number = DecimalText.parseJSONNumber(text), number >= 0,
      let factor = metres[unit ?? "km"]
    else {
      throw ImportRejection(
        line: line,
        reason: "workout distance '\(text)' \(unit ?? "") is not a number of m, km or mi")
    }
    return number * factor
  }
}
