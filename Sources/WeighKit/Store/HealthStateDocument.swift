import Foundation
import HealthSim

/// The store's `health` document: the simulated Health store's small state
/// (`HealthSmallState`, written through Codable), read with every member checked.
///
/// The numbers Health computes with are checked against their ranges first: times (Codable
/// writes a `Date` as seconds since 2001-01-01) in 1900–9999, durations, counts, the change
/// counter, simulation parameters and time zone names. Then Codable reads the whole state,
/// which finds wrong types, unknown words and missing members.
enum HealthStateDocument {
  /// Seconds from 1970-01-01 to 2001-01-01, where Codable's dates count from.
  private static let referenceOffset = 978_307_200.0

  /// A time as Codable writes it.
  static let date = StoredValueRule(
    "a time", "from 1900-01-01 to 9999-12-31 (seconds since 2001-01-01)",
    Double(ValueLimits.instant.lowerBound) - referenceOffset,
    Double(ValueLimits.instant.upperBound) - referenceOffset)
  /// A simulation's interval: more than nothing, at most 1000 years.
  static let interval = StoredValueRule(
    "an interval", "more than 0 and at most 31556952000 s", 0,
    Double(ValueLimits.durationSeconds.upperBound), lowerIsOpen: true)
  /// The factor retry delays grow by (no command changes it; the default is 2).
  static let multiplier = StoredValueRule("a backoff factor", "1 to 10", 1, 10)
  /// A limit on failed deliveries (no command changes it; the default is 3).
  static let failureLimit = StoredValueRule(
    "a limit", "a whole number from 1 to 100", 1, 100, whole: true)
  /// The longest retry delay, backoff × factor^(limit − 1): 1000 times the longest
  /// duration, so that a retry's date stays far inside what every conversion can hold.
  static let longestRetry = Double(ValueLimits.durationSeconds.upperBound) * 1000
  /// A day number since 1970.
  static let day = StoredValueRule(
    "a day", "a whole number of days from 1900 to 9999",
    (Double(ValueLimits.instant.lowerBound) / 86_400).rounded(.down),
    (Double(ValueLimits.instant.upperBound) / 86_400).rounded(.down), whole: true)
  /// Drift and noise of a simulated scale, per day, in kg.
  static let scaleChange = StoredValueRule(
    "a scale's drift or noise", "-1000 to 1000 kg", -1000, 1000)
  /// Drift and noise of a simulated glucose monitor, in mg/dL.
  static let glucoseChange = StoredValueRule(
    "a glucose monitor's drift or noise", "-10000 to 10000 mg/dL", -10_000, 10_000)
  /// Noise of a simulated step counter.
  static let stepNoise = StoredValueRule(
    "a step counter's noise", "0 to 1000000 steps", 0, 1_000_000)

  /// The state in `value`, checked.
  ///
  /// - Throws: `DocumentProblem` at the first value that is of the wrong type, unknown or
  ///   out of range.
  static func decode(_ value: JSONValue) throws(DocumentProblem) -> HealthSmallState {
    let root = try DocumentFields(value, path: [], what: "the health document")
    // Ranges first: Codable reports a number too large for its type without saying where.
    try checkRanges(root)
    var writer = JSONWriter()
    writer.write(value)
    let state: HealthSmallState
    do {
      state = try JSONDecoder().decode(HealthSmallState.self, from: Data(writer.bytes))
    } catch let error as DecodingError {
      throw problem(error, in: value)
    } catch {
      throw DocumentProblem(path: [], message: "the health document cannot be read")
    }
    return state
  }

  // MARK: Ranges

  private static func checkRanges(_ root: DocumentFields) throws(DocumentProblem) {
    _ = try root.number("clock", date)
    _ = try root.whole("counter", .sequence)
    if let settings = try root.object("settings") {
      // Health's settings read a missing knob as its default; null is not missing.
      for (key, value) in settings.members.sorted(by: { $0.key < $1.key }) where value == .null {
        throw settings.problem(key, "\"\(key)\" must not be null; leave it out for the default")
      }
      let backoff = try settings.number("retryBackoff", .durationSeconds) ?? 60
      let factor = try settings.number("retryBackoffMultiplier", multiplier) ?? 2
      _ = try settings.whole("watchBackgroundBudgetPerDay", .count)
      let limit = try settings.whole("maximumFailedDeliveries", failureLimit) ?? 3
      guard backoff * pow(factor, Double(limit - 1)) <= longestRetry else {
        throw settings.problem(
          "retryBackoffMultiplier",
          "the longest retry delay (retryBackoff × retryBackoffMultiplier^(maximumFailedDeliveries − 1)) "
            + "is more than 31556952000000 s; lower one of them")
      }
    }
    // Dictionaries keyed by sample type are written as [key, value, key, value, …].
    if let delivery = try root.array("delivery") {
      for index in stride(from: 1, to: delivery.count, by: 2) {
        let fields = try DocumentFields(
          delivery[index], path: root.path("delivery") + [.index(index)], what: "a delivery")
        _ = try fields.number("lastWake", date)
        _ = try fields.whole("consecutiveFailures", .count)
        _ = try fields.whole("deliveries", .count)
        if let scheduled = try fields.object("scheduled") {
          _ = try scheduled.number("date", date)
        }
      }
    }
    if let authorization = try root.object("authorization"),
      let notBefore = try authorization.array("readNotBefore")
    {
      for index in stride(from: 1, to: notBefore.count, by: 2) {
        _ = try DocumentFields.number(
          notBefore[index], "readNotBefore", date,
          path: authorization.path("readNotBefore") + [.index(index)])
      }
    }
    if let budget = try root.object("wakeBudget") {
      _ = try budget.whole("day", day)
      _ = try budget.whole("wakes", .count)
    }
    if let simulations = try root.array("simulations") {
      for (index, simulation) in simulations.enumerated() {
        try checkSimulation(
          DocumentFields(
            simulation, path: root.path("simulations") + [.index(index)], what: "a simulation"))
      }
    }
    if let scheduler = try root.object("scheduler") {
      _ = try scheduler.whole("nextSequence", .count)
      for (index, entry) in (try scheduler.array("heap") ?? []).enumerated() {
        let fields = try DocumentFields(
          entry, path: scheduler.path("heap") + [.index(index)], what: "a scheduled event")
        _ = try fields.number("date", date)
      }
    }
  }

