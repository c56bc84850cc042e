/// A kind of measured value with its documented range (``ValueLimits``): the one check
/// every weight, glucose reading, count, energy, exercise time and height passes through,
/// whether it comes from the language, an importer or a simulation.
public enum Measure: String, CaseIterable, Sendable {
  case mass
  case glucose
  case steps
  case energy
  case exerciseMinutes
  case height

  /// The valid values, in the canonical unit (kg, mg/dL, steps, kcal, min, m).
  public var limits: ClosedRange<Double> {
    switch self {
    case .mass: ValueLimits.kilograms
    case .glucose: ValueLimits.milligramsPerDeciliter
    case .steps: ValueLimits.steps
    case .energy: ValueLimits.kilocalories
    case .exerciseMinutes: ValueLimits.exerciseMinutes
    case .height: ValueLimits.heightMeters
    }
  }

  /// Whether the lower bound itself is excluded: a weight or a glucose reading of 0 is no
  /// reading, while 0 steps is a quiet hour.
  public var excludesLowerBound: Bool { self == .mass || self == .glucose }

  /// How a message names the value: `a weight`.
  public var noun: String {
    switch self {
    case .mass: "a weight"
    case .glucose: "a glucose reading"
    case .steps: "a step count"
    case .energy: "active energy"
    case .exerciseMinutes: "exercise time"
    case .height: "a height"
    }
  }

  /// The canonical unit as messages write it.
  public var unit: String {
    switch self {
    case .mass: "kg"
    case .glucose: "mg/dL"
    case .steps: "steps"
    case .energy: "kcal"
    case .exerciseMinutes: "min"
    case .height: "m"
    }
  }

  /// Whether `value` is finite and inside the range.
  public func contains(_ value: Double) -> Bool {
    guard value.isFinite, limits.contains(value) else { return false }
    return !(excludesLowerBound && value == limits.lowerBound)
  }

  /// `more than 0 kg and at most 1000 kg`, `from 0 to 1000000 steps`.
  public var rangeText: String {
    let low = DisplayUnit.formatNumber(limits.lowerBound, decimals: 1).droppingZeroFraction
    let high = DisplayUnit.formatNumber(limits.upperBound, decimals: 1).droppingZeroFraction
    return excludesLowerBound
      ? "more than \(low) \(unit) and at most \(high) \(unit)"
      : "from \(low) to \(high) \(unit)"
  }

  /// `a weight must be more than 0 kg and at most 1000 kg, got 1200.0 kg`, or nil when
  /// `value` is valid.
  public func problem(with value: Double) -> String? {
    guard !contains(value) else { return nil }
    let shown = DisplayUnit.formatNumber(value, decimals: 1)
    return "\(noun) must be \(rangeText), got \(shown) \(unit)"
  }

  /// `value` when it is valid; otherwise an error at `span` naming the range.
  @discardableResult
  public func validate(_ value: Double, at span: SourceSpan?) throws(Diagnostic) -> Double {
    if let problem = problem(with: value) { throw Diagnostic(problem, at: span) }
    return value
  }
}

extension String {
  /// `1000` for `1000.0`; other text unchanged.
  var droppingZeroFraction: String { hasSuffix(".0") ? String(dropLast(2)) : self }
}
