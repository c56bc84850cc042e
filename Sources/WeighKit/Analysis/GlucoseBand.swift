/// The ATTD 2019 consensus glucose bands, in mg/dL.
///
/// The bands are cut at thresholds, not at whole numbers, so a fractional reading belongs to
/// the band its value falls in: very low < 54 ≤ low < 70 ≤ in range ≤ 180 < high ≤ 250 <
/// very high. Thus 69.5 is low and 180.4 is high, matching "below 70" and "above 180".
public enum GlucoseBand: String, CaseIterable, Sendable {
  /// Below 54 mg/dL.
  case veryLow = "very low"
  /// 54 to under 70 mg/dL.
  case low
  /// 70 to 180 mg/dL inclusive.
  case inRange = "in range"
  /// Above 180 up to 250 mg/dL.
  case high
  /// Above 250 mg/dL.
  case veryHigh = "very high"

  /// The band of a reading in mg/dL.
  public init(milligramsPerDeciliter value: Double) {
    switch value {
    case ..<54: self = .veryLow
    case ..<70: self = .low
    case ...180: self = .inRange
    case ...250: self = .high
    default: self = .veryHigh
    }
  }

  /// The band's bounds as printed, e.g. `70-180`.
  public var rangeText: String {
    switch self {
    case .veryLow: "<54"
    case .low: "54-69"
    case .inRange: "70-180"
    case .high: "181-250"
    case .veryHigh: ">250"
    }
  }
}
