/// The settings weigh's JSON export carries (`"settings"`), so that a store restored from
/// an export shows weights as before: display unit, height, goal and pre-pregnancy weight.
public struct ExportedSettings: Equatable, Sendable {
  public var unit: DisplayUnit
  /// Metres.
  public var height: Double?
  /// Kilograms.
  public var goal: Double?
  /// Kilograms.
  public var prePregnancy: Double?

  public init(
    unit: DisplayUnit, height: Double? = nil, goal: Double? = nil, prePregnancy: Double? = nil
  ) {
    self.unit = unit
    self.height = height
    self.goal = goal
    self.prePregnancy = prePregnancy
  }

  /// The exported part of a store's settings.
  public init(_ settings: Settings) {
    self.init(
      unit: settings.unit, height: settings.height, goal: settings.goal,
      prePregnancy: settings.prePregnancy)
  }

  /// `settings` with these values in place.
  public func applied(to settings: Settings) -> Settings {
    var settings = settings
    settings.unit = unit
    settings.height = height
    settings.goal = goal
    settings.prePregnancy = prePregnancy
    return settings
  }

  /// The JSON object as the export writes it, on one line; members without a value are
  /// left out.
  public var jsonText: String {
    var members = ["\"unit\": \(WeighJSONExporter.string(unit.rawValue))"]
    if let height { members.append("\"height_m\": \(height)") }
    if let goal { members.append("\"goal_kg\": \(goal)") }
    if let prePregnancy { members.append("\"pre_pregnancy_kg\": \(prePregnancy)") }
    return "{" + members.joined(separator: ", ") + "}"
  }

  /// `unit lb, height 180.0 cm, goal 80.0 kg`: for messages, as `settings` shows them, weights
  /// in `unit`'s terms.
  public var summary: String {
    var parts = ["unit \(unit.rawValue)"]
    if let height { parts.append("height \(SetCommand.formatHeight(height))") }
    if let goal { parts.append("goal \(unit.format(kilograms: goal))") }
    if let prePregnancy { parts.append("pre-pregnancy \(unit.format(kilograms: prePregnancy))") }
    return parts.joined(separator: ", ")
  }
}
