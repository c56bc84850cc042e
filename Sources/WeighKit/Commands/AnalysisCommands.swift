import Foundation

extension CommandTable {
  static let analysisCommands: [CommandSpec] = [
    CommandSpec(
      name: "stats", group: .analysis, usage: ["stats daily|weekly|monthly [<range>]"],
      summary:
        "per bucket: average, min, max, count (buckets anchored at midnight, Monday, the 1st)",
      example: "stats weekly month",
      parse: { cursor throws(Diagnostic) in
        let interval = try cursor.expect(
          oneOf: ["daily", "weekly", "monthly"], what: "a bucket size")
        let range = try EntryRange.parse(&cursor)
        try cursor.expectEnd(after: "the range")
        return StatsCommand(interval: StatisticsInterval(rawValue: interval)!, range: range)
      }),
    CommandSpec(
      name: "trend", group: .analysis, usage: ["trend [<range>]"],
      summary: "the trend as TrendWeight computes it; with a range, the daily trend line too",
      example: "trend month",
      parse: { cursor throws(Diagnostic) in
        let range = try EntryRange.parse(&cursor)
        try cursor.expectEnd(after: "the range")
        return TrendCommand(range: range)
      }),
    CommandSpec(
      name: "goal", group: .analysis, usage: ["goal [<weight>]"],
      summary: "trend, distance to the goal and the projected date", example: "goal 65kg",
      parse: { cursor throws(Diagnostic) in
        var goal: Double?
        if !cursor.isAtEnd {
          let (kilograms, span) = try cursor.readWeight("a goal weight such as 65kg")
          try WeightRule.validate(kilograms, at: span, unit: cursor.context.unit)
          goal = kilograms
        }
        try cursor.expectEnd(after: "the goal")
        return GoalCommand(goal: goal, span: cursor.span(cursor.tokens[0]))
      }),
    CommandSpec(
      name: "bmi", group: .analysis, usage: ["bmi"],
      summary: "BMI from the trend weight and the height, with its WHO class", example: "bmi",
      parse: { cursor throws(Diagnostic) in
        try cursor.expectEnd(after: "bmi")
        return BMICommand(span: cursor.span(cursor.tokens[0]))
      }),
    CommandSpec(
      name: "range", group: .analysis, usage: ["range week <n>"],
      summary:
        "the IOM 2009 weight range at pregnancy week n, and whether the latest weight is in it",
      example: "range week 20",
      parse: { cursor throws(Diagnostic) in
        try cursor.expect("week", in: "range week <n>")
        let token = cursor.peek()
        let week = try cursor.readInteger("a pregnancy week such as 20")
        try cursor.expectEnd(after: "the week")
        return RangeCommand(week: week, span: cursor.span(token))
      }),
    CommandSpec(
      name: "chart", group: .analysis, usage: ["chart [<range>] [to <file.svg>]"],
      summary: "a chart of daily weights and the trend; with to, a standalone SVG file",
      example: "chart month to weight.svg",
      parse: { cursor throws(Diagnostic) in
        var range = EntryRange.all
        if let token = cursor.peek(), !token.isWord("to") {
          // `chart from 2026-01-01 to -`: the `to` belongs to the range, which needs its end.
          if token.isWord("from"), cursor.peek(2)?.isWord("to") ?? false,
            let file = cursor.peek(3), file.text == "-" || file.text.lowercased().hasSuffix(".svg")
          {
            throw cursor.error(
              "expected when the range ends, got the file \"\(file.text)\"; a range from <when> ends with to <when>, then the file follows: chart from \(cursor.peek(1)!.text) to today to \(file.text)",
              at: file)
          }
          range = try EntryRange.parse(&cursor)
        }
        var file: (String, SourceSpan)?
        if cursor.take("to") {
          let token = cursor.peek()
          let path = try cursor.readPath(
            "an SVG file name such as weight.svg", extensions: ["svg"])
          guard path.lowercased().hasSuffix(".svg") || path == "-" else {
            throw cursor.error(
              "a chart file must end in .svg, e.g. weight.svg (or be - for standard output)",
              at: token)
          }
          file = (path, cursor.span(token))
        }
        try cursor.expectEnd(after: "the chart's range and file")
        return ChartCommand(range: range, file: file)
      }),
  ]
}

extension Session {
  /// The app's readings in `range`, as the analysis library takes them.
  func readings(in range: EntryRange = .all) throws(Diagnostic) -> [WeightReading] {
    range.select(from: try entries(), in: self).map(WeightReading.init)
  }

  /// The trend over every reading (the smoothing depends on all earlier days).
  func trend() throws(Diagnostic) -> Trend {
    Trend(readings: try readings(), policy: settings.daily, zone: zone)
  }

  /// A note when the trend's last day lies more than a week before the clock's day: the
  /// trend and the rate then say how things stood then, not now.
  func staleness(of trend: Trend) -> Diagnostic? {
    guard let lastDay = trend.lastDay else { return nil }
    let age = lastDay.days(to: zone.local(now).date)
    guard age > 7 else { return nil }
    return Diagnostic(
      "trend is \(English.counted(age, "day")) old (last reading \(lastDay)); log a weight to bring it up to date",
      severity: .note)
  }
}

/// `stats daily|weekly|monthly [<range>]`
struct StatsCommand: Executable {
  var interval: StatisticsInterval
  var range: EntryRange

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    let readings = try session.readings(in: range)
    var buckets: [StatisticsBucket] = []
    if let first = readings.first, let last = readings.last {
      buckets = StatisticsBucket.buckets(
        of: readings, interval: interval, zone: session.zone, from: first.instant,
        to: last.instant + 1)
    }
    return CommandResult(.statistics(StatisticsReport(interval: interval, buckets: buckets)))
  }
}

