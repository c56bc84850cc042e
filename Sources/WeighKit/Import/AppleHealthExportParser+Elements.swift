import Foundation
import HealthSim

/// The elements of an Apple Health export that weigh reads.
enum ElementKind: String {
  case healthData = "HealthData"
  case exportDate = "ExportDate"
  case me = "Me"
  case record = "Record"
  case metadataEntry = "MetadataEntry"
  case correlation = "Correlation"
  case workout = "Workout"
  case workoutEvent = "WorkoutEvent"
  case workoutStatistics = "WorkoutStatistics"
  case workoutRoute = "WorkoutRoute"
  case fileReference = "FileReference"
  case activitySummary = "ActivitySummary"
  case other = ""

  private static let known: [ElementKind] = [
    .healthData, .exportDate, .me, .record, .metadataEntry, .correlation, .workout,
    .workoutEvent, .workoutStatistics, .workoutRoute, .fileReference, .activitySummary,
  ]
  private static let knownBytes: [[UInt8]] = known.map { Array($0.rawValue.utf8) }

  /// Identifies the name between `start` and `end` without allocating.
  init(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
    let count = end - start
    // Record and MetadataEntry are nearly every element; test them first, against the
    // literal's own bytes (the table behind `knownBytes` costs a lazy global's check).
    // As words (`RecordAttributes.named`): byte by byte, this took about 75 instructions a
    // tag (callgrind, 100 MB export, weights only: 26.9 M of 1,137 M).
    if count == 6, RecordAttributes.named(p, start, "Record") {
      self = .record
      return
    }
    if count == 13, RecordAttributes.named(p, start, "MetadataEntry") {
      self = .metadataEntry
      return
    }
    for (index, bytes) in Self.knownBytes.enumerated()
    where bytes.count == count && Self.equal(p, start, bytes) {
      self = Self.known[index]
      return
    }
    self = .other
  }

  @inline(__always)
  static func equal(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ bytes: [UInt8]) -> Bool {
    for k in 0..<bytes.count where p[start + k] != bytes[k] { return false }
    return true
  }
}

