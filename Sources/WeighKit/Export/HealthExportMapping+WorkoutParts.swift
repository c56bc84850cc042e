import Foundation
import HealthSim

/// A workout's events, statistics and routes between the export format and Health.
extension HealthExportMapping {
  /// The parts of a workout as export children: events with their duration in min (none
  /// for an instant), statistics in their own unit, routes with their file reference.
  static func exportParts(of details: WorkoutDetails?, zone: ZonedClock)
    -> (
      events: [HealthExportWorkoutEvent], statistics: [HealthExportWorkoutStatistics],
      routes: [HealthExportWorkoutRoute]
    )
  {
    guard let details else { return ([], [], []) }
    let events = details.events.map { event in
      HealthExportWorkoutEvent(
        type: event.type.exportName, date: exportDate(event.date, zone),
        duration: event.duration > 0 ? number(event.duration / 60) : nil,
        durationUnit: event.duration > 0 ? "min" : nil,
        metadata: metadataEntries(event.metadata, zone: zone))
    }
    let statistics = details.statistics.map { statistic in
      HealthExportWorkoutStatistics(
        type: statistic.typeIdentifier, startDate: exportDate(statistic.startDate, zone),
        endDate: exportDate(statistic.endDate, zone), average: statistic.average.map(number),
        minimum: statistic.minimum.map(number), maximum: statistic.maximum.map(number),
        sum: statistic.sum.map(number), unit: statistic.unit.isEmpty ? nil : statistic.unit)
    }
    let routes = details.routes.map { route in
      HealthExportWorkoutRoute(
        sourceName: route.sourceRevision?.source.name ?? "Health",
        sourceVersion: route.sourceRevision?.version, device: route.device.map(deviceText),
        creationDate: route.creationDate.map { exportDate($0, zone) },
        startDate: exportDate(route.startDate, zone),
        endDate: exportDate(route.endDate, zone),
        metadata: metadataEntries(route.metadata, zone: zone), filePath: route.filePath)
    }
    return (events, statistics, routes)
  }

  /// A workout's events from its export children, or why not: every event type must be
  /// HealthKit's, every duration a number of min, s or hr.
  static func events(of workout: HealthExportWorkout, line: Int) throws(ImportRejection)
    -> [WorkoutEvent]
  {
    var events: [WorkoutEvent] = []
    for event in workout.events {
      guard let type = eventTypes[event.type] else {
        throw ImportRejection(
          line: line,
          reason:
            "workout event type '\(event.type)' is not one of HealthKit's (HKWorkoutEventType…)")
      }
      var seconds = 0.0
      if let text = event.duration {
        let factors: [String: Double] = ["min": 60, "s": 1, "hr": 3600, "h": 3600]
        guard let number = DecimalText.parseJSONNumber(text), number.isFinite, number >= 0,
          let factor = factors[event.durationUnit ?? "min"],
          number * factor <= Double(ValueLimits.durationSeconds.upperBound)
        else {
          throw ImportRejection(
            line: line,
            reason:
              "workout event duration '\(text)' \(event.durationUnit ?? "") is not a number of min, s or hr up to 1000 years"
          )
        }
        seconds = number * factor
      }
      try checkInstants([event.date.instant], what: "workout event", line: line)
      events.append(
        WorkoutEvent(
          type: type, date: date(event.date), duration: seconds,
          metadata: try metadata(event.metadata, line: line)))
    }
    return events
  }

  /// A workout's statistics from its export children, or why not: every value written must
  /// be a finite number.
  static func statistics(of workout: HealthExportWorkout, line: Int) throws(ImportRejection)
    -> [WorkoutStatistic]
  {
    var statistics: [WorkoutStatistic] = []
    for element in workout.statistics {
      var values: [Double?] = []
      for text in [element.average, element.minimum, element.maximum, element.sum] {
        guard let text else {
          values.append(nil)
          continue
        }
        guard let number = DecimalText.parseJSONNumber(text), number.isFinite else {
          throw ImportRejection(
            line: line, reason: "workout statistics value '\(text)' is not a number")
        }
        values.append(number)
      }
      try checkInstants(
        [element.startDate.instant, element.endDate.instant], what: "workout statistics",
        line: line)
      statistics.append(
        WorkoutStatistic(
          typeIdentifier: element.type, startDate: date(element.startDate),
          endDate: date(element.endDate), average: values[0], minimum: values[1],
          maximum: values[2], sum: values[3], unit: element.unit ?? ""))
    }
    return statistics
  }

  /// A workout's routes from its export children.
  static func routes(of workout: HealthExportWorkout, line: Int, cache: Cache)
    throws(ImportRejection) -> [WorkoutRoute]
  {
    var routes: [WorkoutRoute] = []
    for route in workout.routes {
      guard route.endDate.instant >= route.startDate.instant else {
        throw ImportRejection(line: line, reason: "workout route ends before it starts")
      }
      try checkInstants(
        [route.startDate.instant, route.endDate.instant]
          + (route.creationDate.map { [$0.instant] }
            ?? []),
        what: "workout route", line: line)
      routes.append(
        WorkoutRoute(
          sourceRevision: cache.revision(route.sourceName, route.sourceVersion),
          device: route.device.map(cache.device), creationDate: route.creationDate.map(date),
          startDate: date(route.startDate), endDate: date(route.endDate),
          metadata: try metadata(route.metadata, line: line), filePath: route.filePath))
    }
    return routes
  }

  private static func date(_ date: HealthExportDate) -> Date {
    Date(timeIntervalSince1970: TimeInterval(date.instant))
  }

  private static func checkInstants(_ instants: [Int64], what: String, line: Int)
    throws(ImportRejection)
  {
    guard instants.allSatisfy(StoredValueRule.wholeInstant.contains) else {
      throw ImportRejection(line: line, reason: "\(what) is dated outside 1900-01-01 to 9999-12-31")
    }
  }
}
