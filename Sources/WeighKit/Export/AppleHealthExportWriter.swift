import Foundation
import ZIPFoundation

/// Writes an `export.xml` in Apple's shape: XML declaration, inline DTD, `HealthData`,
/// `ExportDate`, `Me`, then records and workouts with attributes in Apple's order.
///
/// Output is buffered and handed to `sink` in chunks, so a large export is never held whole.
public final class AppleHealthExportWriter {
  /// The `Me` attributes of an export whose characteristics are not set.
  public static let unsetMe: [HealthExportAttribute] = [
    .init(name: "HKCharacteristicTypeIdentifierDateOfBirth", value: ""),
    .init(name: "HKCharacteristicTypeIdentifierBiologicalSex", value: "HKBiologicalSexNotSet"),
    .init(name: "HKCharacteristicTypeIdentifierBloodType", value: "HKBloodTypeNotSet"),
    .init(
      name: "HKCharacteristicTypeIdentifierFitzpatrickSkinType",
      value: "HKFitzpatrickSkinTypeNotSet"),
    .init(name: "HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse", value: "None"),
  ]

  private var buffer: [UInt8] = []
  private let sink: ([UInt8]) throws -> Void
  private var finished = false

  /// Starts an export: writes the prologue, DTD, `HealthData`, `ExportDate` and `Me`.
  public init(
    locale: String = "en_US", exportDate: HealthExportDate,
    me: [HealthExportAttribute] = AppleHealthExportWriter.unsetMe,
    sink: @escaping ([UInt8]) throws -> Void
  ) {
    self.sink = sink
    buffer.reserveCapacity(1 << 20)
    append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
    append(AppleHealthExportDTD.text)
    append("\n<HealthData locale=\"\(Self.escape(locale))\">\n")
    append(" <ExportDate value=\"\(exportDate)\"/>\n <Me")
    for attribute in me { append(" \(attribute.name)=\"\(Self.escape(attribute.value))\"") }
    append("/>\n")
  }

  /// Writes one top-level record with its metadata.
  public func write(_ record: HealthExportRecord) throws {
    append(" <Record")
    appendRecordAttributes(record)
    appendChildren(record.metadata.map(Self.metadataLine), indent: "  ", close: " </Record>\n")
    try flushIfFull()
  }

  /// Writes a workout with its metadata, events, statistics and routes.
  public func write(_ workout: HealthExportWorkout) throws {
    append(" <Workout")
    attribute("workoutActivityType", workout.activityType)
    attribute("duration", workout.duration)
    attribute("durationUnit", workout.durationUnit)
    attribute("totalDistance", workout.totalDistance)
    attribute("totalDistanceUnit", workout.totalDistanceUnit)
    attribute("totalEnergyBurned", workout.totalEnergyBurned)
    attribute("totalEnergyBurnedUnit", workout.totalEnergyBurnedUnit)
    attribute("sourceName", workout.sourceName)
    attribute("sourceVersion", workout.sourceVersion)
    attribute("device", workout.device)
    attribute("creationDate", workout.creationDate?.description)
    attribute("startDate", workout.startDate.description)
    attribute("endDate", workout.endDate.description)
    var children = workout.metadata.map(Self.metadataLine)
    for event in workout.events {
      var line = "<WorkoutEvent type=\"\(Self.escape(event.type))\" date=\"\(event.date)\""
      if let duration = event.duration { line += " duration=\"\(Self.escape(duration))\"" }
      if let unit = event.durationUnit { line += " durationUnit=\"\(Self.escape(unit))\"" }
      if event.metadata.isEmpty {
        children.append(line + "/>")
      } else {
        children.append(line + ">")
        children += event.metadata.map { " " + Self.metadataLine($0) }
        children.append("</WorkoutEvent>")
      }
    }
    for statistics in workout.statistics {
      var line = "<WorkoutStatistics type=\"\(Self.escape(statistics.type))\""
      line += " startDate=\"\(statistics.startDate)\" endDate=\"\(statistics.endDate)\""
      for (name, value) in [
        ("average", statistics.average), ("minimum", statistics.minimum),
        ("maximum", statistics.maximum), ("sum", statistics.sum), ("unit", statistics.unit),
      ] {
        if let value { line += " \(name)=\"\(Self.escape(value))\"" }
      }
      children.append(line + "/>")
    }
    for route in workout.routes { children += Self.routeLines(route) }
    appendChildren(children, indent: "  ", close: " </Workout>\n")
    try flushIfFull()
  }

  /// Writes a correlation with its member records, which must also be written at the top
  /// level, as Apple does.
  public func write(_ correlation: HealthExportCorrelation, records: [HealthExportRecord]) throws {
    append(" <Correlation")
    attribute("type", correlation.type)
    attribute("sourceName", correlation.sourceName)
    attribute("sourceVersion", correlation.sourceVersion)
    attribute("device", correlation.device)
    attribute("creationDate", correlation.creationDate?.description)
    attribute("startDate", correlation.startDate.description)
    attribute("endDate", correlation.endDate.description)
    append(">\n")
    for entry in correlation.metadata { append("  \(Self.metadataLine(entry))\n") }
    for record in records {
      append("  <Record")
      appendRecordAttributes(record)
      appendChildren(record.metadata.map(Self.metadataLine), indent: "   ", close: "  </Record>\n")
    }
    append(" </Correlation>\n")
    try flushIfFull()
  }

