import Foundation
import HealthSim

extension CommandTable {
  static let otherHealthCommands: [CommandSpec] = [
    CommandSpec(
      name: "workout", group: .other,
      usage: ["workout <exercise> <count> [reps|s|min] [at <when>]"],
      summary:
        "save an exercise to Health as a workout: activity type from the name, duration from the count (reps × 2 s)",
      example: "workout squats 20 reps",
      parse: { cursor throws(Diagnostic) in try WorkoutCommand.parse(&cursor) }),
    CommandSpec(
      name: "glucose", group: .other, usage: ["glucose [<range>]"],
      summary:
        "glucose readings from Health by ATTD band; mean, SD, CV, share per band, targets met",
      example: "glucose week",
      parse: { cursor throws(Diagnostic) in
        let span = cursor.span(cursor.tokens[0])
        let range = try EntryRange.parse(&cursor)
        try cursor.expectEnd(after: "the range")
        return GlucoseCommand(range: range, span: span)
      }),
    CommandSpec(
      name: "summary", group: .other, usage: ["summary [<date>] [json]"],
      summary:
        "a day's health summary: latest glucose and weight, steps, active energy, exercise minutes",
      example: "summary json",
      parse: { cursor throws(Diagnostic) in
        let span = cursor.span(cursor.tokens[0])
        var date: (CivilDate, SourceSpan)?
        if let token = cursor.peek(), !token.isWord("json") {
          date = (try cursor.readDate(), cursor.span(token))
        }
        let json = cursor.take("json")
        try cursor.expectEnd(after: json ? "json" : "the date")
        return SummaryCommand(date: date, json: json, span: span)
      }),
  ]
}

// MARK: workout

/// `workout <exercise> <count> [reps|s|min] [at <when>]`: the app saves an exercise to
/// Health as a workout, as StandFit does.
struct WorkoutCommand: Executable {
  /// The exercise as written, words joined by one space.
  var exercise: String
  var count: Int
  var unit: WorkoutCountUnit
  var countSpan: SourceSpan
  var instant: Int64?
  var instantSpan: SourceSpan?

  /// The unit words `workout` reads after the count.
  static let unitWords: [String: WorkoutCountUnit] = [
    "reps": .reps, "rep": .reps,
    "s": .seconds, "sec": .seconds, "secs": .seconds, "second": .seconds, "seconds": .seconds,
    "min": .minutes, "mins": .minutes, "minute": .minutes, "minutes": .minutes,
  ]

  /// The longest workout `workout` saves; a longer one is a typo.
  static let longestSeconds = 86_400.0

  static func parse(_ cursor: inout ArgumentCursor) throws(Diagnostic) -> WorkoutCommand {
    var words: [String] = []
    // The name runs up to the count, so `jumping jacks 30` needs no quotes.
    while let token = cursor.peek(),
      token.kind == .string || (token.kind == .word && NumberPrefix(token.text) == nil)
    {
      if token.kind == .word, !words.isEmpty, token.isWord("at") { break }
      words.append(token.text)
      _ = cursor.next()
    }
    let exercise = words.joined(separator: " ").trimmingCharacters(in: .whitespaces)
    guard !exercise.isEmpty else {
      throw cursor.error(
        "expected an exercise such as squats, then a count such as 20, \(cursor.got(cursor.peek()))",
        at: cursor.peek())
    }
    let countToken = cursor.peek()
    guard let countToken, countToken.kind == .word, let number = NumberPrefix(countToken.text)
    else {
      throw cursor.error(
        "expected a count such as 20 after the exercise \(quoted(exercise)), \(cursor.got(countToken))",
        at: countToken)
    }
    _ = cursor.next()
    var lastToken = countToken
    var unitWord = String(number.unit).lowercased()
    if unitWord.isEmpty, let next = peekUnit(cursor) {
      unitWord = next.text.lowercased()
      lastToken = next
      _ = cursor.next()
    }
    let countSpan = cursor.span(from: countToken, to: lastToken)
    var unit = WorkoutActivityType.defaultUnit(exercise: exercise)
    if !unitWord.isEmpty {
      guard let named = unitWords[unitWord] else {
        throw Diagnostic(
          "unknown unit \"\(unitWord)\" in \"\(countToken.text)\"; a workout counts reps, s or min",
          at: countSpan)
      }
      unit = named
    }
    guard number.value == number.value.rounded(), number.value >= 1,
      number.value <= Double(Int32.max)
    else {
      throw Diagnostic(
        "a workout count is a whole number of at least 1, such as 20; for 1.5 min write 90 s",
        at: countSpan)
    }
    let count = Int(number.value)  // checked: a whole number in 1…Int32.max, just above
    guard unit.duration(count: Double(count)) <= longestSeconds else {
      throw Diagnostic(
        "a workout lasts at most 24 hours; \(count) \(unit.rawValue) is \(durationText(unit.duration(count: Double(count))))",
        at: countSpan)
    }
    var command = WorkoutCommand(exercise: exercise, count: count, unit: unit, countSpan: countSpan)
    if let token = cursor.peek() {
      guard token.isWord("at") else {
        throw cursor.error(
          "expected reps, s, min or at <when> after the count, \(cursor.got(token))", at: token)
      }
      _ = cursor.next()
      let (instant, span) = try cursor.readInstant()
      (command.instant, command.instantSpan) = (instant, span)
      try cursor.expectEnd(after: "the time")
    }
    return command
  }

