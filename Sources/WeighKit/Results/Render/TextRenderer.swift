import Foundation
import HealthSim

/// Turns results into the lines weigh prints for people (`--format text`, the default).
enum TextRenderer {
  /// The lines of `result`'s items, in order (warnings are diagnostics, rendered apart).
  static func lines(of result: CommandResult, in context: RenderContext) -> [String] {
    result.items.flatMap { lines(of: $0, in: context) }
  }

  /// The lines of one item.
  static func lines(of item: ResultItem, in context: RenderContext) -> [String] {
    let unit = context.unit
    switch item {
    case .message(let text):
      return [text]
    case .lines(let lines):
      return lines
    case .entryChange(let change):
      return [line(for: change, in: context)]
    case .entries(let entries):
      return entryTable(entries, in: context)
    case .day(let report):
      return dayLines(report, in: context)
    case .statistics(let report):
      guard !report.buckets.isEmpty else { return ["no weights in the range"] }
      return StatisticsBucket.tableLines(report.buckets, interval: report.interval, unit: unit)
    case .trend(let report):
      var lines: [String] = []
      if let points = report.points {
        lines +=
          points.isEmpty
          ? ["no weights in the range"] : Trend.tableLines(points: points, unit: unit)
      }
      return lines + report.trend.summaryLines(unit: unit)
    case .pregnancyRange(let report):
      return report.range.lines(latestKilograms: report.latestKilograms, unit: unit)
    case .glucose(let report):
      guard !report.readings.isEmpty else {
        return [report.ranged ? "no glucose readings in the range" : "no glucose readings"]
      }
      return GlucoseCommand.readingLines(report.readings, zone: context.zone) + [""]
        + report.summary.lines()
    case .chart(let chart):
      return chart.lines()
    case .goal(let projection):
      return projection.lines(unit: unit)
    case .bmi(let report):
      return BodyMassIndex.lines(
        kilograms: report.kilograms, weightSource: report.weightSource,
        heightMeters: report.heightMeters, unit: unit)
    case .healthSamples(let list):
      return sampleLines(list, in: context)
    case .sync(let report):
      return [report.trigger == .launch ? "launch sync: \(report.summary)" : report.summary]
    case .push(let report):
      return [report.trigger == .autopush ? "autopush: \(report.summary)" : report.summary]
    case .healthEvents(let list):
      let text = HealthEventText(samples: SampleText(unit: unit), zone: context.zone)
      return list.rows.map { text.line(for: $0.event, handlerNote: $0.handlerNote) }
    case .healthSummary(let report):
      if report.json { return [SummaryJSON.line(of: report.summary)] }
      return ["summary of \(report.date.description)"]
        + report.summary.lines(unit: unit, zone: context.zone).map { "  " + $0 }
    }
  }

  /// `#1 2026-01-01 08:00 68.5 kg`, with `(revision 2)` after an edit, `deleted` before a
  /// deletion.
  static func line(for change: EntryChange, in context: RenderContext) -> String {
    let line = entryLine(change.entry, in: context)
    switch change.kind {
    case .logged: return line
    case .edited: return "\(line) (revision \(change.entry.revision))"
    case .deleted: return "deleted \(line)"
    }
  }

  /// `#1 2026-01-01 08:00 68.5 kg`
  static func entryLine(_ entry: Entry, in context: RenderContext) -> String {
    "#\(entry.id) \(context.zone.minuteText(entry.instant)) \(context.unit.format(kilograms: entry.kilograms))"
  }

  /// `list`: number, time, weight (right-aligned), origin and source, and the note.
  static func entryTable(_ entries: [Entry], in context: RenderContext) -> [String] {
    guard !entries.isEmpty else { return ["no entries"] }
    let rows = entries.map { entry in
      [
        "#\(entry.id)", context.zone.minuteText(entry.instant),
        context.unit.format(kilograms: entry.kilograms), entry.origin.rawValue,
        TerminalText.field(entry.source),
      ] + (entry.note.map { [quoted($0)] } ?? [])
    }
    return TextTable.aligned(rows, [.left, .left, .right, .left, .unpadded, .unpadded])
  }

  /// `day`: the value that stands for the day, then one line per reading.
  static func dayLines(_ report: DayReport, in context: RenderContext) -> [String] {
    guard let value = report.kilograms else { return ["\(report.date.description): no readings"] }
    let readings = English.counted(report.readings.count, "reading")
    var lines = [
      "\(report.date.description): \(context.unit.format(kilograms: value)) (\(report.policy.rawValue) of \(readings))"
    ]
    for entry in report.readings {
      var line =
        "  #\(entry.id)  \(context.zone.timeText(entry.instant))  \(context.unit.format(kilograms: entry.kilograms))"
      line += "  \(entry.origin.rawValue)  \(TerminalText.field(entry.source))"
      if let note = entry.note { line += "  \(quoted(note))" }
      lines.append(line)
    }
    return lines
  }

  /// `health list`: one row per sample, or `no weight samples`.
  static func sampleLines(_ list: HealthSampleList, in context: RenderContext) -> [String] {
    guard !list.samples.isEmpty else { return ["no \(list.kind) samples"] }
    let text = SampleText(unit: context.unit)
    return list.samples.map { sample in
      let start = context.zone.minuteText(sample.startInstant)
      var line = "\(sample.uuid?.shortText ?? "?")  \(start)  \(text.value(of: sample))"
      line += "  \(TerminalText.field(sample.source?.name ?? "unknown"))"
      if let device = sample.device?.name { line += "  device \(quoted(device))" }
      if sample.wasUserEntered { line += "  user-entered" }
      if let id = sample.syncIdentifier {
        line += "  sync-id \(id) v\(DisplayUnit.formatNumber(sample.syncVersion ?? 0, decimals: 0))"
      }
      return line
    }
  }
}