  /// Closes `HealthData` and hands the rest of the output to the sink.
  public func finish() throws {
    guard !finished else { return }
    finished = true
    append("</HealthData>\n")
    try sink(buffer)
    buffer.removeAll()
  }

  // MARK: - Files

  /// Writes `export.xml` at `url`; `body` adds the records.
  public static func writeXML(
    to url: URL, locale: String = "en_US", exportDate: HealthExportDate,
    me: [HealthExportAttribute] = unsetMe, body: (AppleHealthExportWriter) throws -> Void
  ) throws {
    try writeFile(at: url) { sink in
      let writer = AppleHealthExportWriter(
        locale: locale, exportDate: exportDate, me: me, sink: sink)
      try body(writer)
      try writer.finish()
    }
  }

  /// Writes the file at `url` with what `body` hands its sink, through `AtomicFileWriter`:
  /// the file appears whole or not at all.
  static func writeFile(
    at url: URL, _ body: (@escaping ([UInt8]) throws -> Void) throws -> Void
  ) throws {
    try AtomicFileWriter().write(to: url.path) { file in
      // The writers are done with the sink before `body` returns.
      try withoutActuallyEscaping({ (bytes: [UInt8]) throws in try file.append(bytes) }) {
        try body($0)
      }
    }
  }

  /// Writes `export.zip` at `url` holding `apple_health_export/export.xml`, deflated, and
  /// with `cda`, `apple_health_export/export_cda.xml` beside it.
  public static func writeZip(
    to url: URL, locale: String = "en_US", exportDate: HealthExportDate,
    me: [HealthExportAttribute] = unsetMe, body: (AppleHealthExportWriter) throws -> Void,
    cda: ((AppleHealthCDAWriter) throws -> Void)? = nil
  ) throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("weigh-export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let xml = folder.appendingPathComponent("export.xml")
    try writeXML(to: xml, locale: locale, exportDate: exportDate, me: me, body: body)
    try? FileManager.default.removeItem(at: url)
    let archive = try Archive(url: url, accessMode: .create)
    try archive.addEntry(
      with: AppleHealthExportReader.zipEntryPath, fileURL: xml, compressionMethod: .deflate)
    if let cda {
      let document = folder.appendingPathComponent("export_cda.xml")
      try AppleHealthCDAWriter.write(to: document, exportDate: exportDate, body: cda)
      try archive.addEntry(with: cdaEntryPath, fileURL: document, compressionMethod: .deflate)
    }
  }

  /// Where the CDA document sits in `export.zip`.
  public static let cdaEntryPath = "apple_health_export/export_cda.xml"

  /// The whole `export.xml` as a string, for small exports and tests.
  public static func xml(
    locale: String = "en_US", exportDate: HealthExportDate,
    me: [HealthExportAttribute] = unsetMe, body: (AppleHealthExportWriter) throws -> Void
  ) rethrows -> String {
    var bytes: [UInt8] = []
    let writer = AppleHealthExportWriter(locale: locale, exportDate: exportDate, me: me) {
      bytes += $0
    }
    try body(writer)
    try? writer.finish()
    return String(decoding: bytes, as: UTF8.self)
  }

  // MARK: - Text

  /// Escapes an attribute value so that a reader gets it back exactly, newlines included.
  static func escape(_ text: String) -> String { XMLText.escaped(text) }

  /// A `WorkoutRoute` element's lines, children indented by one space.
  static func routeLines(_ route: HealthExportWorkoutRoute) -> [String] {
    var line = "<WorkoutRoute sourceName=\"\(escape(route.sourceName))\""
    for (name, value) in [
      ("sourceVersion", route.sourceVersion), ("device", route.device),
      ("creationDate", route.creationDate?.description),
      ("startDate", route.startDate.description), ("endDate", route.endDate.description),
    ] {
      if let value { line += " \(name)=\"\(escape(value))\"" }
    }
    var children = route.metadata.map { " " + metadataLine($0) }
    if let path = route.filePath { children.append(" <FileReference path=\"\(escape(path))\"/>") }
    guard !children.isEmpty else { return [line + "/>"] }
    return [line + ">"] + children + ["</WorkoutRoute>"]
  }

  static func metadataLine(_ entry: HealthExportMetadataEntry) -> String {
    "<MetadataEntry key=\"\(escape(entry.key))\" value=\"\(escape(entry.value))\"/>"
  }

  private func appendRecordAttributes(_ record: HealthExportRecord) {
    attribute("type", record.type)
    attribute("sourceName", record.sourceName)
    attribute("sourceVersion", record.sourceVersion)
    attribute("device", record.device)
    attribute("unit", record.unit)
    attribute("creationDate", record.creationDate?.description)
    attribute("startDate", record.startDate.description)
    attribute("endDate", record.endDate.description)
    attribute("value", record.value)
  }

  private func appendChildren(_ lines: [String], indent: String, close: String) {
    if lines.isEmpty {
      append("/>\n")
      return
    }
    append(">\n")
    for line in lines { append("\(indent)\(line)\n") }
    append(close)
  }

  private func attribute(_ name: String, _ value: String?) {
    guard let value else { return }
    append(" \(name)=\"\(Self.escape(value))\"")
  }

  private func append(_ text: String) {
    buffer.append(contentsOf: text.utf8)
  }

  private func flushIfFull() throws {
    if buffer.count >= 1 << 20 {
      try sink(buffer)
      buffer.removeAll(keepingCapacity: true)
    }
  }
}