  private static func peekUnit(_ cursor: ArgumentCursor) -> Token? {
    guard let token = cursor.peek(), token.kind == .word, unitWords[token.text.lowercased()] != nil
    else { return nil }
    return token
  }

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    var result = CommandResult()
    let start = instant ?? session.now
    if start > session.now + 60 {
      throw Diagnostic(
        "cannot save a workout in the future: \(session.zone.minuteText(start)) is after the clock (\(session.zone.minuteText(session.now))); give an earlier time or move the clock",
        at: instantSpan ?? countSpan)
    }
    let health = try session.health()
    let activity = WorkoutActivityType(exercise: exercise)
    let seconds = unit.duration(count: Double(count))
    var metadata: Metadata = ["ExerciseName": .string(exercise)]
    if unit == .reps { metadata["RepCount"] = .number(Double(count)) }
    let sample = HealthSample(
      workout: WorkoutDetails(activityType: activity, duration: seconds),
      start: Date(seconds: start),
      metadata: metadata)
    let saved: [HealthSample]
    do throws(HealthError) { saved = try health.save([sample]) } catch {
      throw Diagnostic(
        "Health refused to save the workout: \(Session.describe(error))", at: countSpan)
    }
    let uuid = saved.first?.uuid?.shortText ?? "?"
    result.say(
      "saved workout \(uuid) \(session.zone.minuteText(start)) \(activity.rawValue) \(Self.durationText(seconds)) (\(exercise), \(count) \(unit.rawValue))"
    )
    return result
  }

  /// `40 s`, `5 min`, `1 min 30 s`, `2 h 5 min`.
  static func durationText(_ seconds: Double) -> String {
    // Workouts last at most a day; a longer one from a file shows clamped rather than trap.
    let whole = Int(min(max(seconds.rounded(), 0), 1e9))  // checked: clamped to 0…1e9
    if whole < 60 { return "\(whole) s" }
    var parts: [String] = []
    if whole >= 3600 { parts.append("\(whole / 3600) h") }
    if whole / 60 % 60 != 0 { parts.append("\(whole / 60 % 60) min") }
    if whole % 60 != 0 { parts.append("\(whole % 60) s") }
    return parts.joined(separator: " ")
  }
}

// MARK: glucose

/// `glucose [<range>]`: the app reads glucose from Health and classifies it (ATTD 2019).
struct GlucoseCommand: Executable {
  var range: EntryRange
  var span: SourceSpan

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    let readings = try session.glucoseReadings(in: range, at: span)
    let summary = GlucoseSummary(milligramsPerDeciliter: readings.map(\.value))
    return CommandResult(
      .glucose(GlucoseReport(readings: readings, summary: summary, ranged: range != .all)))
  }

  /// One row per reading: time, mg/dL (right-aligned), band, source.
  static func readingLines(_ readings: [HealthSample], zone: ZonedClock) -> [String] {
    let rows =
      [["time", "mg/dL", "band", "source"]]
      + readings.map { sample in
        [
          zone.minuteText(sample.startInstant), number(sample.value),
          GlucoseBand(milligramsPerDeciliter: sample.value).rawValue,
          sample.source?.name ?? "unknown",
        ]
      }
    let widths = (0..<4).map { column in rows.map { $0[column].count }.max()! }
    return rows.map { row in
      let value = String(repeating: " ", count: widths[1] - row[1].count) + row[1]
      let band = row[2] + String(repeating: " ", count: widths[2] - row[2].count)
      let time = row[0] + String(repeating: " ", count: widths[0] - row[0].count)
      return [time, value, band, row[3]].joined(separator: "  ")
    }
  }

  /// A reading to 0.1 mg/dL without a trailing `.0` (`105`, `109.9`).
  static func number(_ value: Double) -> String {
    let text = DisplayUnit.formatNumber(value, decimals: 1)
    return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
  }
}

// MARK: summary

