import HealthSim

/// The rows of each kind of data a command returns: the keys docs/output.md documents,
/// values in canonical units (kilograms, mg/dL, seconds) named by the key, unrounded.
enum DataTables {
  /// The table of `item`. Prose (confirmations, help, status lines) is a table of one
  /// column, `message`, a row per line, so that a machine format's output is all data.
  static func table(of item: ResultItem) -> DataTable {
    switch item {
    case .message(let text):
      return DataTable(columns: ["message"], rows: [[.text(text)]])
    case .lines(let lines):
      return DataTable(columns: ["message"], rows: lines.map { [.text($0)] })
    case .entries(let entries):
      return DataTable(columns: entryColumns, rows: entries.map(entryRow))
    case .entryChange(let change):
      return DataTable(
        columns: ["change"] + entryColumns,
        rows: [[.text(change.kind.rawValue)] + entryRow(change.entry)])
    case .day(let report):
      return DataTable(
        columns: [
          "date", "daily", "day_weight_kg", "id", "time", "weight_kg", "origin", "source", "note",
        ],
        rows: report.readings.map { entry in
          [
            .date(report.date.description), .text(report.policy.rawValue),
            .number(report.kilograms), .integer(entry.id), .instant(entry.instant),
            .number(entry.kilograms), .text(entry.origin.rawValue), .text(entry.source),
            .text(entry.note),
          ]
        })
    case .statistics(let report):
      return DataTable(
        columns: ["interval", "start", "end", "count", "average_kg", "min_kg", "max_kg"],
        rows: report.buckets.map { bucket in
          [
            .text(report.interval.rawValue), .instant(bucket.start), .instant(bucket.end),
            .integer(bucket.count), .number(bucket.average), .number(bucket.minimum),
            .number(bucket.maximum),
          ]
        })
    case .trend(let report):
      let points = report.points ?? report.trend.lastPoint.map { [$0] } ?? []
      return trendTable(points, weeklyRate: report.trend.weeklyRate)
    case .chart(let chart):
      return trendTable(chart.points, weeklyRate: nil)
    case .pregnancyRange(let report):
      let range = report.range
      return DataTable(
        columns: [
          "week", "category", "pre_pregnancy_bmi", "low_kg", "high_kg", "latest_kg", "in_range",
        ],
        rows: [
          [
            .integer(range.week), .text(range.category.rawValue), .number(range.prePregnancyBMI),
            .number(range.low), .number(range.high), .number(report.latestKilograms),
            report.latestKilograms.map { .bool(range.contains($0)) } ?? .null,
          ]
        ])
    case .glucose(let report):
      return DataTable(
        columns: ["time", "glucose_mg_dl", "band", "source"],
        rows: report.readings.map { sample in
          [
            .instant(sample.startInstant), .number(sample.value),
            .text(GlucoseBand(milligramsPerDeciliter: sample.value).rawValue),
            .text(sample.source?.name),
          ]
        })
    case .goal(let projection):
      var projected: DataValue = .null
      var days: DataValue = .null
      if case .projected(let date, let count) = projection.status {
        (projected, days) = (.date(date.description), .integer(count))
      }
      return DataTable(
        columns: [
          "goal_kg", "trend_kg", "distance_kg", "weekly_rate_kg", "status", "projected_date",
          "days",
        ],
        rows: [
          [
            .number(projection.goal), .number(projection.trend), .number(projection.distance),
            .number(projection.weeklyRate), .text(projection.status.word), projected, days,
          ]
        ])
    case .bmi(let report):
      let bmi = report.bmi
      return DataTable(
        columns: ["bmi", "class", "weight_kg", "weight_source", "height_m"],
        rows: [
          [
            .number(bmi.value), .text(bmi.whoClass.rawValue), .number(report.kilograms),
            .text(report.weightSource), .number(report.heightMeters),
          ]
        ])
    case .healthSamples(let list):
      return DataTable(
        columns: [
          "uuid", "type", "start", "end", "value", "unit", "source", "device", "user_entered",
          "sync_id", "sync_version",
        ],
        rows: list.samples.map { sample in
          [
            .text(sample.uuid?.uuidString), .text(sample.type.rawValue),
            .instant(sample.startInstant), .instant(Instant.seconds(of: sample.endDate)),
            .number(sample.value), .text(sample.type.canonicalUnit.description),
            .text(sample.source?.name), .text(sample.device?.name), .bool(sample.wasUserEntered),
            .text(sample.syncIdentifier), .number(sample.syncVersion),
          ]
        })
    case .sync(let report):
      return DataTable(
        columns: ["trigger", "imported", "removed", "skipped", "anchor"],
        rows: [
          [
            .text(report.trigger.rawValue), .integer(report.imported), .integer(report.removed),
            .integer(report.skipped), .integer(Int(truncatingIfNeeded: report.anchor)),
          ]
        ])
    case .push(let report):
      return DataTable(
        columns: ["trigger", "added", "updated", "deleted"],
        rows: [
          [
            .text(report.trigger.rawValue), .integer(report.added), .integer(report.updated),
            .integer(report.deleted),
          ]
        ])
    case .healthSummary(let report):
      let summary = report.summary
      return DataTable(
        columns: [
          "date", "glucose_mg_dl", "glucose_time", "weight_kg", "weight_time", "steps",
          "active_energy_kcal", "exercise_minutes",
        ],
        rows: [
          [
            .date(report.date.description), .number(summary.glucose),
            summary.glucoseInstant.map(DataValue.instant) ?? .null,
            .number(summary.weightKilograms),
            summary.weightInstant.map(DataValue.instant) ?? .null, .number(summary.steps),
            .number(summary.activeEnergyKilocalories), .number(summary.exerciseMinutes),
          ]
        ])
    case .healthEvents(let list):
      return DataTable(columns: eventColumns, rows: list.rows.map(eventRow))
    }
  }

