import HealthSim

/// What one command produced: its values in the order it produced them, the warnings it
/// collected, and, when its own change stands but a follow-up failed (an autopush Health
/// refused), that failure.
///
/// Commands return results; only ``TextRenderer`` (and the other renderers) turn them
/// into text, and `expect` reads them as values.
public struct CommandResult {
  /// The values, in order.
  public internal(set) var items: [ResultItem]
  /// Warnings, rendered after the items, in the order they were collected.
  public internal(set) var warnings: [Diagnostic]
  /// The error the command ends with after its items were produced.
  var failure: Diagnostic?

  /// A result of `items`.
  init(_ items: [ResultItem] = [], warnings: [Diagnostic] = []) {
    self.items = items
    self.warnings = warnings
  }

  /// A result of one value.
  init(_ item: ResultItem, warnings: [Diagnostic] = []) {
    self.init([item], warnings: warnings)
  }

  /// A result of one line of prose.
  static func message(_ text: String) -> CommandResult { CommandResult(.message(text)) }

  /// Nothing to show (`quit`, a passing `expect`).
  static var empty: CommandResult { CommandResult() }

  /// Whether there is nothing to show.
  var isEmpty: Bool { items.isEmpty && warnings.isEmpty }

  /// This result followed by `other`.
  func appending(_ other: CommandResult) -> CommandResult {
    var result = self
    result.append(contentsOf: other)
    return result
  }

  mutating func append(_ item: ResultItem) { items.append(item) }

  mutating func warn(_ warning: Diagnostic) { warnings.append(warning) }

  /// Appends `other`'s items and warnings; its failure, if any, becomes this one's.
  mutating func append(contentsOf other: CommandResult) {
    items += other.items
    warnings += other.warnings
    if let failure = other.failure { self.failure = failure }
  }

  /// Runs `followUp` (an autopush after a committed change): what it returns is appended,
  /// and what it throws becomes the result's failure, after the values already there.
  mutating func then(_ followUp: () throws(Diagnostic) -> ResultItem?) {
    do throws(Diagnostic) {
      if let item = try followUp() { items.append(item) }
    } catch {
      failure = error
    }
  }
}

/// One value a command returns.
public enum ResultItem {
  /// A line of prose: a confirmation, a status line.
  case message(String)
  /// Lines laid out by their producer (help, a goal projection, a BMI report).
  case lines([String])
  /// An entry `log`, `edit` or `delete` changed.
  case entryChange(EntryChange)
  /// The entries `list` shows, oldest first.
  case entries([Entry])
  /// `day`: a day's readings and the value that stands for it.
  case day(DayReport)
  /// `stats`: one row per bucket.
  case statistics(StatisticsReport)
  /// `trend`: the trend line over a range, if one was asked for, and the summary.
  case trend(TrendReport)
  /// `range week <n>`: the IOM range and the latest weight.
  case pregnancyRange(PregnancyRangeReport)
  /// `glucose`: readings and their summary.
  case glucose(GlucoseReport)
  /// A chart drawn with characters.
  case chart(TerminalChart)
  /// `goal`: the trend against the goal and the projected date.
  case goal(GoalProjection)
  /// `bmi`: the BMI of the trend weight and the height.
  case bmi(BMIReport)
  /// `health list`: Health's samples of one type.
  case healthSamples(HealthSampleList)
  /// A sync from Health (`sync`, the launch sync).
  case sync(SyncReport)
  /// A push to Health (`sync push`, autopush).
  case push(PushReport)
  /// `summary`: ViiRaa's summary of a day.
  case healthSummary(HealthSummaryReport)
  /// Health's events while time ran, in order.
  case healthEvents(HealthEventList)
}

/// An entry a command changed, and how.
public struct EntryChange {
  public enum Kind: String, Sendable { case logged, edited, deleted }
  public var kind: Kind
  public var entry: Entry
}

/// `day`: the local date, its readings, and the value `set daily` picks for it.
public struct DayReport {
  public var date: CivilDate
  /// Kilograms; nil when the day has no readings.
  public var kilograms: Double?
  public var policy: DailyPolicy
  public var readings: [Entry]
}

/// `stats`: the bucket size and the buckets; empty when the range has no weights.
public struct StatisticsReport {
  public var interval: StatisticsInterval
  public var buckets: [StatisticsBucket]
}

/// `trend`: `points` is nil without a range, empty when the range has no weights.
public struct TrendReport {
  public var points: [TrendPoint]?
  public var trend: Trend
}

/// `range week <n>`.
public struct PregnancyRangeReport {
  public var range: PregnancyRange
  public var latestKilograms: Double?
}

/// `glucose`: the readings in the range (mg/dL) and their summary.
public struct GlucoseReport {
  public var readings: [HealthSample]
  public var summary: GlucoseSummary
  /// Whether a range narrowed the readings (for the empty message).
  public var ranged: Bool
}

extension CommandResult {
  /// Appends a line of prose.
  mutating func say(_ text: String) { items.append(.message(text)) }
}

/// `summary [<date>] [json]`.
public struct HealthSummaryReport {
  public var date: CivilDate
  public var summary: HealthSummary
  /// Whether `json` was asked for: the object ViiRaa's web view reads, in every format.
  public var json: Bool
}

/// `bmi`: the weight it was computed from (`weightSource` names it, e.g. `trend`) and the
/// height.
public struct BMIReport {
  public var kilograms: Double
  public var weightSource: String
  public var heightMeters: Double
  public var bmi: BodyMassIndex { BodyMassIndex(kilograms: kilograms, heightMeters: heightMeters) }
}

/// `health list`: the kind asked for (`weight`, `glucose`, …) and Health's samples of it.
public struct HealthSampleList {
  public var kind: String
  public var samples: [HealthSample]
}
