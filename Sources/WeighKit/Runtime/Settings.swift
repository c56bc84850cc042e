import Foundation

/// The user's settings and profile, kept in the store's `settings` document.
public struct Settings: Equatable, Sendable {
  public var unit: DisplayUnit = .kg
  /// An IANA time zone name.
  public var timeZone: String = TimeZone.current.identifier
  public var daily: DailyPolicy = .first
  /// Metres.
  public var height: Double?
  /// Kilograms.
  public var prePregnancy: Double?
  /// Kilograms.
  public var goal: Double?
  /// The first day of pregnancy week 1, for the IOM band of `chart … to FILE.svg`.
  public var pregnancyStart: CivilDate?

  public init() {}

  /// The settings as stored.
  public var json: JSONValue {
    var object: [String: JSONValue] = [
      "unit": .string(unit.rawValue),
      "tz": .string(timeZone),
      "daily": .string(daily.rawValue),
    ]
    if let height { object["height_m"] = .number(height) }
    if let prePregnancy { object["pre_pregnancy_kg"] = .number(prePregnancy) }
    if let goal { object["goal_kg"] = .number(goal) }
    if let pregnancyStart { object["pregnancy_start"] = .string(pregnancyStart.description) }
    return .object(object)
  }

  /// Settings read back from the store; unknown or missing keys keep their defaults.
  public init(json: JSONValue?) {
    guard case .object(let object)? = json else { return }
    if case .string(let text)? = object["unit"], let unit = DisplayUnit(rawValue: text) {
      self.unit = unit
    }
    if case .string(let text)? = object["tz"], TimeZone(identifier: text) != nil {
      timeZone = text
    }
    if case .string(let text)? = object["daily"], let daily = DailyPolicy(rawValue: text) {
      self.daily = daily
    }
    height = object["height_m"]?.doubleValue
    prePregnancy = object["pre_pregnancy_kg"]?.doubleValue
    goal = object["goal_kg"]?.doubleValue
    if let text = object["pregnancy_start"]?.stringValue {
      // checked: parses text, nil when out of range
      let parts = text.split(separator: "-").compactMap { Int($0) }
      if parts.count == 3 {
        pregnancyStart = CivilDate(year: parts[0], month: parts[1], day: parts[2])
      }
    }
  }
}
