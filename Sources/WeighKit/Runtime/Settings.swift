import Foundation

/// The user's settings and profile, kept in the store's `settings` document.
public struct Settings: Equatable, Sendable {
  /// The machine's zone by the name the user gave it: `TZ` when it names an IANA zone
  /// (Foundation reports `TZ=UTC` as `GMT`), else Foundation's current zone.
  public static var systemTimeZone: String {
    if var name = ProcessInfo.processInfo.environment["TZ"] {
      // POSIX allows a leading colon before a zone file's name.
      if name.hasPrefix(":") { name.removeFirst() }
      if !name.isEmpty, TimeZone(identifier: name) != nil { return name }
    }
    return TimeZone.current.identifier
  }

  public var unit: DisplayUnit = .kg
  /// An IANA time zone name.
  public var timeZone: String = Settings.systemTimeZone
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

  /// Settings read back from a value weigh wrote; one that does not read (which the store
  /// refuses to load) leaves the defaults.
  public init(json: JSONValue?) {
    self = (try? Settings(document: json)) ?? Settings()
  }

  /// Settings read back from the store's `settings` document. A missing member keeps its
  /// default and an unknown member is ignored; a member of the wrong type or out of its
  /// range (`ValueLimits`) is a `DocumentProblem` at that member.
  public init(document: JSONValue?) throws(DocumentProblem) {
    guard let document else { return }
    let fields = try DocumentFields(document, path: [], what: "the settings")
    if let text = try fields.word("unit", DisplayUnit.allCases.map(\.rawValue)) {
      unit = DisplayUnit(rawValue: text)!
    }
    if let zone = try fields.timeZone("tz") { timeZone = zone }
    if let text = try fields.word("daily", DailyPolicy.allCases.map(\.rawValue)) {
      daily = DailyPolicy(rawValue: text)!
    }
    height = try fields.number("height_m", .heightMeters)
    prePregnancy = try fields.number("pre_pregnancy_kg", .kilograms)
    goal = try fields.number("goal_kg", .kilograms)
    if let text = try fields.string("pregnancy_start") {
      guard let date = Self.civilDate(text) else {
        throw fields.problem(
          "pregnancy_start",
          "\"pregnancy_start\" is \"\(text)\", not a date such as \"2026-03-01\" from 1900 to 9999")
      }
      pregnancyStart = date
    }
  }

  /// `YYYY-MM-DD` as a real date in years 1900–9999, or nil.
  static func civilDate(_ text: String) -> CivilDate? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      // checked: integer parses of text, nil when out of range
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
      (1900...9999).contains(year), CivilDate.isValid(year: year, month: month, day: day)
    else { return nil }
    return CivilDate(year: year, month: month, day: day)
  }
}