/// `summary [<date>] [json]`: ViiRaa's health summary of a day.
struct SummaryCommand: Executable {
  var date: (day: CivilDate, span: SourceSpan)?
  var json: Bool
  var span: SourceSpan

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    let today = session.zone.local(session.now).date
    let day = date?.day ?? today
    if day > today {
      throw Diagnostic(
        "\(day.description) is after today (\(today.description)); give today or an earlier date",
        at: date?.span ?? span)
    }
    let summary = try session.healthSummary(of: day, at: span)
    return CommandResult(
      .healthSummary(HealthSummaryReport(date: day, summary: summary, json: json)))
  }
}

// MARK: Reading Health as the app

extension HealthSample {
  /// The start as seconds since 1970 UTC, rounded down.
  var startInstant: Int64 { Instant.seconds(of: startDate) }
}

extension Session {
  /// The glucose readings the app may read, in `range`, oldest first. Read denial is hidden
  /// as HealthKit hides it: the app then sees only its own readings.
  func glucoseReadings(in range: EntryRange, at span: SourceSpan? = nil) throws(Diagnostic)
    -> [HealthSample]
  {
    let health = try health()
    let samples: [HealthSample]
    do throws(HealthError) { samples = try health.samples(of: .bloodGlucose) } catch {
      throw Diagnostic("Health refused to read glucose: \(Self.describe(error))", at: span)
    }
    return range.select(samples, instant: \.startInstant, in: self)
  }

  /// The readings the `glucose.*` facts are computed over.
  ///
  /// The readings of the most recent `glucose` command; all readings before one is run.
  func glucoseFactSummary() throws(Diagnostic) -> GlucoseSummary {
    if let glucose = memory.glucose { return glucose }
    return GlucoseSummary(milligramsPerDeciliter: try glucoseReadings(in: .all).map(\.value))
  }

  /// The newest workout in Health (latest start; on a tie, the last saved), if any.
  func newestWorkout() throws(Diagnostic) -> HealthSample? {
    let workouts = try health().allSamples(of: .workout)
    return workouts.enumerated().max {
      ($0.element.startDate, $0.offset) < ($1.element.startDate, $1.offset)
    }?
    .element
  }

  /// The summary of local `day`: glucose and weight as of the day's end, activity within it.
  func healthSummary(of day: CivilDate, at span: SourceSpan) throws(Diagnostic) -> HealthSummary {
    let start = zone.startOfDay(day)
    let end = zone.startOfDay(CivilDate(daysSinceEpoch: day.daysSinceEpoch + 1))
    var summary = HealthSummary()
    let weights = try entries().filter { $0.instant < end }
    if let newest = Self.newest(in: weights) {
      (summary.weightKilograms, summary.weightInstant) = (newest.kilograms, newest.instant)
    }
    let health = try health()
    let theDay = SamplePredicate.samples(withStart: Date(seconds: start), end: Date(seconds: end))
    func sum(_ type: SampleType) throws(HealthError) -> Double? {
      try health.statistics(of: type, predicate: theDay, options: .cumulativeSum).merged.sum
    }
    do throws(HealthError) {
      let glucose = try Self.mostRecent(.bloodGlucose, before: Date(seconds: end), in: health)
      if let value = glucose.mostRecent, let interval = glucose.mostRecentDateInterval {
        summary.glucose = value
        summary.glucoseInstant = Instant.seconds(of: interval.start)
      }
      summary.steps = try sum(.stepCount)
      summary.activeEnergyKilocalories = try sum(.activeEnergyBurned)
      summary.exerciseMinutes = try sum(.appleExerciseTime)
    } catch {
      throw Diagnostic("Health refused to answer the summary: \(Self.describe(error))", at: span)
    }
    return summary
  }

  /// The most recent reading of `type` among the samples that start before `end`, as the
  /// statistics query over all of them answers it (the latest end date; on a tie, the source
  /// of highest priority), without reading them all: first over the samples overlapping the
  /// day before `end`, then over windows eight times as long. Every sample the window leaves
  /// out ends before the window's start (the query matches by overlap), so earlier than any
  /// sample the window holds: a window with a sample has the answer.
  static func mostRecent(_ type: SampleType, before end: Date, in health: HealthStore)
    throws(HealthError) -> HealthStatistics.Values
  {
    var span: TimeInterval = 86_400
    // Beyond a thousand years back, the whole history is read.
    while span < 86_400 * 366_000 {
      let window = SamplePredicate.samples(withStart: end.addingTimeInterval(-span), end: end)
      let values = try health.statistics(of: type, predicate: window, options: .mostRecent).merged
      if values.mostRecent != nil { return values }
      span *= 8
    }
    let untilEnd = SamplePredicate.samples(withStart: nil, end: end)
    return try health.statistics(of: type, predicate: untilEnd, options: .mostRecent).merged
  }
}