/// `trend [<range>]`
struct TrendCommand: Executable {
  var range: EntryRange

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    let trend = try session.trend()
    var points: [TrendPoint]?
    if range != .all {
      let shown = try session.readings(in: range)
      points = []
      if let first = shown.first, let last = shown.last {
        let zone = session.zone
        points = trend.points(
          from: zone.local(first.instant).date, through: zone.local(last.instant).date)
      }
    }
    var result = CommandResult(.trend(TrendReport(points: points, trend: trend)))
    if let note = session.staleness(of: trend) { result.warn(note) }
    return result
  }
}

/// `goal [<weight>]`
struct GoalCommand: Executable {
  var goal: Double?
  var span: SourceSpan

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    guard let goal = goal ?? session.settings.goal else {
      throw Diagnostic("no goal set; give one (goal 65kg) or set it with set goal 65kg", at: span)
    }
    let trend = try session.trend()
    let today = session.zone.local(session.now).date
    guard let projection = GoalProjection(goal: goal, trend: trend, today: today) else {
      throw Diagnostic("no weights yet, so there is no trend to project; log one first", at: span)
    }
    var result = CommandResult(.goal(projection))
    if let note = session.staleness(of: trend) { result.warn(note) }
    return result
  }
}

/// `bmi`
struct BMICommand: Executable {
  var span: SourceSpan

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    let (kilograms, height) = try Self.inputs(session, at: span)
    return CommandResult(
      .bmi(BMIReport(kilograms: kilograms, weightSource: "trend", heightMeters: height)))
  }

  /// The trend weight and the height, or an error naming what is missing.
  static func inputs(_ session: Session, at span: SourceSpan) throws(Diagnostic) -> (Double, Double)
  {
    guard let height = session.settings.height else {
      throw Diagnostic("no height set; set it first, e.g. set height 165cm", at: span)
    }
    guard let kilograms = try session.trend().current else {
      throw Diagnostic("no weights yet; log one first, e.g. log 68.5kg", at: span)
    }
    return (kilograms, height)
  }
}

/// `range week <n>`
struct RangeCommand: Executable {
  var week: Int
  var span: SourceSpan

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    let result = PregnancyRange.at(
      week: week, prePregnancyKilograms: session.settings.prePregnancy,
      heightMeters: session.settings.height)
    switch result {
    case .failure(let error):
      throw Diagnostic(error.message, at: span)
    case .success(let range):
      let latest = Session.newest(in: try session.entries())?.kilograms
      return CommandResult(
        .pregnancyRange(PregnancyRangeReport(range: range, latestKilograms: latest)))
    }
  }
}

/// `chart [<range>] [to <file.svg>]`
struct ChartCommand: Executable {
  var range: EntryRange
  var file: (path: String, span: SourceSpan)?

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    var result = CommandResult()
    let trend = try session.trend()
    let shown = try session.readings(in: range)
    guard let first = shown.first, let last = shown.last else {
      result.say("no weights to chart in the range")
      return result
    }
    let zone = session.zone
    let points = trend.points(
      from: zone.local(first.instant).date,
      through: zone.local(last.instant).date)
    guard let file else {
      let columns = session.options.terminalColumns
      let chart = TerminalChart(
        points: points, unit: session.unit, width: columns.map { max(40, $0 - 1) } ?? 72,
        height: 12, style: columns == nil ? .ascii : .unicode, goal: session.settings.goal)
      return CommandResult(.chart(chart))
    }
    let goal = session.settings.goal
    // The projection continues the trend only when the chart ends on the trend's last day.
    var goalDay: CivilDate?
    if let goal, points.last?.day == trend.lastDay,
      let projection = GoalProjection(goal: goal, trend: trend),
      case .projected(let date, _) = projection.status
    {
      goalDay = date
    }
    let svg = SVGChart(
      title: "weight \(points.first!.day) to \(points.last!.day)", points: points,
      unit: session.unit, goal: goal, goalDay: goalDay, band: Self.pregnancyBand(points, session))
    let document = Array(svg.document().utf8)
    let outcome = try session.writeOutputFile(file.path, at: file.span) { write in
      try write(document)
    }
    // On stdout the SVG is the output; a report line would spoil it.
    if file.path != "-" {
      result.say("wrote \(file.path) (\(English.counted(points.count, "day")))\(outcome.note)")
    }
    return result
  }
}

extension ChartCommand {
  /// The IOM range for each charted day of pregnancy weeks 1–42, when the profile (height,
  /// pre-pregnancy weight, pregnancy start) is set.
  static func pregnancyBand(_ points: [TrendPoint], _ session: Session) -> [SVGChart.BandDay] {
    let settings = session.settings
    guard let startDay = settings.pregnancyStart, let first = points.first,
      let last = points.last
    else { return [] }
    var band: [SVGChart.BandDay] = []
    var day = first.day
    while day <= last.day {
      let week = startDay.days(to: day) / 7 + 1
      if case .success(let range) = PregnancyRange.at(
        week: week, prePregnancyKilograms: settings.prePregnancy, heightMeters: settings.height)
      {
        band.append(SVGChart.BandDay(day: day, low: range.low, high: range.high))
      }
      day = day.adding(days: 1)
    }
    return band
  }
}
