import Foundation
import HealthSim

/// A workout's details and a metadata dictionary read from a row's parsed value by hand, in
/// the form `writeWorkout` and `writeMetadata` write them: every member of the right kind,
/// no member unknown, no `null`. Anything else gives nil, and the caller decodes the value
/// through `JSONDecoder` as before, so a value is accepted, refused and told of as it was
/// (`HealthNestedCodecTests` checks both readings against each other).
extension HealthRecordCodec {
  /// The workout `value` holds, as `JSONDecoder` reads it; nil when `value` is not in the
  /// form the writer gives.
  static func readWorkout(_ value: JSONValue) -> WorkoutDetails? {
    guard case .object(let members) = value,
      members.keys.allSatisfy(NestedKeys.workout.contains),
      case .string(let activityName)? = members["activityType"],
      let activity = WorkoutActivityType(rawValue: activityName),
      let duration = number(members["duration"])
    else { return nil }
    var totals: [Double?] = []
    for key in ["totalEnergyBurned", "totalDistance"] {
      guard let member = members[key] else {
        totals.append(nil)
        continue
      }
      guard let total = number(member) else { return nil }
      totals.append(total)
    }
    guard let events = array(members["events"], event),
      let statistics = array(members["statistics"], statistic),
      let routes = array(members["routes"], route)
    else { return nil }
    return WorkoutDetails(
      activityType: activity, duration: duration, totalEnergyBurned: totals[0],
      totalDistance: totals[1], events: events, statistics: statistics, routes: routes)
  }

  /// The metadata `value` holds, as `JSONDecoder` reads it; nil when `value` is not in the
  /// form the writer gives.
  static func readMetadata(_ value: JSONValue) -> Metadata? {
    guard case .object(let members) = value else { return nil }
    var metadata = Metadata(minimumCapacity: members.count)
    for (key, member) in members {
      guard case .object(let cases) = member, cases.count == 1, let (name, payload) = cases.first,
        case .object(let fields) = payload, fields.count == 1, let field = fields["_0"]
      else { return nil }
      switch (name, field) {
      case ("string", .string(let text)): metadata[key] = .string(text)
      case ("bool", .bool(let flag)): metadata[key] = .bool(flag)
      case ("number", _):
        guard let number = number(field) else { return nil }
        metadata[key] = .number(number)
      case ("date", _):
        guard let seconds = number(field) else { return nil }
        metadata[key] = .date(Date(timeIntervalSinceReferenceDate: seconds))
      default: return nil
      }
    }
    return metadata
  }

  /// The keys each object may hold.
  private enum NestedKeys {
    static let workout: Set<String> = [
      "activityType", "duration", "totalEnergyBurned", "totalDistance", "events", "statistics",
      "routes",
    ]
    static let event: Set<String> = ["type", "date", "duration", "metadata"]
    static let statistic: Set<String> = [
      "typeIdentifier", "startDate", "endDate", "average", "minimum", "maximum", "sum", "unit",
    ]
    static let route: Set<String> = [
      "sourceRevision", "device", "creationDate", "startDate", "endDate", "metadata", "filePath",
    ]
    static let device: Set<String> = [
      "name", "manufacturer", "model", "hardwareVersion", "firmwareVersion", "softwareVersion",
      "localIdentifier",
    ]
    static let revision: Set<String> = [
      "source", "version", "productType", "operatingSystemVersion",
    ]
    static let source: Set<String> = ["name", "bundleIdentifier"]
  }

  /// A number member as a Double (JSON's integers and fractions alike); nil for another kind.
  private static func number(_ value: JSONValue?) -> Double? {
    switch value {
    case .integer(let integer)?: return Double(integer)
    case .number(let number)?: return number
    default: return nil
    }
  }

  /// A date member: seconds since 2001 (`JSONEncoder`'s default for `Date`).
  private static func date(_ value: JSONValue?) -> Date? {
    number(value).map { Date(timeIntervalSinceReferenceDate: $0) }
  }

  /// An optional text member: `.some(nil)` when missing, nil when of another kind.
  private static func optionalText(_ value: JSONValue?) -> String?? {
    switch value {
    case nil: return .some(nil)
    case .string(let text)?: return .some(text)
    default: return nil
    }
  }

