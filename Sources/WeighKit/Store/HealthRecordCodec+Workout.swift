import Foundation
import HealthSim

/// A workout's details and a metadata dictionary in a Health row, by hand: the same bytes
/// Foundation's `JSONEncoder` writes for them (sorted keys, slashes unescaped, whole numbers
/// without ".0", dates as seconds since 2001, an enum case as `{"case":{"_0":…}}`), and read
/// back to the same values `JSONDecoder` gives. Through Foundation a workout cost about
/// 800,000 instructions between its encoding and its read-back (docs/performance.md, "The
/// saving thread's storage, again (hsave12)"). `HealthNestedCodecTests` compares the bytes
/// with `JSONEncoder`'s and the values with `JSONDecoder`'s for random workouts and metadata.
extension HealthRecordCodec {
  /// Writes `workout` as `JSONEncoder` (`.sortedKeys`, `.withoutEscapingSlashes`) writes it.
  /// A number that is not finite is written as `null` and marks the writer
  /// (`wroteNonFiniteNumber`), where `JSONEncoder` threw.
  static func writeWorkout(_ workout: WorkoutDetails, into writer: inout JSONWriter) {
    var members = NestedMembers(&writer)
    members.key("activityType", &writer)
    writer.write(workout.activityType.rawValue)
    members.key("duration", &writer)
    writeNumber(workout.duration, into: &writer)
    if !workout.events.isEmpty {
      members.key("events", &writer)
      writeArray(workout.events, into: &writer) { event, writer in
        var members = NestedMembers(&writer)
        members.key("date", &writer)
        writeNumber(event.date.timeIntervalSinceReferenceDate, into: &writer)
        members.key("duration", &writer)
        writeNumber(event.duration, into: &writer)
        members.key("metadata", &writer)
        writeMetadata(event.metadata, into: &writer)
        members.key("type", &writer)
        writer.write(event.type.rawValue)
        members.end(&writer)
      }
    }
    if !workout.routes.isEmpty {
      members.key("routes", &writer)
      writeArray(workout.routes, into: &writer) { route, writer in writeRoute(route, &writer) }
    }
    if !workout.statistics.isEmpty {
      members.key("statistics", &writer)
      writeArray(workout.statistics, into: &writer) { statistic, writer in
        var members = NestedMembers(&writer)
        members.number("average", statistic.average, &writer)
        members.key("endDate", &writer)
        writeNumber(statistic.endDate.timeIntervalSinceReferenceDate, into: &writer)
        members.number("maximum", statistic.maximum, &writer)
        members.number("minimum", statistic.minimum, &writer)
        members.key("startDate", &writer)
        writeNumber(statistic.startDate.timeIntervalSinceReferenceDate, into: &writer)
        members.number("sum", statistic.sum, &writer)
        members.text("typeIdentifier", statistic.typeIdentifier, &writer)
        members.text("unit", statistic.unit, &writer)
        members.end(&writer)
      }
    }
    members.number("totalDistance", workout.totalDistance, &writer)
    members.number("totalEnergyBurned", workout.totalEnergyBurned, &writer)
    members.end(&writer)
  }

  /// Writes `metadata` as `JSONEncoder` writes it: keys sorted by their UTF-8 bytes, each
  /// value as its case (`{"number":{"_0":70}}`).
  static func writeMetadata(_ metadata: Metadata, into writer: inout JSONWriter) {
    var members = NestedMembers(&writer)
    for (key, value) in metadata.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
    {
      members.key(key, &writer)
      writer.raw(byte: UInt8(ascii: "{"))
      switch value {
      case .string(let text):
        writer.raw("\"string\":{\"_0\":")
        writeText(text, into: &writer)
      case .number(let number):
        writer.raw("\"number\":{\"_0\":")
        writeNumber(number, into: &writer)
      case .bool(let flag):
        writer.raw("\"bool\":{\"_0\":")
        writer.write(flag)
      case .date(let date):
        writer.raw("\"date\":{\"_0\":")
        writeNumber(date.timeIntervalSinceReferenceDate, into: &writer)
      }
      writer.raw("}}")
    }
    members.end(&writer)
  }