  /// The keys of a Health event; each kind fills the keys that apply to it.
  static let eventColumns = [
    "time", "event", "simulation", "type", "value", "unit", "uuid", "delivery", "reason",
    "completed", "failures", "retry_at", "error", "note",
  ]

  static func eventRow(_ row: HealthEventList.Row) -> [DataValue] {
    var simulation: String?
    var type: SampleType?
    var value: Double?
    var uuid: String?
    var delivery: Int?
    var reason: String?
    var completed: Bool?
    var failures: Int?
    var retryAt: Int64?
    var error: String?
    switch row.event.kind {
    case .sampleWritten(let name, let sample):
      (simulation, type, value, uuid) = (name, sample.type, sample.value, sample.uuid?.uuidString)
    case .writeFailed(let name, let failure):
      (simulation, error) = (name, Session.describe(failure))
    case .simulationStopped(let name, let sampleType, let next):
      (simulation, type, value) = (name, sampleType, next)
    case .delivered(let sampleType, let number, let why, let done):
      (type, delivery, reason, completed) = (sampleType, number, why.rawValue, done)
    case .deliveryLost(let sampleType):
      type = sampleType
    case .retryScheduled(let sampleType, let at, let count):
      (type, failures, retryAt) = (sampleType, count, Instant.seconds(of: at))
    case .backgroundDeliveryStopped(let sampleType, let count):
      (type, failures) = (sampleType, count)
    }
    return [
      .instant(Instant.seconds(of: row.event.date)),
      .text(HealthEventList.kindName(row.event.kind)), .text(simulation), .text(type?.rawValue),
      .number(value), .text(value == nil ? nil : type?.canonicalUnit.description), .text(uuid),
      delivery.map(DataValue.integer) ?? .null, .text(reason),
      completed.map(DataValue.bool) ?? .null,
      failures.map(DataValue.integer) ?? .null, retryAt.map(DataValue.instant) ?? .null,
      .text(error), .text(row.handlerNote),
    ]
  }

  /// The keys of an entry.
  static let entryColumns = ["id", "time", "weight_kg", "origin", "source", "note", "revision"]

  static func entryRow(_ entry: Entry) -> [DataValue] {
    [
      .integer(entry.id), .instant(entry.instant), .number(entry.kilograms),
      .text(entry.origin.rawValue), .text(entry.source), .text(entry.note),
      .integer(entry.revision),
    ]
  }

  /// One row per trend day; `weekly_rate_kg` is the current weekly rate on every row.
  static func trendTable(_ points: some Collection<TrendPoint>, weeklyRate: Double?) -> DataTable {
    DataTable(
      columns: ["date", "weight_kg", "interpolated", "trend_kg", "weekly_rate_kg"],
      rows: points.map { point in
        [
          .date(point.day.description), .number(point.kilograms), .bool(point.isInterpolated),
          .number(point.trend), .number(weeklyRate),
        ]
      })
  }
}

extension GoalProjection.Status {
  /// The status as a key's value: `at_goal`, `projected`, `beyond_three_years`,
  /// `moving_away`, `flat`.
  var word: String {
    switch self {
    case .atGoal: "at_goal"
    case .projected: "projected"
    case .beyondThreeYears: "beyond_three_years"
    case .movingAway: "moving_away"
    case .flat: "flat"
    }
  }
}