  private static func checkSimulation(_ simulation: DocumentFields) throws(DocumentProblem) {
    _ = try simulation.number("nextReading", date)
    _ = try simulation.whole("readings", .count)
    guard let definition = try simulation.object("definition") else { return }
    _ = try definition.number("interval", interval)
    _ = try definition.number("start", date)
    _ = try definition.timeZone("timeZoneIdentifier")
    if let time = try definition.object("timeOfDay") {
      _ = try time.whole("hour", StoredValueRule("an hour", "0 to 23", 0, 23, whole: true))
      _ = try time.whole("minute", StoredValueRule("a minute", "0 to 59", 0, 59, whole: true))
    }
    guard let model = try definition.object("model") else { return }
    if let scale = try model.object("scale")?.object("_0") {
      _ = try scale.number("startKilograms", .kilograms)
      _ = try scale.number("driftKilogramsPerDay", scaleChange)
      _ = try scale.number("noiseKilograms", scaleChange)
    }
    if let glucose = try model.object("glucose")?.object("_0") {
      _ = try glucose.number("startMilligramsPerDeciliter", .glucose)
      _ = try glucose.number("driftPerDay", glucoseChange)
      _ = try glucose.number("noise", glucoseChange)
    }
    if let steps = try model.object("steps")?.object("_0") {
      _ = try steps.number("meanSteps", .steps)
      _ = try steps.number("noise", stepNoise)
    }
  }

  // MARK: Codable's errors in weigh's words

  /// A decoding error as a problem at the path it names, in words of this project.
  static func problem(_ error: DecodingError, in document: JSONValue) -> DocumentProblem {
    func steps(_ path: [any CodingKey]) -> [DocumentProblem.Step] {
      path.map { key in
        if let index = key.intValue, key.stringValue.hasPrefix("Index ") { return .index(index) }
        return .key(key.stringValue)
      }
    }
    func name(_ path: [any CodingKey]) -> String {
      guard let last = path.last(where: { !$0.stringValue.hasPrefix("Index ") }) else {
        return "the health document"
      }
      return "\"\(last.stringValue)\""
    }
    switch error {
    case .typeMismatch(let type, let context):
      return DocumentProblem(
        path: steps(context.codingPath),
        message: "\(name(context.codingPath)) must be \(describe(type))")
    case .valueNotFound(let type, let context):
      return DocumentProblem(
        path: steps(context.codingPath),
        message: "\(name(context.codingPath)) must be \(describe(type)), not null")
    case .keyNotFound(let key, let context):
      return DocumentProblem(
        path: steps(context.codingPath),
        message: "\(name(context.codingPath)) lacks \"\(key.stringValue)\"")
    case .dataCorrupted(let context):
      let path = steps(context.codingPath)
      let found: String
      switch document.value(at: path) {
      case .string(let text)?: found = "\"\(text)\""
      case .integer(let number)?: found = String(number)
      default: found = "a value"
      }
      return DocumentProblem(
        path: path,
        message: "\(name(context.codingPath)) is \(found), which this weigh does not know")
    @unknown default:
      return DocumentProblem(path: [], message: "the health document cannot be read")
    }
  }

  private static func describe(_ type: Any.Type) -> String {
    switch type {
    case is Double.Type, is Date.Type, is Float.Type: "a number"
    case is Int.Type, is Int64.Type, is UInt64.Type, is UInt.Type: "a whole number"
    case is String.Type: "a string"
    case is Bool.Type: "true or false"
    default:
      String(describing: type).hasPrefix("Array") ? "an array" : "an object"
    }
  }
}

extension JSONValue {
  /// The value at `path` inside this one, or nil when the path leads nowhere.
  func value(at path: [DocumentProblem.Step]) -> JSONValue? {
    var current = self
    for step in path {
      switch (step, current) {
      case (.key(let name), .object(let members)):
        guard let member = members[name] else { return nil }
        current = member
      case (.index(let index), .array(let items)):
        guard items.indices.contains(index) else { return nil }
        current = items[index]
      default:
        return nil
      }
    }
    return current
  }
}
