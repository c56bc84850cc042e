/// Why a pregnancy weight range cannot be computed.
public enum PregnancyRangeError: Error, Equatable, Sendable {
  /// No height is set.
  case missingHeight
  /// No pre-pregnancy weight is set.
  case missingPrePregnancyWeight
  /// The week is outside 1–42.
  case weekOutOfRange(Int)

  /// A lower-case message that names the fix.
  public var message: String {
    switch self {
    case .missingHeight:
      "no height set; set it first, e.g. set height 165cm"
    case .missingPrePregnancyWeight:
      "no pre-pregnancy weight set; set it first, e.g. set pre-pregnancy 60kg"
    case .weekOutOfRange(let week):
      "pregnancy week \(week) is out of range; use a week from 1 to 42"
    }
  }
}