extension AppleHealthExportParser {
  /// The attribute called `name` of the tag just read.
  func attribute(_ p: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> AttributeSlice? {
    let count = name.utf8CodeUnitCount
    let bytes = name.utf8Start
    for index in 0..<attributeCount {
      let slice = attributes[index]
      guard slice.nameEnd - slice.nameStart == count else { continue }
      // Four to sixteen bytes as words (`type` for every record, `value` for every
      // metadata entry): the byte loop made `attribute` 24.9 M of 1,137 M (callgrind,
      // 100 MB export, weights only).
      if (4...16).contains(count) {
        if RecordAttributes.named(p, slice.nameStart, name) { return slice }
        continue
      }
      if (0..<count).allSatisfy({ p[slice.nameStart + $0] == bytes[$0] }) { return slice }
    }
    return nil
  }

  func string(_ p: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> String? {
    attribute(p, name).map { value(p, $0) }
  }

  func allAttributes(_ p: UnsafeBufferPointer<UInt8>) -> [HealthExportAttribute] {
    attributes[0..<attributeCount].map {
      HealthExportAttribute(name: Self.text(p, $0.nameStart, $0.nameEnd), value: value(p, $0))
    }
  }

  /// A required attribute, or the reason it is missing.
  func required(_ p: UnsafeBufferPointer<UInt8>, _ name: StaticString, of element: String)
    throws(ImportRejection) -> String
  {
    guard let text = string(p, name) else {
      throw ImportRejection(line: line, reason: "<\(element)> has no \(name); it is required")
    }
    return text
  }

  func date(_ p: UnsafeBufferPointer<UInt8>, _ name: StaticString, of element: String)
    throws(ImportRejection) -> HealthExportDate?
  {
    try date(p, attribute(p, name), name, of: element)
  }

  /// The date in `slice`, the attribute called `name`, or nil without one.
  func date(
    _ p: UnsafeBufferPointer<UInt8>, _ slice: AttributeSlice?, _ name: StaticString,
    of element: String
  ) throws(ImportRejection) -> HealthExportDate? {
    guard let slice else { return nil }
    if !slice.needsDecoding,
      let date = dates.parse(UnsafeBufferPointer(rebasing: p[slice.valueStart..<slice.valueEnd]))
    {
      return date
    }
    let text = value(p, slice)
    guard let date = HealthExportDate.parse(text) else {
      throw ImportRejection(
        line: line,
        reason:
          "\(name) '\(text)' of <\(element)> is not a date like 2026-01-03 07:30:00 +0100 (or iOS 8's 20260103073000+0100)"
      )
    }
    return date
  }

  func requiredDate(_ p: UnsafeBufferPointer<UInt8>, _ name: StaticString, of element: String)
    throws(ImportRejection) -> HealthExportDate
  {
    try requiredDate(p, attribute(p, name), name, of: element)
  }

  /// The date in `slice`, the attribute called `name`, or why there is none.
  func requiredDate(
    _ p: UnsafeBufferPointer<UInt8>, _ slice: AttributeSlice?, _ name: StaticString,
    of element: String
  ) throws(ImportRejection) -> HealthExportDate {
    guard let date = try date(p, slice, name, of: element) else {
      throw ImportRejection(line: line, reason: "<\(element)> has no \(name); it is required")
    }
    return date
  }

  func metadataEntry(_ p: UnsafeBufferPointer<UInt8>) -> HealthExportMetadataEntry {
    HealthExportMetadataEntry(key: string(p, "key") ?? "", value: string(p, "value") ?? "")
  }

  func wants(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let wantedTypes else { return true }
    guard let type = attribute(p, "type") else { return true }
    let count = type.valueEnd - type.valueStart
    // The last byte first: the types share their first 24 (`HKQuantityTypeIdentifier`).
    for wanted in wantedTypes
    where wanted.count == count && (count == 0 || wanted[count - 1] == p[type.valueEnd - 1]) {
      // memcmp: the byte loop took about 230 instructions a record (callgrind, 10 MB).
      let same = wanted.withUnsafeBufferPointer {
        count == 0 || memcmp($0.baseAddress!, p.baseAddress! + type.valueStart, count) == 0
      }
      if same { return true }
    }
    return false
  }

  /// Handles a start tag whose attributes are in `attributes`.
  func opened(
    _ p: UnsafeBufferPointer<UInt8>, kind: ElementKind, nameStart: Int, nameEnd: Int,
    selfClosing: Bool, line tagLine: Int, at markupStart: Int
  ) throws {
    guard let parent = stack.last else {
      let name = Self.text(p, nameStart, nameEnd)
      guard !rootClosed else {
        throw error(
          at: markupStart, "a second root element <\(name)>; an export has one <HealthData>")
      }
      guard kind == .healthData else {
        throw error(
          at: markupStart,
          "the root element is <\(name)>, not <HealthData>; this is not an Apple Health export")
      }
      sawRoot = true
      try handler(.healthData(locale: string(p, "locale")), tagLine)
      if selfClosing {
        rootClosed = true
      } else {
        stack.append(StackEntry(kind: kind, skipping: false))
      }
      return
    }
    var skipping = parent.skipping
    if !skipping {
      do {
        switch (parent.kind, kind) {
        case (.healthData, .record):
          if wants(p) {
            // The record made straight into the item or the property: through a local it
            // was copied twice and released three times (about 700 instructions a record;
            // callgrind, 10 MB export).
            if selfClosing {
              try handler(.record(buildRecord(p)), tagLine)
            } else {
              record = try buildRecord(p)
              recordLine = tagLine
            }
          } else {
            skipping = true
          }
        case (.healthData, .exportDate):
          try handler(.exportDate(string(p, "value") ?? ""), tagLine)
        case (.healthData, .me):
          try handler(.me(allAttributes(p)), tagLine)
        case (.healthData, .activitySummary):
          try handler(.activitySummary(allAttributes(p)), tagLine)
        case (.healthData, .workout) where !wantsWorkouts,
          (.healthData, .correlation) where !wants(p):
          skipping = true
        case (.healthData, .workout):
          let built = try buildWorkout(p)
          if selfClosing {
            try handler(.workout(built), tagLine)
          } else {
            workout = built
            workoutLine = tagLine
          }
        case (.healthData, .correlation):
          let built = try buildCorrelation(p)
          if selfClosing {
            try handler(.correlation(built), tagLine)
          } else {
            correlation = built
            correlationLine = tagLine
          }
        case (.record, .metadataEntry):
          record?.metadata.append(metadataEntry(p))
        case (.workout, .metadataEntry):
          workout?.metadata.append(metadataEntry(p))
        case (.workoutEvent, .metadataEntry):
          workoutEvent?.metadata.append(metadataEntry(p))
        case (.workoutRoute, .metadataEntry):
          workoutRoute?.metadata.append(metadataEntry(p))
        case (.workoutRoute, .fileReference):
          workoutRoute?.filePath = string(p, "path")
        case (.correlation, .metadataEntry):
          correlation?.metadata.append(metadataEntry(p))
        case (.correlation, .record):
          // Apple repeats a correlation's records at the top level; count them once.
          correlation?.skippedRecords += 1
          skipping = true
        case (.workout, .workoutEvent):
          let event = HealthExportWorkoutEvent(
            type: try required(p, "type", of: "WorkoutEvent"),
            date: try requiredDate(p, "date", of: "WorkoutEvent"),
            duration: string(p, "duration"), durationUnit: string(p, "durationUnit"))
          if selfClosing { workout?.events.append(event) } else { workoutEvent = event }
        case (.workout, .workoutRoute):
          let route = HealthExportWorkoutRoute(
            sourceName: try required(p, "sourceName", of: "WorkoutRoute"),
            sourceVersion: string(p, "sourceVersion"), device: string(p, "device"),
            creationDate: try date(p, "creationDate", of: "WorkoutRoute"),
            startDate: try requiredDate(p, "startDate", of: "WorkoutRoute"),
            endDate: try requiredDate(p, "endDate", of: "WorkoutRoute"))
          if selfClosing { workout?.routes.append(route) } else { workoutRoute = route }
        case (.workout, .workoutStatistics):
          workout?.statistics.append(
            HealthExportWorkoutStatistics(
              type: try required(p, "type", of: "WorkoutStatistics"),
              startDate: try requiredDate(p, "startDate", of: "WorkoutStatistics"),
              endDate: try requiredDate(p, "endDate", of: "WorkoutStatistics"),
              average: string(p, "average"), minimum: string(p, "minimum"),
              maximum: string(p, "maximum"), sum: string(p, "sum"), unit: string(p, "unit")))
        default:
          // Inline route locations, heart-rate-variability lists, clinical records: not
          // weigh's business.
          skipping = true
        }
      } catch let rejection as ImportRejection {
        let type: String?
        switch (parent.kind, kind) {
        case (.healthData, .workout), (.workout, _), (.workoutEvent, _), (.workoutRoute, _):
          type = healthWorkoutType
        case (.healthData, _): type = string(p, "type")
        case (.record, _): type = record?.type
        case (.correlation, _): type = correlation?.type
        default: type = nil
        }
        try handler(
          .invalid(ImportRejection(line: tagLine, reason: rejection.reason, recordType: type)),
          tagLine)
        if parent.kind == .workout || parent.kind == .correlation || parent.kind == .record {
          // A bad child spoils its parent: report the parent once, through this rejection.
          record = nil
          workout = nil
          correlation = nil
          markParentSkipping()
        }
        skipping = true
      }
    }
    if !selfClosing {
      if kind == .other { otherNames.append(Array(p[nameStart..<nameEnd])) }
      stack.append(StackEntry(kind: kind, skipping: skipping))
    }
  }

  private func markParentSkipping() {
    if !stack.isEmpty { stack[stack.count - 1].skipping = true }
  }

  /// Handles the end of an element that has just been popped.
  func closed(_ kind: ElementKind) throws {
    switch kind {
    case .healthData:
      rootClosed = true
    case .record:
      if let finished = record {
        record = nil
        try handler(.record(finished), recordLine)
      }
    case .workoutEvent:
      if let finished = workoutEvent {
        workoutEvent = nil
        workout?.events.append(finished)
      }
    case .workoutRoute:
      if let finished = workoutRoute {
        workoutRoute = nil
        workout?.routes.append(finished)
      }
    case .workout:
      if let finished = workout {
        workout = nil
        try handler(.workout(finished), workoutLine)
      }
    case .correlation:
      if let finished = correlation {
        correlation = nil
        try handler(.correlation(finished), correlationLine)
      }
    default:
      break
    }
  }

  func buildRecord(_ p: UnsafeBufferPointer<UInt8>) throws(ImportRejection) -> HealthExportRecord {
    let found = attributes.withUnsafeBufferPointer {
      RecordAttributes(p, UnsafeBufferPointer(rebasing: $0[0..<attributeCount]))
    }
    guard let type = found.type else {
      throw ImportRejection(line: line, reason: "<Record> has no type; it is required")
    }
    guard let source = found.sourceName ?? found.source else {
      throw ImportRejection(
        line: line, reason: "<Record> has no sourceName (or iOS 8's source); it is required")
    }
    // The memos used in place (`recordMemos` is unchecked): taken out and put back by a
    // `defer`, the record was made in a temporary, copied and released (about 450
    // instructions a record with a fresh `RecordMemos`; callgrind, 10 MB export).
    // The dates first (they may throw), then the record made whole in one initializer: a
    // record made and then changed field by field was copied twice (about 440 instructions
    // a record with the copies' releases; callgrind, 10 MB export).
    let creationDate = try recordDate(p, found.creationDate, "creationDate", &recordMemos.dates)
    guard let startDate = try recordDate(p, found.startDate, "startDate", &recordMemos.dates) else {
      throw ImportRejection(line: line, reason: "<Record> has no startDate; it is required")
    }
    guard let endDate = try recordDate(p, found.endDate, "endDate", &recordMemos.dates) else {
      throw ImportRejection(line: line, reason: "<Record> has no endDate; it is required")
    }
    let device: String?
    let resolvedDevice: HealthDevice?
    if resolvingDevices, let slice = found.device {
      device = nil
      resolvedDevice = recordMemos.devices.device(p, slice.valueStart, slice.valueEnd) {
        value(p, slice)
      }
    } else {
      device = found.device.map { value(p, $0) }
      resolvedDevice = nil
    }
    if tagRepaired { repairedElements += 1 }
    return HealthExportRecord(
      type: value(p, type, memo: &recordMemos.type),
      sourceName: value(p, source, memo: &recordMemos.source),
      sourceVersion: found.sourceVersion.map { value(p, $0, memo: &recordMemos.version) },
      device: device, unit: found.unit.map { value(p, $0, memo: &recordMemos.unit) },
      creationDate: creationDate, startDate: startDate, endDate: endDate,
      value: found.value.map { value(p, $0) },
      metadata: found.others > 0 ? extraAttributes(p, known: Self.recordAttributes) : [],
      repairedAttributes: tagRepaired, resolvedDevice: resolvedDevice)
  }

  /// The date in `slice` read through `reader` (a record's own memo of days and offsets), or
  /// what `date(_:_:_:of:)` makes of it when that reading fails.
  @inline(__always)
  private func recordDate(
    _ p: UnsafeBufferPointer<UInt8>, _ slice: AttributeSlice?, _ name: StaticString,
    _ reader: inout HealthExportDate.Reader
  ) throws(ImportRejection) -> HealthExportDate? {
    guard let slice else { return nil }
    if !slice.needsDecoding,
      let date = reader.parse(UnsafeBufferPointer(rebasing: p[slice.valueStart..<slice.valueEnd]))
    {
      return date
    }
    return try date(p, slice, name, of: "Record")
  }

  /// The attributes a `Record` may have; iOS 8 wrote `source` for `sourceName`.
  static let recordAttributes: [[UInt8]] = [
    "type", "sourceName", "source", "sourceVersion", "device", "unit", "creationDate",
    "startDate", "endDate", "value",
  ].map { Array($0.utf8) }

  /// Attributes not in `known`, as metadata: iOS 8 wrote metadata as attributes named by
  /// their keys (`HKWasUserEntered="1"`, `Health Mate App Version="2.6.2"`).
  func extraAttributes(_ p: UnsafeBufferPointer<UInt8>, known: [[UInt8]])
    -> [HealthExportMetadataEntry]
  {
    var entries: [HealthExportMetadataEntry] = []
    outer: for slice in attributes[0..<attributeCount] {
      let count = slice.nameEnd - slice.nameStart
      for name in known where name.count == count && ElementKind.equal(p, slice.nameStart, name) {
        continue outer
      }
      entries.append(
        HealthExportMetadataEntry(
          key: Self.text(p, slice.nameStart, slice.nameEnd), value: value(p, slice)))
    }
    return entries
  }

  /// `sourceName`, or iOS 8's `source`.
  func sourceName(_ p: UnsafeBufferPointer<UInt8>, of element: String) throws(ImportRejection)
    -> String
  {
    if let name = string(p, "sourceName") ?? string(p, "source") { return name }
    throw ImportRejection(
      line: line, reason: "<\(element)> has no sourceName (or iOS 8's source); it is required")
  }

  func buildWorkout(_ p: UnsafeBufferPointer<UInt8>) throws(ImportRejection) -> HealthExportWorkout
  {
    var workout = HealthExportWorkout(
      activityType: try required(p, "workoutActivityType", of: "Workout"),
      duration: string(p, "duration"), durationUnit: string(p, "durationUnit"),
      totalDistance: string(p, "totalDistance"), totalDistanceUnit: string(p, "totalDistanceUnit"),
      totalEnergyBurned: string(p, "totalEnergyBurned"),
      totalEnergyBurnedUnit: string(p, "totalEnergyBurnedUnit"),
      sourceName: try sourceName(p, of: "Workout"),
      sourceVersion: string(p, "sourceVersion"), device: string(p, "device"),
      creationDate: try date(p, "creationDate", of: "Workout"),
      startDate: try requiredDate(p, "startDate", of: "Workout"),
      endDate: try requiredDate(p, "endDate", of: "Workout"))
    workout.metadata = extraAttributes(p, known: Self.workoutAttributes)
    workout.repairedAttributes = tagRepaired
    if tagRepaired { repairedElements += 1 }
    return workout
  }

  /// The attributes a `Workout` may have.
  static let workoutAttributes: [[UInt8]] = [
    "workoutActivityType", "duration", "durationUnit", "totalDistance", "totalDistanceUnit",
    "totalEnergyBurned", "totalEnergyBurnedUnit", "sourceName", "source", "sourceVersion",
    "device", "creationDate", "startDate", "endDate",
  ].map { Array($0.utf8) }

  func buildCorrelation(_ p: UnsafeBufferPointer<UInt8>) throws(ImportRejection)
    -> HealthExportCorrelation
  {
    var correlation = HealthExportCorrelation(
      type: try required(p, "type", of: "Correlation"),
      sourceName: try sourceName(p, of: "Correlation"),
      sourceVersion: string(p, "sourceVersion"), device: string(p, "device"),
      creationDate: try date(p, "creationDate", of: "Correlation"),
      startDate: try requiredDate(p, "startDate", of: "Correlation"),
      endDate: try requiredDate(p, "endDate", of: "Correlation"))
    correlation.metadata = extraAttributes(p, known: Self.correlationAttributes)
    correlation.repairedAttributes = tagRepaired
    if tagRepaired { repairedElements += 1 }
    return correlation
  }

  /// The attributes a `Correlation` may have.
  static let correlationAttributes: [[UInt8]] = [
    "type", "sourceName", "source", "sourceVersion", "device", "creationDate", "startDate",
    "endDate",
  ].map { Array($0.utf8) }
}

/// Where a `Record`'s attributes are, found in one pass over the tag's attributes: the first
/// of each name, as `AppleHealthExportParser.attribute` finds it.
struct RecordAttributes {
  var type: AttributeSlice?
  var sourceName: AttributeSlice?
  var source: AttributeSlice?
  var sourceVersion: AttributeSlice?
  var device: AttributeSlice?
  var unit: AttributeSlice?
  var creationDate: AttributeSlice?
  var startDate: AttributeSlice?
  var endDate: AttributeSlice?
  var value: AttributeSlice?
  /// Attributes of other names (metadata written as attributes).
  var others = 0

  init(_ p: UnsafeBufferPointer<UInt8>, _ attributes: UnsafeBufferPointer<AttributeSlice>) {
    for slice in attributes {
      let start = slice.nameStart
      // Told apart by length, then compared whole in one or two words: the byte loops this
      // replaced took about 900 instructions a record (callgrind, 10 MB export).
      switch slice.nameEnd - start {
      case 4:
        if Self.named(p, start, "type") {
          if type == nil { type = slice }
        } else if Self.named(p, start, "unit") {
          if unit == nil { unit = slice }
        } else {
          others += 1
        }
      case 5 where Self.named(p, start, "value"): if value == nil { value = slice }
      case 6:
        if Self.named(p, start, "source") {
          if source == nil { source = slice }
        } else if Self.named(p, start, "device") {
          if device == nil { device = slice }
        } else {
          others += 1
        }
      case 7 where Self.named(p, start, "endDate"): if endDate == nil { endDate = slice }
      case 9 where Self.named(p, start, "startDate"): if startDate == nil { startDate = slice }
      case 10 where Self.named(p, start, "sourceName"): if sourceName == nil { sourceName = slice }
      case 12 where Self.named(p, start, "creationDate"):
        if creationDate == nil { creationDate = slice }
      case 13 where Self.named(p, start, "sourceVersion"):
        if sourceVersion == nil { sourceVersion = slice }
      default: others += 1
      }
    }
  }

  /// Whether the `name.utf8CodeUnitCount` bytes from `start` (the caller checked the count,
  /// 4 to 16) are `name`'s: the first and the last four or eight bytes of each, which overlap
  /// and so cover every byte, compared as words. The literal's words fold to constants.
  @inline(__always)
  static func named(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ name: StaticString) -> Bool {
    let count = name.utf8CodeUnitCount
    let bytes = UnsafeRawPointer(p.baseAddress! + start)
    let literal = UnsafeRawPointer(name.utf8Start)
    if count < 8 {
      return bytes.loadUnaligned(as: UInt32.self) == literal.loadUnaligned(as: UInt32.self)
        && bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
          == literal.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
    }
    return bytes.loadUnaligned(as: UInt64.self) == literal.loadUnaligned(as: UInt64.self)
      && bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        == literal.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
  }
}