  private static func writeRoute(_ route: WorkoutRoute, _ writer: inout JSONWriter) {
    var members = NestedMembers(&writer)
    if let created = route.creationDate {
      members.key("creationDate", &writer)
      writeNumber(created.timeIntervalSinceReferenceDate, into: &writer)
    }
    if let device = route.device {
      members.key("device", &writer)
      var fields = NestedMembers(&writer)
      fields.text("firmwareVersion", device.firmwareVersion, &writer)
      fields.text("hardwareVersion", device.hardwareVersion, &writer)
      fields.text("localIdentifier", device.localIdentifier, &writer)
      fields.text("manufacturer", device.manufacturer, &writer)
      fields.text("model", device.model, &writer)
      fields.text("name", device.name, &writer)
      fields.text("softwareVersion", device.softwareVersion, &writer)
      fields.end(&writer)
    }
    members.key("endDate", &writer)
    writeNumber(route.endDate.timeIntervalSinceReferenceDate, into: &writer)
    members.text("filePath", route.filePath, &writer)
    members.key("metadata", &writer)
    writeMetadata(route.metadata, into: &writer)
    if let revision = route.sourceRevision {
      members.key("sourceRevision", &writer)
      var fields = NestedMembers(&writer)
      fields.text("operatingSystemVersion", revision.operatingSystemVersion, &writer)
      fields.text("productType", revision.productType, &writer)
      fields.key("source", &writer)
      var source = NestedMembers(&writer)
      source.text("bundleIdentifier", revision.source.bundleIdentifier, &writer)
      source.text("name", revision.source.name, &writer)
      source.end(&writer)
      fields.text("version", revision.version, &writer)
      fields.end(&writer)
    }
    members.key("startDate", &writer)
    writeNumber(route.startDate.timeIntervalSinceReferenceDate, into: &writer)
    members.end(&writer)
  }

  private static func writeArray<Element>(
    _ elements: [Element], into writer: inout JSONWriter,
    _ each: (Element, inout JSONWriter) -> Void
  ) {
    writer.raw(byte: UInt8(ascii: "["))
    for (index, element) in elements.enumerated() {
      if index > 0 { writer.raw(byte: UInt8(ascii: ",")) }
      each(element, &writer)
    }
    writer.raw(byte: UInt8(ascii: "]"))
  }

  /// A number as `JSONEncoder` spells it: `description` without a final ".0" (`70`, `70.5`,
  /// `1e-05`, `-0`, `1e+16`).
  private static func writeNumber(_ value: Double, into writer: inout JSONWriter) {
    writer.write(value)
    let count = writer.bytes.count
    if value.isFinite, count >= 2, writer.bytes[count - 1] == UInt8(ascii: "0"),
      writer.bytes[count - 2] == UInt8(ascii: ".")
    {
      writer.bytes.removeLast(2)
    }
  }

  /// A string as `JSONEncoder` escapes it: as `JSONWriter` does, but for a backspace and a
  /// form feed, which it writes as `\b` and `\f` (rare: written a byte at a time).
  private static func writeText(_ text: String, into writer: inout JSONWriter) {
    guard text.utf8.contains(where: { $0 == 0x08 || $0 == 0x0C }) else {
      writer.write(text)
      return
    }
    writer.raw(byte: UInt8(ascii: "\""))
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\u{8}": writer.raw("\\b")
      case "\u{C}": writer.raw("\\f")
      default:
        var one = JSONWriter()
        one.write(String(scalar))
        writer.bytes.append(contentsOf: one.bytes.dropFirst().dropLast())
      }
    }
    writer.raw(byte: UInt8(ascii: "\""))
  }

  /// The members of one object as they are written: the braces, and a comma before every
  /// member but the first.
  private struct NestedMembers {
    private var started = false

    init(_ writer: inout JSONWriter) { writer.raw(byte: UInt8(ascii: "{")) }

    mutating func key(_ name: String, _ writer: inout JSONWriter) {
      if started { writer.raw(byte: UInt8(ascii: ",")) }
      started = true
      HealthRecordCodec.writeText(name, into: &writer)
      writer.raw(byte: UInt8(ascii: ":"))
    }

    mutating func number(_ name: String, _ value: Double?, _ writer: inout JSONWriter) {
      guard let value else { return }
      key(name, &writer)
      HealthRecordCodec.writeNumber(value, into: &writer)
    }

    mutating func text(_ name: String, _ value: String?, _ writer: inout JSONWriter) {
      guard let value else { return }
      key(name, &writer)
      HealthRecordCodec.writeText(value, into: &writer)
    }

    func end(_ writer: inout JSONWriter) { writer.raw(byte: UInt8(ascii: "}")) }
  }
}
