import Foundation
import HealthSim

/// `health export <file.zip|file.xml>`: writes every live sample of Health as Apple's
/// "Export All Health Data" file.
struct HealthExportCommand: Executable {
  var path: String
  var pathSpan: SourceSpan
  /// Whether to write `export.zip` (else a plain `export.xml`).
  var zipped: Bool

  static func parse(_ cursor: inout ArgumentCursor) throws(Diagnostic) -> HealthExportCommand {
    let fileToken = cursor.peek()
    let path = try cursor.readPath(
      "a file name such as export.zip or export.xml", extensions: ["zip", "xml"])
    guard !path.isEmpty else {
      throw cursor.error("expected a file name, got an empty string", at: fileToken)
    }
    try cursor.expectEnd(after: "the file")
    let lowered = path.lowercased()
    guard lowered.hasSuffix(".zip") || lowered.hasSuffix(".xml") || path == "-" else {
      throw cursor.error(
        "cannot tell the format of \(path) from its name; name it .zip (Apple's export.zip) or .xml (a plain export.xml), or give - for export.xml on standard output",
        at: fileToken)
    }
    return HealthExportCommand(
      path: path, pathSpan: cursor.span(fileToken), zipped: lowered.hasSuffix(".zip"))
  }

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    var result = CommandResult()
    let health = try session.health()
    let zone = session.zone
    // Apple lists records type by type in time order, then correlations, then workouts.
    func ordered(_ type: SampleType) -> [HealthSample] {
      health.allSamples(of: type).sorted {
        ($0.startDate, $0.uuid!.uuidString) < ($1.startDate, $1.uuid!.uuidString)
      }
    }
    // A correlation is a Correlation element; its objects are Records at the top level
    // too, as Apple writes them.
    let records = SampleType.allCases.filter { $0 != .workout && !$0.isCorrelation }
      .flatMap(ordered)
    let correlations = SampleType.allCases.filter(\.isCorrelation).flatMap(ordered)
    let workouts = ordered(.workout)
    let exportDate = HealthExportDate(instant: session.now, zone: zone)
    let body: (AppleHealthExportWriter) throws -> Void = { writer in
      for sample in records {
        try writer.write(HealthExportMapping.record(for: sample, zone: zone))
      }
      for sample in correlations {
        // Objects deleted on their own since are no longer part of it.
        let objects = (sample.objects ?? []).compactMap { $0.uuid.flatMap(health.sample) }
        try writer.write(
          HealthExportMapping.correlation(for: sample, zone: zone),
          records: objects.map { HealthExportMapping.record(for: $0, zone: zone) })
      }
      for sample in workouts {
        try writer.write(HealthExportMapping.workout(for: sample, zone: zone))
      }
    }
    let outcome: FileWriteOutcome?
    if zipped {
      outcome = try session.writeOutputFile(
        path, at: pathSpan,
        creatingWith: { temporary in
          try AppleHealthExportWriter.writeZip(
            to: URL(fileURLWithPath: temporary), exportDate: exportDate, body: body
          ) { cda in
            for sample in records where sample.type == .bodyMass || sample.type == .bloodGlucose {
              try cda.write(HealthExportMapping.record(for: sample, zone: zone))
            }
          }
        })
    } else {
      outcome = try session.writeOutputFile(path, at: pathSpan) { write in
        // The writer is done with its sink before this closure returns.
        try withoutActuallyEscaping(write) { sink in
          let writer = AppleHealthExportWriter(exportDate: exportDate, sink: sink)
          try body(writer)
          try writer.finish()
        }
      }
    }
    // On stdout the XML is the output; a report line would spoil it.
    guard path != "-" else { return result }
    let correlated =
      correlations.isEmpty ? "" : ", \(English.counted(correlations.count, "correlation"))"
    result.say(
      "exported \(English.counted(records.count, "record"))\(correlated) and \(English.counted(workouts.count, "workout")) to \(path)\(outcome.note)"
    )
    return result
  }
}