  /// An optional array member, read element by element: empty when missing.
  private static func array<Element>(
    _ value: JSONValue?, _ element: (JSONValue) -> Element?
  ) -> [Element]? {
    guard let value else { return [] }
    guard case .array(let values) = value else { return nil }
    var elements: [Element] = []
    elements.reserveCapacity(values.count)
    for value in values {
      guard let one = element(value) else { return nil }
      elements.append(one)
    }
    return elements
  }

  private static func event(_ value: JSONValue) -> WorkoutEvent? {
    guard case .object(let members) = value, members.keys.allSatisfy(NestedKeys.event.contains),
      case .integer(let code)? = members["type"], let type = WorkoutEventType(rawValue: code),
      let date = date(members["date"]), let duration = number(members["duration"]),
      let metadataValue = members["metadata"], let metadata = readMetadata(metadataValue)
    else { return nil }
    return WorkoutEvent(type: type, date: date, duration: duration, metadata: metadata)
  }

  private static func statistic(_ value: JSONValue) -> WorkoutStatistic? {
    guard case .object(let members) = value,
      members.keys.allSatisfy(NestedKeys.statistic.contains),
      case .string(let typeIdentifier)? = members["typeIdentifier"],
      case .string(let unit)? = members["unit"],
      let start = date(members["startDate"]), let end = date(members["endDate"])
    else { return nil }
    var values: [Double?] = []
    for key in ["average", "minimum", "maximum", "sum"] {
      guard let member = members[key] else {
        values.append(nil)
        continue
      }
      guard let number = number(member) else { return nil }
      values.append(number)
    }
    return WorkoutStatistic(
      typeIdentifier: typeIdentifier, startDate: start, endDate: end, average: values[0],
      minimum: values[1], maximum: values[2], sum: values[3], unit: unit)
  }

  private static func route(_ value: JSONValue) -> WorkoutRoute? {
    guard case .object(let members) = value, members.keys.allSatisfy(NestedKeys.route.contains),
      let start = date(members["startDate"]), let end = date(members["endDate"]),
      let metadataValue = members["metadata"], let metadata = readMetadata(metadataValue),
      case .some(let filePath) = optionalText(members["filePath"])
    else { return nil }
    var created: Date?
    if let member = members["creationDate"] {
      guard let date = date(member) else { return nil }
      created = date
    }
    var device: HealthDevice?
    if let member = members["device"] {
      guard let read = self.device(member) else { return nil }
      device = read
    }
    var revision: SourceRevision?
    if let member = members["sourceRevision"] {
      guard let read = sourceRevision(member) else { return nil }
      revision = read
    }
    return WorkoutRoute(
      sourceRevision: revision, device: device, creationDate: created, startDate: start,
      endDate: end, metadata: metadata, filePath: filePath)
  }

  private static func device(_ value: JSONValue) -> HealthDevice? {
    guard case .object(let members) = value, members.keys.allSatisfy(NestedKeys.device.contains)
    else { return nil }
    var texts: [String?] = []
    for key in [
      "name", "manufacturer", "model", "hardwareVersion", "firmwareVersion", "softwareVersion",
      "localIdentifier",
    ] {
      guard case .some(let text) = optionalText(members[key]) else { return nil }
      texts.append(text)
    }
    return HealthDevice(
      name: texts[0], manufacturer: texts[1], model: texts[2], hardwareVersion: texts[3],
      firmwareVersion: texts[4], softwareVersion: texts[5], localIdentifier: texts[6])
  }

  private static func sourceRevision(_ value: JSONValue) -> SourceRevision? {
    guard case .object(let members) = value,
      members.keys.allSatisfy(NestedKeys.revision.contains),
      case .object(let source)? = members["source"],
      source.keys.allSatisfy(NestedKeys.source.contains),
      case .string(let name)? = source["name"],
      case .string(let bundle)? = source["bundleIdentifier"],
      case .some(let version) = optionalText(members["version"]),
      case .some(let product) = optionalText(members["productType"]),
      case .some(let system) = optionalText(members["operatingSystemVersion"])
    else { return nil }
    return SourceRevision(
      source: HealthSource(name: name, bundleIdentifier: bundle), version: version,
      productType: product, operatingSystemVersion: system)
  }
}
